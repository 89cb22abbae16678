#include "bench/sweep_benchmark.h"

#include <algorithm>
#include <limits>

#include "sweep/parallel_sweep.h"

namespace impactlab::bench {

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
          {"identical_results", csv1 == csv2}};
}

}  // namespace impactlab::bench
