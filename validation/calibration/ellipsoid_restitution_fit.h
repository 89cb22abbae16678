// FitEllipsoidContactRestitution: the single contact-point restitution e_cn that best explains measured
// total-energy restitutions e_E(θ) of an ellipsoid hitting a wall at orientations θ [Seed000 §7, "testable
// hypothesis": one fitted e_cn should account for the full angular dependence of e_E].
//
//   r_i(e_cn) = √(1 − (1 − e_cn²) m_n*(θ_i)/m) − e_E,i          (planar_ellipsoid_restitution.h)
//   or, with relative_residuals, r_i = ln e_E,model − ln e_E,i   (the likelihood residual when the measurement
//   error is proportional to e_E; then the ±2 s.e. coverage is Student's t(N−1), see the calibration study)
//
// Ceres AutoDiffCostFunction<1 residual, 1 parameter> per observation, e_cn bounded to [0, 1].
// Data columns: theta_deg (rotation about y [deg]), e_E.
#pragma once

#include "calibration/calibration_data.h"
#include "calibration/fit_result.h"
#include "calibration/planar_ellipsoid_restitution.h"

namespace impactlab::calibration {

struct EllipsoidRestitutionFitOptions {
  PlanarEllipsoid ellipsoid;
  double initial_e_cn = 0.8;  ///< start value ∈ [0, 1]
  bool relative_residuals = false;  ///< residuals ln(model) − ln(measured) instead of model − measured
  void Validate() const;
};

struct EllipsoidObservation {
  double theta_deg;
  double e_E;
};

FitResult FitEllipsoidContactRestitution(const std::vector<EllipsoidObservation>& data,
                                         const EllipsoidRestitutionFitOptions& options);
/// Reads columns theta_deg and e_E.
std::vector<EllipsoidObservation> EllipsoidObservations(const CalibrationData& data);

}  // namespace impactlab::calibration
