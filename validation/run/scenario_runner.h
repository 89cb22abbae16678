// RunScenario: scenario → model (+ contact laws) → integrator → observers → summary (the one-way data flow).
// One run per integrator; each writes <out>/<integrator>.csv (time series) and the summary JSON entry.
// Summary keys per integrator: integrator, dt, steps, restitution, contact_duration, max_overlap,
// energy_error_max, energy_balance_residual_max, momentum_drift_max, wall_time_s, rhs_evaluations,
// newton_iterations, rejected_steps, plus the model's own keys; overlap_over_size_max and unphysical_overlap
// when the model states a contact size; "warnings" (summary level) when a guard fired (docs/reliability.md);
// status ("ok", "unstable", "stopped"), unstable (bool) and, for a run that stopped before t_end,
// stopped_at [s] and stop_reason; min_steps_per_contact for fixed-step schemes when a contact ended.
// A run that stops (step failure, max_steps) keeps its results up to that time: its CSV and summary.json
// are written, then RunScenario throws StepFailure saying where and why.
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
  /// When set, a run flagged "unstable" (energy or restitution grown without a source, see kUnstableGrowth)
  /// is a StepFailure after the results are written (`impactlab run` sets it unless --allow-unstable; studies
  /// and the sweep read the "unstable" flag instead).
  bool fail_if_unstable = false;
  /// Progress of long runs (observe/progress_meter.h): receives (line, final). Null: no progress.
  std::function<void(const std::string&, bool)> progress;
  /// Extra observers of each integrator's run (e.g. the Python module's trajectory recorder), asked once
  /// per integrator just before its run; they must live until RunScenario returns. Null: none.
  std::function<std::vector<StepObserver*>(const Integrator&)> observers;
};

/// A run is "unstable" when, with no energy source in the model, its final mechanical energy exceeds the
/// initial one by more than this fraction of |E₀|, or its restitution exceeds 1 by more than this. 1 %: far
/// above the energy error of a resolved explicit run (O(dt²) oscillation that returns after a contact) and of
/// an adaptive one (its tolerance), far below the growth of a run beyond its stability limit.
inline constexpr double kUnstableGrowth = 0.01;
/// Fewer accepted steps than this across one contact (t_c/dt, fixed-step schemes) gives a resolution
/// warning: restitution and δ_max errors of second-order schemes are then of order (t_c/dt)⁻² ≈ 0.25 % and
/// grow fast below it (at 3 steps per contact velocity Verlet returns e = 0.915 for e = 0.8).
inline constexpr double kMinStepsPerContact = 20.0;

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
