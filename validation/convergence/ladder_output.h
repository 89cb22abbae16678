// Files and the console table of an error ladder (convergence/error_ladder.h), shared by `impactlab
// converge` and `impactlab workprecision`:
//   DIR/<kind>.json  the ladder JSON (RunErrorLadder) as it is
//   DIR/<kind>.csv   one row per integrator x point: integrator, adaptive, ladder, x, <metric>_error...,
//                    <metric>_excluded..., wall_time_s, wall_time_min_s, wall_time_max_s, steps,
//                    rhs_evaluations, above_stability, status (plain CSV: pandas / numpy read it as is)
//   DIR/<kind>[_<metric>].png  drawn by scripts/plot_ladder.py (python3-matplotlib): every integrator its
//                    own colour and marker, excluded points hollow, reference slopes dashed.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace impactlab {

/// `kind` is "convergence" or "workprecision". Writes the JSON and CSV, then renders the figures
/// (a failed rendering is a warning on stderr, as for the validation report).
void WriteLadderOutputs(const std::filesystem::path& dir, const nlohmann::json& ladder, const std::string& kind);

/// The console table: one line per integrator and metric with the fitted order ± SE (95 % interval) or
/// the reason there is none, and the points left out of the fit.
std::string FormatLadderTable(const nlohmann::json& ladder, const std::string& kind);

}  // namespace impactlab
