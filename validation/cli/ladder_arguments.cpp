#include "cli/ladder_arguments.h"

#include <cmath>
#include <iomanip>
#include <iostream>

#include "cli/command.h"
#include "convergence/ladder_output.h"
#include "core/checks.h"
#include "core/errors.h"
#include "io/writable_directory.h"

namespace impactlab::cli {

namespace {
std::vector<double> LogLadder(double hi, double lo, int n) {
  std::vector<double> x;
  for (int i = 0; i < n; ++i) x.push_back(i == 0 ? hi : i + 1 == n ? lo : hi * std::pow(lo / hi, double(i) / (n - 1)));
  return x;
}
}  // namespace

void AddLadderOptions(CLI::App& sub, LadderArguments& a) {
  sub.add_option("scenario", a.scenario, "scenario TOML file (any model)")->required();
  sub.add_option("--set", a.sets, "override a scenario key: key=value (repeatable)");
  sub.add_option("--integrator", a.integrators, "integrator name (repeatable)")->required();
  sub.add_option("--dt-min", a.dt_min, "smallest step of fixed-step schemes [s] (default dt_max/16)");
  sub.add_option("--dt-max", a.dt_max, "largest step of fixed-step schemes [s] (default: the scenario's dt)");
  sub.add_option("--tol-min", a.tol_min, "smallest tolerance of adaptive schemes (default 1e-10)");
  sub.add_option("--tol-max", a.tol_max, "largest tolerance of adaptive schemes (default 1e-4)");
  sub.add_option("--levels", a.levels, "log-spaced levels per ladder, >= 3 (default 5)");
  sub.add_option("--grid-shifts", a.grid_shifts,
                 "fixed-step schemes: run each dt on K grids offset by k*dt/K and take the largest error (the error "
                 "bound when contact events fall at random phases of the step; default 1)");
  sub.add_option("--metric", a.metrics,
                 "error metric: final_state, energy, trajectory or a numeric run-summary key (restitution, max_overlap, "
                 "contact_duration, ...) (repeatable; default final_state and the contact metrics defined)");
  sub.add_option("--reference", a.reference,
                 "reference NAME[:key=value]... (default: exact where the model has it, else rk4:dt=dt_min/8)");
  sub.add_option("--out", a.out, "output directory (JSON, CSV, PNG)");
  sub.add_flag("--json", a.json, "print the JSON on stdout");
}

void BuildLadder(const LadderArguments& a, Scenario& sc, LadderOptions& o) {
  sc = LoadScenario(a.scenario);
  for (const auto& s : a.sets) ApplyOverride(sc, s);
  if (a.levels < 3 || a.levels > 60) throw InvalidParameter("--levels", a.levels, "an integer in [3, 60]");
  double dt_max = a.dt_max, dt_min = a.dt_min;
  if (dt_max == 0.0) {
    const auto& v = sc.parameters.values();
    const auto it = v.find("dt");
    if (it == v.end() || !std::holds_alternative<double>(it->second))
      throw InvalidParameter("--dt-max", "(not given)", "a step [s], or a scenario with a numeric dt");
    dt_max = std::get<double>(it->second);
  }
  RequirePositive("--dt-max", dt_max);
  if (dt_min == 0.0) dt_min = dt_max / 16.0;
  RequirePositive("--dt-min", dt_min);
  if (!(dt_min < dt_max)) throw InvalidParameter("--dt-min", dt_min, "< --dt-max = " + InvalidParameter::FormatNumber(dt_max));
  if (!(a.tol_max > 0.0 && a.tol_max < 1.0)) throw InvalidParameter("--tol-max", a.tol_max, "in (0, 1)");
  if (!(a.tol_min > 0.0 && a.tol_min < a.tol_max))
    throw InvalidParameter("--tol-min", a.tol_min, "in (0, --tol-max = " + InvalidParameter::FormatNumber(a.tol_max) + ")");
  o.integrators = a.integrators;
  o.dts = LogLadder(dt_max, dt_min, a.levels);
  o.tolerances = LogLadder(a.tol_max, a.tol_min, a.levels);
  o.metrics = a.metrics;
  o.reference = a.reference;
  o.repeats = a.repeats;
  o.grid_shifts = a.grid_shifts;
  CheckErrorLadder(sc, o);
}

int RunLadderCommand(const LadderArguments& a, const std::string& kind) {
  Scenario sc;
  LadderOptions o;
  BuildLadder(a, sc, o);
  if (CheckOnly()) return 0;
  if (!a.out.empty())  // before any run: an unwritable --out costs no computation
    RequireWritableDirectory(a.out, {kind + ".json", kind + ".csv", kind + ".png"}, "--out");
  o.progress = [kind](const std::string& line) { std::cerr << kind << ": " << line << std::endl; };
  const nlohmann::json j = RunErrorLadder(sc, o);
  if (!a.out.empty()) WriteLadderOutputs(a.out, j, kind);
  if (a.json) {
    std::cout << std::setprecision(17) << j.dump(2) << "\n";
  } else {
    std::cout << FormatLadderTable(j, kind);
    if (!a.out.empty()) std::cout << "wrote " << a.out << "/" << kind << ".{json,csv} and the figures\n";
  }
  return 0;
}

}  // namespace impactlab::cli
