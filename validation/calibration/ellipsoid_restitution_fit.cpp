#include "calibration/ellipsoid_restitution_fit.h"

#include <ceres/ceres.h>

#include <cmath>
#include <numbers>

#include "core/checks.h"

namespace impactlab::calibration {

namespace {

struct EnergyRestitutionResidual {
  double normal_mass_ratio;  // m_n*/m at θ_i
  double e_E_measured;
  bool relative;
  template <typename T>
  bool operator()(const T* e_cn, T* residual) const {
    using std::log;
    const T model = EnergyRestitution(e_cn[0], normal_mass_ratio);
    residual[0] = relative ? log(model) - T(std::log(e_E_measured)) : model - T(e_E_measured);
    return true;
  }
};

}  // namespace

void EllipsoidRestitutionFitOptions::Validate() const {
  ellipsoid.Validate();
  RequireInClosed("initial_e_cn", initial_e_cn, 0.0, 1.0);
}

std::vector<EllipsoidObservation> EllipsoidObservations(const CalibrationData& data) {
  const auto theta = data.Column("theta_deg");
  const auto e = data.Column("e_E");
  std::vector<EllipsoidObservation> out;
  for (size_t i = 0; i < theta.size(); ++i) {
    RequireInClosed("data row " + std::to_string(i + 1) + " theta_deg", theta[i], -180.0, 180.0);
    RequireInLeftOpen("data row " + std::to_string(i + 1) + " e_E", e[i], 0.0, 1.5);
    out.push_back({theta[i], e[i]});
  }
  return out;
}

FitResult FitEllipsoidContactRestitution(const std::vector<EllipsoidObservation>& data,
                                         const EllipsoidRestitutionFitOptions& options) {
  options.Validate();
  if (data.empty()) throw InvalidParameter("data", "0 rows", "at least 1 observation");
  double e_cn = options.initial_e_cn;
  ceres::Problem problem;
  nlohmann::json per_point = nlohmann::json::array();
  for (const auto& obs : data) {
    const PlanarContactGeometry g = FirstContactGeometry(options.ellipsoid, obs.theta_deg * std::numbers::pi / 180.0);
    const double ratio = g.normal_mass / options.ellipsoid.mass;
    problem.AddResidualBlock(new ceres::AutoDiffCostFunction<EnergyRestitutionResidual, 1, 1>(
                                 new EnergyRestitutionResidual{ratio, obs.e_E, options.relative_residuals}),
                             nullptr, &e_cn);
    per_point.push_back({{"theta_deg", obs.theta_deg}, {"e_E_measured", obs.e_E}, {"normal_mass_ratio", ratio},
                         {"lever_x", g.lever_x}, {"h", g.h}});
  }
  // ln e_E is finite for e_cn > 0 (e_E → 0 only for e_cn → 0 at an aligned orientation).
  problem.SetParameterLowerBound(&e_cn, 0, options.relative_residuals ? 1e-9 : 0.0);
  problem.SetParameterUpperBound(&e_cn, 0, 1.0);
  FitResult r = SolveLeastSquares(problem, {{"e_cn", &e_cn, "1"}});
  r.problem = "ellipsoid_e_cn";
  for (size_t i = 0; i < per_point.size(); ++i)
    per_point[i]["e_E_model"] = EnergyRestitution(e_cn, per_point[i]["normal_mass_ratio"].get<double>());
  r.details["points"] = per_point;
  r.details["ellipsoid"] = {{"a", options.ellipsoid.a}, {"b", options.ellipsoid.b}, {"c", options.ellipsoid.c},
                            {"mass", options.ellipsoid.mass}, {"I_yy", options.ellipsoid.Iyy()}};
  r.details["residuals"] = options.relative_residuals ? "ln(model) - ln(measured)" : "model - measured";
  r.details["model"] = "e_E = sqrt(1 - (1 - e_cn^2) m_n*/m), planar Schur-complement m_n* (docs/theory.md §2.1, §4)";
  return r;
}

}  // namespace impactlab::calibration
