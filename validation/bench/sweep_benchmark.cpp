#include "bench/sweep_benchmark.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "sweep/parallel_sweep.h"

namespace impactlab::bench {

namespace {

/// The sweep CSV without its wall_time_s column, the one column that depends on timing (parallel_sweep.cpp):
/// what must be identical for 1 and 2 threads.
std::string WithoutWallTime(const std::string& csv) {
  std::istringstream in(csv);
  std::string line, out;
  long drop = -1;
  bool header = true;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (header) {
      const auto it = std::find(cells.begin(), cells.end(), "wall_time_s");
      if (it != cells.end()) drop = it - cells.begin();
      header = false;
    }
    for (long k = 0; k < static_cast<long>(cells.size()); ++k)
      if (k != drop) out += cells[static_cast<size_t>(k)] + ",";
    out += "\n";
  }
  return out;
}

}  // namespace

nlohmann::json RunSweepScaling(bool quick) {
  SweepSpec spec = ReferenceScalingSweep();
  if (quick) spec.axes = {ParseSweepAxis("theta_deg=0:75:4"), ParseSweepAxis("e_cn=0.5,0.9")};
  const int repeats = quick ? 1 : 2;
  double best1 = std::numeric_limits<double>::infinity(), best2 = best1;
  std::string csv1, csv2;
  size_t rows = 0;
  for (int r = 0; r < repeats; ++r) {
    SweepOptions one;
    one.threads = 1;
    const SweepResult a = RunSweep(spec, one);
    SweepOptions two;
    two.threads = 2;
    const SweepResult b = RunSweep(spec, two);
    best1 = std::min(best1, a.wall_time_s);
    best2 = std::min(best2, b.wall_time_s);
    csv1 = a.csv;
    csv2 = b.csv;
    rows = a.rows_done;
  }
  return {{"description", std::to_string(rows) + " ellipsoid-wall impacts (velocity Verlet, ReferenceScalingSweep" +
                              std::string(quick ? ", quick subset" : "") + ")"},
          {"rows", rows},
          {"repeats", repeats},
          {"wall_s_1_thread", best1},
          {"wall_s_2_threads", best2},
          {"sweep_speedup_2_threads", best1 / best2},
          {"identical_results", WithoutWallTime(csv1) == WithoutWallTime(csv2)}};
}

}  // namespace impactlab::bench
