#include "run/scenario_runner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "integrators/rigid_contact_scheme.h"
#include "core/checks.h"
#include "core/suggest.h"
#include "io/atomic_file.h"
#include "io/writable_directory.h"
#include "metrics/energy_ledger_summary.h"
#include "observe/energy_ledger.h"
#include "observe/progress_meter.h"
#include "observe/time_series_writer.h"
#include "registry/registries.h"

namespace impactlab {

namespace {
double RequireInteger(const std::string& key, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi && value == std::floor(value)))
    throw InvalidParameter(key, value,
                           "an integer in [" + InvalidParameter::FormatNumber(lo) + ", " +
                               InvalidParameter::FormatNumber(hi) + "]");
  return value;
}
constexpr double kMaxOutputEvery = 1e15;  ///< steps between CSV rows; far beyond any run, exactly a long

// The impacts a rigid-contact scheme resolved (integrators/rigid_contact_scheme.h), in place of the compliant contact
// events the driver does not locate for it: their number, the first one's time, contact, u⁻, u⁺ and restitution
// −u⁺/u⁻ (Newton's law u⁺ = −e u⁻; Moreau 1988, Acary & Brogliato 2008 §3.9), and the nonsmooth problems solved.
// "restitution" takes the first impact's value where the model's summary left it empty (the compliant measure
// from located contact events); a model that reads it from the velocities (sphere_wall, sphere_pair) keeps its own.
void SummarizeRigidImpacts(const RigidContactScheme& rigid, nlohmann::json& run) {
  const std::vector<RigidImpact>& impacts = rigid.rigid_impacts();
  run["impacts"] = impacts.size();
  nlohmann::json time(nullptr), contact(nullptr), u_minus(nullptr), u_plus(nullptr), ratio(nullptr);
  if (!impacts.empty()) {
    const RigidImpact& first = impacts.front();
    time = first.t;
    contact = first.contact;
    u_minus = first.u_minus;
    u_plus = first.u_plus;
    if (first.u_minus != 0.0) ratio = -first.u_plus / first.u_minus;
  }
  run["first_impact_time"] = time;
  run["first_impact_contact"] = contact;
  run["first_impact_u_minus"] = u_minus;
  run["first_impact_u_plus"] = u_plus;
  run["impact_restitution"] = ratio;
  if (!run.contains("restitution") || run["restitution"].is_null()) {
    run["restitution"] = ratio;
    if (run.contains("rebounds") && !impacts.empty()) run["rebounds"] = impacts.front().u_plus > 0.0;
  }
  const RigidProblemStatistics stats = rigid.problem_statistics();
  run["nonsmooth_problems"] = stats.problems;
  run["nonsmooth_iterations"] = stats.iterations;
  run["nonsmooth_unconverged"] = stats.unconverged;
  run["nonsmooth_residual_max"] = stats.max_residual;
}
}  // namespace

