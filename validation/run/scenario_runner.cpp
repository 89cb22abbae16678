#include "run/scenario_runner.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "core/checks.h"
#include "io/atomic_file.h"
#include "observe/energy_ledger.h"
#include "observe/time_series_writer.h"
#include "registry/registries.h"

namespace impactlab {

namespace {
constexpr double kMaxOutputEvery = 1e15;  ///< steps between CSV rows; far beyond any run, exactly a long
}  // namespace

PreparedRun PrepareScenarioRun(const RunRequest& request) {
  const Scenario& sc = request.scenario;
  const ParameterSet& p = sc.parameters;
  std::vector<std::string> names = request.integrators;
  if (names.empty()) names = sc.integrators;
  if (names.empty()) names = {"velocity_verlet"};

  PreparedRun run;
  run.model = ModelRegistry().Get(sc.model).make(p);
  SimulationOptions& options = run.options;
  options.dt = request.dt ? *request.dt : p.GetDouble("dt");
  if (request.dt && p.Has("dt")) (void)p.GetDouble("dt");  // overridden by --dt, but not an unknown key
  RequirePositive("dt", options.dt);
  options.t_end = RequirePositive("t_end", p.GetDouble("t_end"));
  options.stop_after_separation = RequireNonNegative("stop_after_separation", p.GetDouble("stop_after_separation", 0.0));
  // At least one step and within long's range: the cast below is undefined behaviour outside it
  // (`output_every = 1e300`, docs/reliability.md); a value below 1 is an error, not silently 1.
  const double output_every = p.GetDouble("output_every", 0.0) > 0
      ? p.GetDouble("output_every")
      : std::clamp(std::floor(options.t_end / options.dt / 20000.0), 1.0, kMaxOutputEvery);
  run.output_every = static_cast<long>(RequireInClosed("output_every", output_every, 1.0, kMaxOutputEvery));
  for (const auto& n : names) run.integrators.push_back(IntegratorRegistry().Get(n).make(p));
  // Option keys of integrators not selected in this run (e.g. cvode_rtol when only rk4 runs) are valid keys:
  // constructing every registered integrator reads (and validates) them.
  for (const auto& [n, entry] : IntegratorRegistry().entries()) (void)entry.make(p);
  if (auto unused = p.UnusedKeys(); !unused.empty()) {
    std::string list;
    for (const auto& k : unused) list += (list.empty() ? "" : ", ") + k;
    throw InvalidParameter(unused.front(), ParameterSet::ToString(p.values().at(unused.front())),
                           "a key of model \"" + sc.model + "\" (unknown keys: " + list + "; see docs/scenarios.md)");
  }
  return run;
}

nlohmann::json RunScenario(const RunRequest& request) {
  const Scenario& sc = request.scenario;
  const ParameterSet& p = sc.parameters;
  // Build everything first: all input errors surface before any file is written.
  PreparedRun prepared = PrepareScenarioRun(request);
  const ModelInstance& model = prepared.model;
  const SimulationOptions& options = prepared.options;
  const long output_every = prepared.output_every;
  std::vector<std::unique_ptr<Integrator>>& integrators = prepared.integrators;

  nlohmann::json summary;
  summary["scenario"] = sc.path;
  summary["model"] = sc.model;
  nlohmann::json params;
  for (const auto& [k, v] : p.values()) {
    if (auto d = std::get_if<double>(&v)) params[k] = *d;
    else if (auto s = std::get_if<std::string>(&v)) params[k] = *s;
    else if (auto b = std::get_if<bool>(&v)) params[k] = *b;
    else params[k] = std::get<std::vector<double>>(v);
  }
  summary["parameters"] = params;
  summary["runs"] = nlohmann::json::array();

  const MechanicalSystem& system = *model.system;
  for (auto& integrator : integrators) {
    EnergyLedger ledger;
    std::vector<StepObserver*> observers{&ledger};
    std::unique_ptr<TimeSeriesWriter> writer;
    if (!request.out_dir.empty()) {
      writer = std::make_unique<TimeSeriesWriter>(std::filesystem::path(request.out_dir) /
                                                      (integrator->name() + ".csv"),
                                                  output_every);
      observers.push_back(writer.get());
    }
    const SimulationRecord record = Simulate(system, *integrator, system.InitialState(), options, observers);
    nlohmann::json run;
    run["integrator"] = integrator->name();
    run["dt"] = options.dt;
    run["steps"] = record.steps;
    run["energy_error_max"] = ledger.energy_error_max();
    run["energy_balance_residual_max"] = ledger.balance_residual_max();
    run["momentum_drift_max"] =
        ledger.momentum_drift_max() ? nlohmann::json(*ledger.momentum_drift_max()) : nlohmann::json(nullptr);
    run["wall_time_s"] = record.wall_time_s;
    run["rhs_evaluations"] = record.statistics.rhs_evaluations;
    run["newton_iterations"] = record.statistics.newton_iterations;
    run["rejected_steps"] = record.statistics.rejected_steps;
    run["internal_steps"] = record.statistics.internal_steps;
    run["final_time"] = record.final_state.t;
    model.summarize(RunOutcome{record, ledger}, run);
    nlohmann::json events = nlohmann::json::array();
    for (const auto& ev : record.events) {
      if (events.size() >= 200) break;
      events.push_back({{"contact", ev.contact}, {"kind", ToString(ev.kind)}, {"t", ev.t}, {"overlap", ev.overlap},
                        {"overlap_rate", ev.overlap_rate}, {"located_by", ev.located_by}});
    }
    run["events"] = events;
    summary["runs"].push_back(run);
  }
  if (!request.out_dir.empty())
    WriteFileAtomically(std::filesystem::path(request.out_dir) / "summary.json", summary.dump(2) + "\n");
  return summary;
}

std::string FormatSummaryTable(const nlohmann::json& summary) {
  const std::vector<std::pair<std::string, std::string>> cols = {
      {"integrator", "integrator"},      {"dt", "dt [s]"},
      {"steps", "steps"},                {"restitution", "e"},
      {"contact_duration", "t_c [s]"},   {"max_overlap", "delta_max [m]"},
      {"energy_error_max", "max|dE|/E0"}, {"energy_balance_residual_max", "max|E+D-E0|/E0"},
      {"momentum_drift_max", "momentum drift"}, {"rhs_evaluations", "RHS evals"},
      {"wall_time_s", "wall [s]"}};
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header;
  for (const auto& [_, h] : cols) header.push_back(h);
  rows.push_back(header);
  for (const auto& run : summary["runs"]) {
    std::vector<std::string> row;
    for (const auto& [key, _] : cols) {
      std::ostringstream os;
      if (!run.contains(key) || run[key].is_null()) os << "-";
      else if (run[key].is_string()) os << run[key].get<std::string>();
      else if (run[key].is_number_integer()) os << run[key].get<long>();
      else if (run[key].is_number()) os << std::setprecision(key == "restitution" ? 10 : 4) << run[key].get<double>();
      else os << run[key].dump();
      row.push_back(os.str());
    }
    rows.push_back(row);
  }
  std::vector<size_t> width(cols.size(), 0);
  for (const auto& r : rows)
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  std::ostringstream out;
  for (size_t ri = 0; ri < rows.size(); ++ri) {
    out << "|";
    for (size_t i = 0; i < rows[ri].size(); ++i) out << ' ' << std::setw(static_cast<int>(width[i])) << std::left << rows[ri][i] << " |";
    out << '\n';
    if (ri == 0) {
      out << "|";
      for (size_t i = 0; i < rows[ri].size(); ++i) out << std::string(width[i] + 2, '-') << "|";
      out << '\n';
    }
  }
  return out.str();
}

}  // namespace impactlab
