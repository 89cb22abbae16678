#include "calibration/damping_coefficient_fit.h"

#include <ceres/ceres.h>

#include <cmath>
#include <memory>
#include <numbers>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "contact/restitution_calibration.h"
#include "core/checks.h"
#include "core/errors.h"
#include "integrators/cvode_bdf.h"
#include "integrators/simulation.h"
#include "metrics/contact_metrics.h"
#include "models/contact_oscillator.h"

namespace impactlab::calibration {

namespace {

/// Constant of the small-damping Kuwabara–Kono loss [docs/theory.md §3; Schwager & Pöschel C₁ = 1.15344].
constexpr double kKuwabaraKonoLossConstant = 1.1534;

struct SimulatedRestitutionResidual {
  PowerLawImpact impact;
  ViscousDampingModel model;
  double v0, e_measured;
  double scale;  // coefficient = scale · x (x = O(1), see FreeParameter)
  /// false (a failed evaluation Ceres steps back from) for a negative trial coefficient, which central
  /// differences at the bound can produce, or a simulation that cannot complete.
  bool operator()(const double* x, double* residual) const {
    if (!(x[0] >= 0.0)) return false;
    try {
      residual[0] = SimulatedRestitution(impact, model, scale * x[0], v0) - e_measured;
    } catch (const StepFailure&) {
      return false;
    }
    return std::isfinite(residual[0]);
  }
};

const char* Name(ViscousDampingModel m) { return m == ViscousDampingModel::kTsuji ? "tsuji" : "kuwabara_kono"; }

}  // namespace

void PowerLawImpact::Validate() const {
  RequirePositive("mass", mass);
  RequirePositive("k", k);
  RequireAtLeast("p", p, 1.0);
  RequireInOpen("cvode_rtol", cvode_rtol, 0.0, 1e-3);
}

void DampingFitOptions::Validate() const {
  impact.Validate();
  RequireNonNegative("initial", initial);
  if (model == ViscousDampingModel::kKuwabaraKono && impact.p != 1.5)
    throw InvalidParameter("p", impact.p, "1.5 (Kuwabara–Kono damping is defined for the Hertz law)");
}

double SimulatedRestitution(const PowerLawImpact& impact, ViscousDampingModel model, double coefficient, double v0) {
  impact.Validate();
  RequirePositive("v0", v0);
  RequireNonNegative(model == ViscousDampingModel::kTsuji ? "alpha" : "gamma", coefficient);
  auto elastic = std::make_shared<PowerLaw>(impact.k, impact.p);
  std::shared_ptr<const DampingLaw> damping;
  if (model == ViscousDampingModel::kTsuji)
    damping = std::make_shared<TsujiDamping>(coefficient, impact.mass, impact.k, impact.p);
  else
    damping = std::make_shared<KuwabaraKonoDamping>(coefficient);
  ContactOscillatorParameters op;
  op.mass = impact.mass;
  op.impact_velocity = v0;
  const ContactOscillator system(op, DampedNormalLaw{elastic, damping});

  // Undamped scales [docs/theory.md §4, §5]: δ_max = ((p+1) m v₀²/(2k))^(1/(p+1)), t_c0 = 2 δ_max I_p / v₀ ≤ π δ_max/v₀.
  const double delta_max = std::pow((impact.p + 1.0) * impact.mass * v0 * v0 / (2.0 * impact.k), 1.0 / (impact.p + 1.0));
  const double t_c0 = std::numbers::pi * delta_max / v0;
  CvodeBdf::Options co;
  co.rel_tol = impact.cvode_rtol;
  co.abs_tol = impact.cvode_rtol * 1e-3 * std::min(delta_max, v0);
  CvodeBdf cvode(co);
  SimulationOptions so;
  so.dt = t_c0 / 40.0;
  so.t_end = 40.0 * t_c0;  // heavily damped contacts last longer; an unfinished contact counts as no rebound
  so.stop_after_separation = t_c0 / 20.0;
  const SimulationRecord record = Simulate(system, cvode, system.InitialState(), so, {});
  const ContactMetrics m = FirstContactMetrics(record.events, 0);
  return m.restitution && m.rebounds ? *m.restitution : 0.0;
}

double KuwabaraKonoAsymptoticLoss(const PowerLawImpact& impact, double gamma, double v0) {
  return kKuwabaraKonoLossConstant * (gamma / impact.k) * std::pow(impact.k / impact.mass, 0.4) * std::pow(v0, 0.2);
}

double KuwabaraKonoAsymptoticGamma(const PowerLawImpact& impact, double e, double v0) {
  return (1.0 - e) / KuwabaraKonoAsymptoticLoss(impact, 1.0, v0);
}

std::vector<SpeedRestitutionObservation> SpeedRestitutionObservations(const CalibrationData& data) {
  const auto v0 = data.Column("v0");
  const auto e = data.Column("e");
  std::vector<SpeedRestitutionObservation> out;
  for (size_t i = 0; i < v0.size(); ++i) {
    RequirePositive("data row " + std::to_string(i + 1) + " v0", v0[i]);
    RequireInOpen("data row " + std::to_string(i + 1) + " e", e[i], 0.0, 1.5);  // noisy data may exceed 1
    out.push_back({v0[i], e[i]});
  }
  return out;
}

FitResult FitDampingCoefficient(const std::vector<SpeedRestitutionObservation>& data, const DampingFitOptions& options) {
  options.Validate();
  if (data.empty()) throw InvalidParameter("data", "0 rows", "at least 1 observation");
  const bool tsuji = options.model == ViscousDampingModel::kTsuji;
  double e_mean = 0.0;
  for (const auto& d : data) e_mean += d.e / static_cast<double>(data.size());
  double c = options.initial;
  if (c == 0.0) {
    if (tsuji) {
      c = 2.0 * (1.0 - e_mean);
    } else {
      for (const auto& d : data) c += KuwabaraKonoAsymptoticGamma(options.impact, d.e, d.v0) / static_cast<double>(data.size());
    }
  }
  if (!(c > 0.0)) c = 1.0;  // e.g. all targets e = 1: start anywhere positive
  const double scale = c;
  double x = 1.0;
  ceres::Problem problem;
  // Central differences with relative step 1e-4: truncation O(h²) ~1e-8 relative in the slope, while the
  // simulation noise (CVODE rtol 1e-12 → e to ~1e-12) stays 1e-3 of the difference even for e → 1, where
  // Ceres's default 1e-6 made the slope noisy and the trust region collapse (e = 0.99999 stopped 0.5 % off).
  ceres::NumericDiffOptions nd;
  nd.relative_step_size = 1e-4;
  for (const auto& d : data) {
    auto* cost = new ceres::NumericDiffCostFunction<SimulatedRestitutionResidual, ceres::CENTRAL, 1, 1>(
        new SimulatedRestitutionResidual{options.impact, options.model, d.v0, d.e, scale}, ceres::TAKE_OWNERSHIP, 1, nd);
    problem.AddResidualBlock(cost, nullptr, &x);
  }
  problem.SetParameterLowerBound(&x, 0, 0.0);
  LeastSquaresOptions lso;
  lso.max_iterations = 50;
  FitResult r =
      SolveLeastSquares(problem, {{tsuji ? "alpha" : "gamma", &x, tsuji ? "1" : "N s m^-1.5", scale}}, lso);
  c = scale * x;
  r.problem = tsuji ? "tsuji_alpha" : "kuwabara_kono";
  r.details["damping"] = Name(options.model);
  r.details["impact"] = {{"mass", options.impact.mass}, {"k", options.impact.k}, {"p", options.impact.p},
                         {"cvode_rtol", options.impact.cvode_rtol}};
  nlohmann::json points = nlohmann::json::array();
  for (size_t i = 0; i < data.size(); ++i) {
    nlohmann::json pt = {{"v0", data[i].v0}, {"e_measured", data[i].e}, {"e_model", data[i].e + r.residuals[i]}};
    if (tsuji) {
      pt["alpha_closed_form"] = TsujiAlphaFromRestitution(data[i].e, options.impact.p);
    } else {
      pt["gamma_asymptote"] = KuwabaraKonoAsymptoticGamma(options.impact, data[i].e, data[i].v0);
      pt["loss_asymptote_at_fit"] = KuwabaraKonoAsymptoticLoss(options.impact, c, data[i].v0);
    }
    points.push_back(pt);
  }
  r.details["points"] = points;
  if (tsuji) {
    r.details["model"] = "m d'' + alpha sqrt(m k) d^((p-1)/2) d' + k d^p = 0 (CVODE); closed form alpha = sqrt(2(p+1)) xi_L(e)";
  } else {
    r.details["model"] = "m d'' + gamma d^(1/2) d' + k d^(3/2) = 0 (CVODE); asymptote 1 - e = 1.1534 (gamma/k)(k/m)^(2/5) v0^(1/5)";
  }
  return r;
}

}  // namespace impactlab::calibration
