// FitSphereFriction: Coulomb friction μ (and optionally the normal restitution e_n) of a solid sphere from
// measured oblique-impact data (γ, e_t, β [, e_n]) with the rigid-body theory of sphere_rigid_friction.h
// [docs/theory.md §6 "Gross-slip rigid limit"; Seed002, Walton–Braun / Kharaz].
//
//   residuals per row: e_t,model(μ, e_n; γ) − e_t,  β_model(μ, e_n; γ) − β   (either may be absent)
//                      and, if the data has an e_n column, e_n − e_n,measured
//
// Ceres AutoDiffCostFunction; μ ≥ 0, e_n ∈ [0, 1]. Identifiability: in gross slip the model depends on
// μ(1 + e_n) only and in stick on neither, so fit_e_n requires measured e_n; rows in stick carry no
// information on μ (details.slip_rows counts the informative rows at the solution).
// Data columns: gamma_deg (Seed002 impact angle, 180° = normal, range (90, 180]), e_t and/or beta, e_n opt.
#pragma once

#include "calibration/calibration_data.h"
#include "calibration/fit_result.h"

namespace impactlab::calibration {

struct SphereFrictionFitOptions {
  double e_n = 0.9;          ///< fixed value, or start value when fit_e_n
  bool fit_e_n = false;
  double initial_mu = 0.0;   ///< 0: estimated from the gross-slip rows (median of (1 − e_t)/((1 + e_n)|cot γ|))
  void Validate() const;
};

FitResult FitSphereFriction(const CalibrationData& data, const SphereFrictionFitOptions& options);

}  // namespace impactlab::calibration