PreparedRun PrepareScenarioRun(const RunRequest& request) {
  const Scenario& sc = request.scenario;
  const ParameterSet& p = sc.parameters;
  std::vector<std::string> names = request.integrators;
  if (names.empty()) names = sc.integrators;
  if (names.empty()) names = {"velocity_verlet"};

  PreparedRun run;
  try {
    run.model = ModelRegistry().Get(sc.model).make(p);
  } catch (const InvalidParameter& e) {
    // A required key reported missing is often a misspelt key that is present: name it.
    if (e.value() == "<missing>") {
      if (const auto typo = ClosestMatch(e.parameter(), p.UnusedKeys()))
        throw InvalidParameter(e.parameter(), e.value(),
                               e.valid_range() + "; the scenario has the unknown key '" + *typo +
                                   "': did you mean '" + e.parameter() + "'?");
    }
    throw;
  }
  SimulationOptions& options = run.options;
  options.dt = request.dt ? *request.dt : p.GetDouble("dt");
  if (request.dt && p.Has("dt")) (void)p.GetDouble("dt");  // overridden by --dt, but not an unknown key
  RequirePositive("dt", options.dt);
  options.t_end = RequirePositive("t_end", p.GetDouble("t_end"));
  options.stop_after_separation = RequireNonNegative("stop_after_separation", p.GetDouble("stop_after_separation", 0.0));
  options.max_halvings =
      static_cast<int>(RequireInteger("max_step_halvings", p.GetDouble("max_step_halvings", 20.0), 0, 60));
  options.max_steps = static_cast<long>(RequireInteger("max_steps", p.GetDouble("max_steps", 5e7), 1, kMaxOutputEvery));
  options.return_on_failure = true;  // results up to a failure are written, then RunScenario throws
  options.event_states = run.model.event_states;  // the runner's own guards read t, contact and δ only
  run.overlap_fraction =
      RequireInLeftOpen("max_overlap_fraction", p.GetDouble("max_overlap_fraction", kMaxOverlapFraction), 0.0, 1.0);
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
    std::vector<std::string> valid = p.AskedKeys();
    valid.push_back("model");
    valid.push_back("integrators");
    throw InvalidParameter(unused.front(), ParameterSet::ToString(p.values().at(unused.front())),
                           "a key of model \"" + sc.model + "\" (unknown keys: " + list + "; see docs/scenarios.md)" +
                               DidYouMean(unused.front(), valid));
  }

  // A rigid-contact scheme finds out whether it can express the model (e.g. event-driven with Coulomb friction) only
  // when it builds its problem: one trial step from the initial state, so the refusal comes before anything runs.
  for (const auto& integrator : run.integrators) {
    if (!dynamic_cast<const RigidContactScheme*>(integrator.get())) continue;
    MechanicalState trial = run.model.system->InitialState();
    (void)integrator->Step(*run.model.system, trial, options.dt);  // InvalidParameter propagates
    integrator->Reset();
  }
  // Guard: dt against the model's stability estimate, for every conditionally stable (explicit fixed-step)
  // scheme — before anything runs or is written.
  const MechanicalSystem& system = *run.model.system;
  if (const auto crit = system.CriticalTimeStep(system.InitialState())) {
    for (const auto& integrator : run.integrators) {
      if (!IsConditionallyStable(integrator->traits()) || !(options.dt > *crit)) continue;
      const std::string what = "the estimated stability limit " + InvalidParameter::FormatNumber(*crit) +
                               " s of explicit '" + integrator->name() + "' for this model";
      if (request.strict) throw InvalidParameter("dt", options.dt, "<= " + what + " (--strict)");
      run.warnings.push_back("dt = " + InvalidParameter::FormatNumber(options.dt) + " is above " + what +
                             "; results may be unstable (use --strict to make this an error)");
    }
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
  const MechanicalSystem& system = *model.system;
  const double overlap_fraction = prepared.overlap_fraction;
  std::vector<std::string> warnings;
  auto warn = [&](const std::string& w) {
    warnings.push_back(w);
    if (request.warn) request.warn(w);
  };
  for (const auto& w : prepared.warnings) warn(w);  // found while preparing (dt above the stability limit)
  if (!request.out_dir.empty()) {  // before any step: an unwritable --out costs no computation
    std::vector<std::string> files{"summary.json"};
    for (const auto& integrator : integrators) files.push_back(integrator->name() + ".csv");
    RequireWritableDirectory(request.out_dir, files, "--out");
  }
  std::string first_failure, first_unstable;

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
    std::unique_ptr<ProgressMeter> meter;
    if (request.progress) {
      meter = std::make_unique<ProgressMeter>("impactlab: progress '" + integrator->name() + "'", options.t_end,
                                              request.progress);
      observers.push_back(meter.get());
    }
    if (request.observers)
      for (StepObserver* o : request.observers(*integrator)) observers.push_back(o);
    const SimulationRecord record = Simulate(system, *integrator, system.InitialState(), options, observers);
    nlohmann::json run;
    run["integrator"] = integrator->name();
    run["dt"] = options.dt;
    run["steps"] = record.steps;
    WriteEnergyLedger(ledger, run);
    run["wall_time_s"] = record.wall_time_s;
    run["rhs_evaluations"] = record.statistics.rhs_evaluations;
    run["newton_iterations"] = record.statistics.newton_iterations;
    run["rejected_steps"] = record.statistics.rejected_steps;
    run["internal_steps"] = record.statistics.internal_steps;
    run["final_time"] = record.final_state.t;
    model.summarize(RunOutcome{record, ledger}, run);
    if (const auto* rigid = dynamic_cast<const RigidContactScheme*>(integrator.get())) SummarizeRigidImpacts(*rigid, run);
    run["status"] = "ok";
    if (!record.failure.empty()) {
      run["status"] = "stopped";
      run["stopped_at"] = record.final_state.t;
      run["stop_reason"] = record.failure;
      if (first_failure.empty()) {
        first_failure = "'" + integrator->name() + "' stopped: " + record.failure;
        if (!request.out_dir.empty())
          first_failure += "; results up to that time written to " +
                           (std::filesystem::path(request.out_dir) / (integrator->name() + ".csv")).string() +
                           " and summary.json";
      }
    }
    // Guard: energy or restitution grown without a source (no model here has an energy source: forces are
    // conservative or dissipative), by more than kUnstableGrowth.
    {
      const double e0 = ledger.initial_energy(), scale = std::abs(e0) > 0 ? std::abs(e0) : 1.0;
      // (the ledger's books of the final state: the rigid problem's energy for a rigid-contact scheme)
      const double growth = (ledger.last_terms().Energy() - e0) / scale;
      std::string why;
      if (growth > kUnstableGrowth)
        why = "the energy grew by " + InvalidParameter::FormatNumber(growth) + " of E0 without a source";
      if (run.contains("restitution") && run["restitution"].is_number() &&
          run["restitution"].get<double>() > 1.0 + kUnstableGrowth)
        why += std::string(why.empty() ? "" : " and ") + "the restitution is " +
               InvalidParameter::FormatNumber(run["restitution"].get<double>()) + " > 1 without a source";
      run["energy_growth_final"] = growth;
      run["unstable"] = !why.empty();
      if (!why.empty()) {
        if (record.failure.empty()) run["status"] = "unstable";
        std::string w = "unstable run '" + integrator->name() + "' (dt = " + InvalidParameter::FormatNumber(options.dt) +
                        " s): " + why;
        if (const auto crit = system.CriticalTimeStep(system.InitialState());
            crit && IsConditionallyStable(integrator->traits()))
          w += " (estimated stability limit " + InvalidParameter::FormatNumber(*crit) + " s)";
        if (first_unstable.empty()) first_unstable = w;
        warn(w);
      }
    }
    // Guard: contact resolution of fixed-step schemes (adaptive ones refine inside the step; rigid-contact schemes
    // have no contact duration to resolve: their "contacts" are round-off penetrations inside an impact step).
    if (!integrator->traits().adaptive && !dynamic_cast<const RigidContactScheme*>(integrator.get())) {
      std::vector<double> start(static_cast<size_t>(std::max(system.num_contacts(), 0)), -1.0);
      std::optional<double> shortest;
      for (const auto& ev : record.events) {
        if (ev.contact < 0 || ev.contact >= static_cast<int>(start.size())) continue;
        if (ev.kind == ContactEventKind::kStart) start[ev.contact] = ev.t;
        if (ev.kind == ContactEventKind::kEnd && start[ev.contact] >= 0.0) {
          const double d = ev.t - start[ev.contact];
          if (!shortest || d < *shortest) shortest = d;
          start[ev.contact] = -1.0;
        }
      }
      if (shortest) {
        const double steps = *shortest / options.dt;
        run["min_steps_per_contact"] = steps;
        if (steps < kMinStepsPerContact) {
          char buf[256];
          std::snprintf(buf, sizeof buf,
                        "under-resolved contact with '%s': the shortest contact (%.6g s) took %.3g steps of dt = %.6g s, "
                        "fewer than %.0f; restitution and overlap errors grow fast below it (use dt <= %.6g s)",
                        integrator->name().c_str(), *shortest, steps, options.dt, kMinStepsPerContact,
                        *shortest / kMinStepsPerContact);
          warn(buf);
        }
      }
    }
    // Guard: an explicit fixed-step scheme rejects a step only when it was non-finite (or its velocity
    // fixed point failed); the driver then halved it. The run recovered, but dt is suspect: say so.
    if (IsConditionallyStable(integrator->traits()) && record.statistics.rejected_steps > 0) {
      const auto crit = system.CriticalTimeStep(system.InitialState());
      // (appended piecewise: GCC 12 emits a false -Wrestrict for the one-expression form, GCC bug 105329)
      std::string w = "'";
      w += integrator->name();
      w += "' rejected " + std::to_string(record.statistics.rejected_steps) +
           " step attempts (non-finite state or failed velocity iteration) and recovered by halving them: dt = " +
           InvalidParameter::FormatNumber(options.dt) + " is likely too large";
      if (crit) w += " (estimated stability limit " + InvalidParameter::FormatNumber(*crit) + " s)";
      if (request.strict) throw StepFailure(w + " (--strict)");
      warn(w);
    }
    // Guard: overlap against the contacts' characteristic size (located maximum-overlap events and the
    // final state, so a run that ends inside a contact is judged too).
    {
      std::optional<double> worst;
      int worst_contact = 0;
      double worst_overlap = 0.0;
      auto consider = [&](int i, double overlap) {
        const auto size = system.ContactSize(i);
        if (!size || !(*size > 0.0)) return;
        const double r = overlap / *size;
        if (!worst || r > *worst) {
          worst = r;
          worst_contact = i;
          worst_overlap = overlap;
        }
      };
      for (const auto& ev : record.events) consider(ev.contact, ev.overlap);
      if (system.num_contacts() > 0) {
        std::vector<double> d(system.num_contacts()), dd(system.num_contacts());
        system.ContactOverlaps(record.final_state, d, dd);
        for (int i = 0; i < system.num_contacts(); ++i) consider(i, d[i]);
      }
      if (worst) {
        run["overlap_over_size_max"] = std::max(*worst, 0.0);
        run["unphysical_overlap"] = *worst > overlap_fraction;
        if (*worst > overlap_fraction) {
          const std::string w = "unphysical overlap with '" + integrator->name() + "': delta = " +
                                InvalidParameter::FormatNumber(worst_overlap) + " m at contact " +
                                std::to_string(worst_contact) + " is " + InvalidParameter::FormatNumber(*worst) +
                                " of the contact size " +
                                InvalidParameter::FormatNumber(*system.ContactSize(worst_contact)) +
                                " m (limit max_overlap_fraction = " + InvalidParameter::FormatNumber(overlap_fraction) +
                                "): the contact law is far outside its small-overlap range";
          if (request.strict) throw StepFailure(w + " (--strict)");
          warn(w);
        }
      }
    }
    nlohmann::json events = nlohmann::json::array();
    for (const auto& ev : record.events) {
      if (events.size() >= 200) break;
      events.push_back({{"contact", ev.contact}, {"kind", ToString(ev.kind)}, {"t", ev.t}, {"overlap", ev.overlap},
                        {"overlap_rate", ev.overlap_rate}, {"located_by", ev.located_by}});
    }
    run["events"] = events;
    summary["runs"].push_back(run);
  }
  if (!warnings.empty()) summary["warnings"] = warnings;
  if (!request.out_dir.empty())
    WriteFileAtomically(std::filesystem::path(request.out_dir) / "summary.json", summary.dump(2) + "\n");
  if (!first_failure.empty()) throw StepFailure(first_failure);
  if (!first_unstable.empty() && request.fail_if_unstable)
    throw StepFailure(first_unstable + "; flagged \"unstable\" in the summary (use --allow-unstable to accept it)");
  return summary;
}

std::string FormatSummaryTable(const nlohmann::json& summary) {
  std::vector<std::pair<std::string, std::string>> cols = {
      {"integrator", "integrator"},      {"dt", "dt [s]"},
      {"steps", "steps"},                {"restitution", "e"},
      {"contact_duration", "t_c [s]"},   {"max_overlap", "delta_max [m]"},
      {"energy_error_max", "max|dE|/E0"}, {"energy_balance_residual_max", "max|E+D-E0|/E0"},
      {"momentum_drift_max", "momentum drift"}, {"rhs_evaluations", "RHS evals"},
      {"wall_time_s", "wall [s]"}, {"status", "status"}};
  // The impacts of rigid-contact schemes, only when one ran (a table of compliant runs is unchanged).
  bool rigid = false;
  for (const auto& run : summary["runs"]) rigid = rigid || run.contains("impacts");
  if (rigid) cols.insert(cols.begin() + 4, {"impacts", "impacts"});
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
