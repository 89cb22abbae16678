// RunScenario: scenario → model (+ contact laws) → integrator → observers → summary (the one-way data flow).
// One run per integrator; each writes <out>/<integrator>.csv (time series) and the summary JSON entry.
// Summary keys per integrator: integrator, dt, steps, restitution, contact_duration, max_overlap,
// energy_error_max, energy_balance_residual_max, momentum_drift_max, wall_time_s, rhs_evaluations,
// newton_iterations, rejected_steps, plus the model's own keys; overlap_over_size_max and unphysical_overlap
// when the model states a contact size; "warnings" (summary level) when a guard fired (docs/reliability.md).
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "integrators/integrator.h"
#include "integrators/simulation.h"
#include "registry/registries.h"
#include "scenario/scenario.h"

namespace impactlab {

struct RunRequest {
  Scenario scenario;
  std::vector<std::string> integrators;  ///< empty: the scenario's list, else velocity_verlet
  std::optional<double> dt;              ///< overrides the scenario's dt
  std::string out_dir;                   ///< empty: no files written
  /// --strict: dt above an explicit scheme's estimated stability limit is an InvalidParameter (before
  /// anything runs) and an unphysical overlap a StepFailure, instead of warnings.
  bool strict = false;
  /// Receives each warning (one line) as it arises; null: warnings only go into the summary.
  std::function<void(const std::string&)> warn;
  /// Extra observers of each integrator's run (e.g. the Python module's trajectory recorder), asked once
  /// per integrator just before its run; they must live until RunScenario returns. Null: none.
  std::function<std::vector<StepObserver*>(const Integrator&)> observers;
};

/// Default largest physical overlap as a fraction of the contact's characteristic size
/// (MechanicalSystem::ContactSize, e.g. the smaller radius): beyond 10 % the small-strain contact laws
/// (Hertz, Mindlin, ECC) are far outside their range [Johnson 1985, §4.2: δ ≪ R]. Scenario key
/// max_overlap_fraction overrides it.
inline constexpr double kMaxOverlapFraction = 0.1;
/// Everything RunScenario builds before its first step: the model, the options, one integrator per name.
struct PreparedRun {
  ModelInstance model;
  SimulationOptions options;
  long output_every = 1;  ///< CSV row every n-th step
  std::vector<std::unique_ptr<Integrator>> integrators;
  double overlap_fraction = 0.1;      ///< max_overlap_fraction (default kMaxOverlapFraction)
  std::vector<std::string> warnings;  ///< guards that fired while preparing (e.g. dt above the stability limit)
};

/// Builds and validates everything (model, dt / t_end / output keys, every integrator, no unknown keys);
/// throws InvalidParameter on bad input. Reads nothing from disk and writes nothing. `impactlab run --check`
/// style callers (the CLI's check-only mode, the scenario fuzzer) stop here.
PreparedRun PrepareScenarioRun(const RunRequest& request);

/// Runs every integrator; throws InvalidParameter on bad input (before anything is written), StepFailure
/// when an integrator cannot complete a step.
nlohmann::json RunScenario(const RunRequest& request);

/// The side-by-side table of a RunScenario summary.
std::string FormatSummaryTable(const nlohmann::json& summary);

}  // namespace impactlab
