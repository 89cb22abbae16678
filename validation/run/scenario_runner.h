// RunScenario: scenario → model (+ contact laws) → integrator → observers → summary (the one-way data flow).
// One run per integrator; each writes <out>/<integrator>.csv (time series) and the summary JSON entry.
// Summary keys per integrator: integrator, dt, steps, restitution, contact_duration, max_overlap,
// energy_error_max, energy_balance_residual_max, momentum_drift_max, wall_time_s, rhs_evaluations,
// newton_iterations, rejected_steps, plus the model's own keys.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace impactlab {

struct RunRequest {
  Scenario scenario;
  std::vector<std::string> integrators;  ///< empty: the scenario's list, else velocity_verlet
  std::optional<double> dt;              ///< overrides the scenario's dt
  std::string out_dir;                   ///< empty: no files written
};

/// Runs every integrator; throws InvalidParameter on bad input (before anything is written), StepFailure
/// when an integrator cannot complete a step.
nlohmann::json RunScenario(const RunRequest& request);

/// The side-by-side table of a RunScenario summary.
std::string FormatSummaryTable(const nlohmann::json& summary);

}  // namespace impactlab
