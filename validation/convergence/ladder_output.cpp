#include "convergence/ladder_output.h"

#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <sstream>

#include "io/atomic_file.h"
#include "io/resumable_table.h"

namespace impactlab {

namespace {
std::string Cell(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return FormatShortest(v.get<double>());
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}
}  // namespace

void WriteLadderOutputs(const std::filesystem::path& dir, const nlohmann::json& ladder, const std::string& kind) {
  const auto metrics = ladder["metrics"].get<std::vector<std::string>>();
  std::ostringstream csv;
  csv << "integrator,adaptive,ladder,x";
  for (const auto& m : metrics) csv << "," << m << "_error";
  for (const auto& m : metrics) csv << "," << m << "_excluded";
  csv << ",wall_time_s,wall_time_min_s,wall_time_max_s,steps,rhs_evaluations,above_stability,status\n";
  for (const auto& s : ladder["series"]) {
    for (const auto& p : s["points"]) {
      csv << s["integrator"].get<std::string>() << "," << Cell(s["adaptive"]) << "," << s["ladder"].get<std::string>()
          << "," << Cell(p["x"]);
      for (const auto& m : metrics) csv << "," << Cell(p["errors"][m]);
      for (const auto& m : metrics) csv << "," << Cell(p["excluded"][m]);
      csv << "," << Cell(p["wall_time_s"]) << "," << Cell(p["wall_time_min_s"]) << "," << Cell(p["wall_time_max_s"])
          << "," << Cell(p["steps"]) << "," << Cell(p["rhs_evaluations"]) << "," << Cell(p["above_stability"]) << ","
          << Cell(p["status"]) << "\n";
    }
  }
  WriteFileAtomically(dir / (kind + ".json"), ladder.dump(2) + "\n");
  WriteFileAtomically(dir / (kind + ".csv"), csv.str());
  const std::filesystem::path script = std::filesystem::path(IMPACTLAB_SOURCE_DIR) / "scripts" / "plot_ladder.py";
  const std::string python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const std::string cmd = python + " '" + script.string() + "' '" + (dir / (kind + ".json")).string() + "' " + kind;
  if (std::system(cmd.c_str()) != 0)
    std::fprintf(stderr, "impactlab: warning: figure rendering failed (python3-matplotlib missing?)\n");
}

std::string FormatLadderTable(const nlohmann::json& ladder, const std::string& kind) {
  std::ostringstream os;
  os << "reference: " << ladder["reference"]["name"].get<std::string>() << " ("
     << ladder["reference"]["richardson_check"].get<std::string>() << ")\n";
  os << "reference error estimate:";
  for (const auto& [metric, value] : ladder["reference"]["error_estimate"].items())
    os << " " << metric << " " << (value.is_null() ? std::string("n/a") : FormatShortest(value.get<double>()));
  os << " (points below 10x this, or below 1e-12, are at the floor)\n";
  (void)kind;  // the same table for both commands: order in dt, or slope against the tolerance
  os << "| integrator | ladder | metric | order (dt) or slope (tolerance) ± SE | 95 % interval | points fitted | "
        "left out |\n|---|---|---|---|---|---|---|\n";
  for (const auto& s : ladder["series"]) {
    for (const auto& m : ladder["metrics"]) {
      const std::string metric = m.get<std::string>();
      std::map<std::string, int> left_out;
      for (const auto& p : s["points"])
        if (!p["excluded"][metric].is_null()) ++left_out[p["excluded"][metric].get<std::string>()];
      std::string out;
      for (const auto& [why, n] : left_out) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + why;
      const auto& f = s["fit"][metric];
      os << "| " << s["integrator"].get<std::string>() << " | "
         << (s["adaptive"].get<bool>() ? std::string("tolerance (slope, not an order)")
             : s.value("grid_shifts", 1) > 1 ? "dt, largest error of " + std::to_string(s.value("grid_shifts", 1)) + " shifted grids"
                                             : std::string("dt"))
         << " | " << metric << " | ";
      if (f.is_null()) {
        os << "n/a (fewer than 3 points in the asymptotic range) | | 0 | " << out << " |\n";
      } else {
        os << std::fixed << std::setprecision(3) << f["order"].get<double>() << " ± " << f["standard_error"].get<double>()
           << " | [" << f["ci95"][0].get<double>() << ", " << f["ci95"][1].get<double>() << "] | "
           << f["points"].get<int>() << " | " << out << " |\n";
        os << std::defaultfloat;
      }
    }
  }
  return os.str();
}

}  // namespace impactlab
