// CalibrationProblem: a calibration configured by a flat TOML file (docs/calibration.md, "Ceres calibration"),
// parsed once at the edge into typed options, then run on a data set. `problem` selects the fit:
//
//   problem = "ellipsoid_e_cn"   keys a, b, c, mass, I_yy (0 or absent: m(a²+c²)/5), initial_e_cn,
//                                 relative_residuals; data: theta_deg, e_E                           (ellipsoid_restitution_fit.h)
//   problem = "sphere_friction"  keys e_n, fit_e_n, initial_mu                 (sphere_friction_fit.h)
//                                 data: gamma_deg, e_t and/or beta [, e_n]
//   problem = "kuwabara_kono"    keys mass, k | (E_star, R_star), cvode_rtol, initial  (damping_coefficient_fit.h)
//   problem = "tsuji_alpha"      keys mass, k | (E_star, R_star), p, cvode_rtol, initial
//                                 data: v0, e — or, without a data file, keys v0 and target_e (one point)
//
// Synthesis keys (used by `impactlab calibrate CONFIG --synthesize OUT.csv`, ignored by a fit):
//   seed, noise, and true_e_cn + theta_deg | true_mu, true_e_n, gamma_deg, synthesize_e_n | true_gamma or
//   true_alpha + v0_list.
// Unknown keys are an InvalidParameter (a misspelt key never passes silently).
#pragma once

#include <optional>
#include <string>

#include "calibration/calibration_data.h"
#include "calibration/fit_result.h"
#include "core/parameter_set.h"

namespace impactlab::calibration {

/// Loads the TOML file into a ParameterSet (key `problem` required).
ParameterSet LoadCalibrationConfig(const std::string& path);

/// Runs the configured fit. `data` may be absent only for kuwabara_kono / tsuji_alpha with v0 + target_e.
FitResult RunCalibration(const ParameterSet& config, const std::optional<CalibrationData>& data);

/// Synthetic data for the configured problem from its synthesis keys; `provenance` receives the comment
/// lines to write above the CSV (generator, seed, true values).
CalibrationData SynthesizeCalibrationData(const ParameterSet& config, std::vector<std::string>& provenance);

}  // namespace impactlab::calibration
