#include "calibration/sphere_friction_fit.h"

#include <ceres/ceres.h>

#include <algorithm>

#include "calibration/sphere_rigid_friction.h"
#include "core/checks.h"

namespace impactlab::calibration {

namespace {

/// One measured tangential quantity: e_t (use_beta = false) or β (use_beta = true).
struct TangentialRestitutionResidual {
  double abs_cot_gamma;
  double measured;
  bool use_beta;
  template <typename T>
  bool operator()(const T* mu, const T* e_n, T* residual) const {
    const auto m = RigidSphereTangentialRestitution(mu[0], e_n[0], abs_cot_gamma);
    residual[0] = (use_beta ? m.beta : m.e_t) - T(measured);
    return true;
  }
};

struct NormalRestitutionResidual {
  double e_n_measured;
  template <typename T>
  bool operator()(const T* e_n, T* residual) const {
    residual[0] = e_n[0] - T(e_n_measured);
    return true;
  }
};

}  // namespace

void SphereFrictionFitOptions::Validate() const {
  RequireInClosed("e_n", e_n, 0.0, 1.0);
  RequireNonNegative("initial_mu", initial_mu);
}

FitResult FitSphereFriction(const CalibrationData& data, const SphereFrictionFitOptions& options) {
  options.Validate();
  const bool has_e_t = data.HasColumn("e_t"), has_beta = data.HasColumn("beta"), has_e_n = data.HasColumn("e_n");
  if (!has_e_t && !has_beta) data.Column("e_t");  // throws, naming the columns present
  if (options.fit_e_n && !has_e_n)
    throw InvalidParameter("fit_e_n", "true",
                           "false unless the data has an e_n column (in gross slip e_t and beta depend on "
                           "mu (1 + e_n) only, so mu and e_n are not separately identifiable)");
  const auto gamma = data.Column("gamma_deg");
  const auto e_t = has_e_t ? data.Column("e_t") : std::vector<double>(gamma.size(), 0.0);
  const auto beta = has_beta ? data.Column("beta") : std::vector<double>(gamma.size(), 0.0);
  const auto e_n_meas = has_e_n ? data.Column("e_n") : std::vector<double>();
  std::vector<double> cot(gamma.size());
  for (size_t i = 0; i < gamma.size(); ++i) {
    RequireInLeftOpen("data row " + std::to_string(i + 1) + " gamma_deg", gamma[i], 90.0, 180.0);
    cot[i] = AbsCotImpactAngle(gamma[i]);
  }

  double e_n = options.e_n;  // fixed value, or the start value when fit_e_n
  double mu = options.initial_mu;
  if (mu == 0.0) {
    std::vector<double> est;
    for (size_t i = 0; i < gamma.size(); ++i)
      if (has_e_t && e_t[i] < 5.0 / 7.0 - 1e-3 && std::isfinite(cot[i]) && cot[i] > 0.0)
        est.push_back((1.0 - e_t[i]) / ((1.0 + e_n) * cot[i]));
      else if (!has_e_t && beta[i] < -1e-3 && std::isfinite(cot[i]) && cot[i] > 0.0)
        est.push_back((1.0 + beta[i]) / (3.5 * (1.0 + e_n) * cot[i]));
    if (est.empty()) {
      mu = 0.1;
    } else {
      std::nth_element(est.begin(), est.begin() + static_cast<long>(est.size() / 2), est.end());
      mu = std::max(1e-6, est[est.size() / 2]);
    }
  }

  ceres::Problem problem;
  for (size_t i = 0; i < gamma.size(); ++i) {
    if (has_e_t)
      problem.AddResidualBlock(new ceres::AutoDiffCostFunction<TangentialRestitutionResidual, 1, 1, 1>(
                                   new TangentialRestitutionResidual{cot[i], e_t[i], false}),
                               nullptr, &mu, &e_n);
    if (has_beta)
      problem.AddResidualBlock(new ceres::AutoDiffCostFunction<TangentialRestitutionResidual, 1, 1, 1>(
                                   new TangentialRestitutionResidual{cot[i], beta[i], true}),
                               nullptr, &mu, &e_n);
  }
  if (options.fit_e_n)
    for (double x : e_n_meas)
      problem.AddResidualBlock(
          new ceres::AutoDiffCostFunction<NormalRestitutionResidual, 1, 1>(new NormalRestitutionResidual{x}), nullptr,
          &e_n);
  problem.SetParameterLowerBound(&mu, 0, 0.0);
  problem.SetParameterLowerBound(&e_n, 0, 0.0);
  problem.SetParameterUpperBound(&e_n, 0, 1.0);
  std::vector<FreeParameter> free{{"mu", &mu, "1"}};
  if (options.fit_e_n) free.push_back({"e_n", &e_n, "1"});
  else problem.SetParameterBlockConstant(&e_n);
  FitResult r = SolveLeastSquares(problem, free);
  r.problem = "sphere_friction";
  int slip_rows = 0;
  nlohmann::json points = nlohmann::json::array();
  for (size_t i = 0; i < gamma.size(); ++i) {
    const auto m = RigidSphereTangentialRestitution(mu, e_n, cot[i]);
    slip_rows += m.sticks ? 0 : 1;
    nlohmann::json pt = {{"gamma_deg", gamma[i]}, {"e_t_model", m.e_t}, {"beta_model", m.beta}, {"sticks", m.sticks}};
    if (has_e_t) pt["e_t_measured"] = e_t[i];
    if (has_beta) pt["beta_measured"] = beta[i];
    points.push_back(pt);
  }
  r.details["points"] = points;
  r.details["slip_rows"] = slip_rows;
  r.details["e_n_used"] = e_n;
  r.details["fit_e_n"] = options.fit_e_n;
  r.details["model"] = "rigid sphere: gross slip e_t = 1 - mu(1+e_n)|cot g|, beta = -1 + 7/2 mu(1+e_n)|cot g|; "
                       "stick e_t = 5/7, beta = 0 (docs/theory.md §6)";
  if (slip_rows == 0) r.details["warning"] = "no row is in gross slip at the solution: mu is not determined by the data";
  return r;
}

}  // namespace impactlab::calibration
