// Slip → stick inside a step [tangential_law.h, "Slip → stick inside the step"; tangential_spring_step.h;
// docs/theory.md §6, "Switches inside a step"]. Prescribed motion whose excess over the Coulomb cone is quadratic in
// time, so that the exact spring at the step end has a closed form:
//   δ_n(t) = δ₀ + w t, Hertz F_n = K δ_n^{3/2}, law stiffness k_s(δ_n) ∝ √δ_n (Mindlin) or constant: the cone in
//   the spring's displacement, ρ = μF_n/k_s, is linear in t for the integral laws (constant for w = 0);
//   s(t) = V t − ½ A t² with V = ρ̇ + A t*: the slip rate V − A t − ρ̇ changes sign at t* inside the step [0, h].
// Exact (Mindlin & Deresiewicz 1953: the spring follows the cone in gross slip, the displacement once stuck):
//   spring displacement at h = ρ(t*) + s(h) − s(t*),   F_t(h) = −k_s(δ_n(h)) [ρ(t*) + s(h) − s(t*)] e_x,
// for the incremental laws (w = 0) F_t(h) = −[μF_n + k_s (s(h) − s(t*))] e_x. The one-step return mapping from the
// step start loads the spring with the whole s(h): too much by ½ A t*² (and past t* = h/2 it even reports slip).
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "contact/tangential/cundall_strack.h"
#include "contact/tangential/mindlin_incremental.h"
#include "contact/tangential/mindlin_integral.h"
#include "contact/tangential/mindlin_rescaled_incremental.h"
#include "contact/tangential/mindlin_scaled_integral.h"

using namespace impactlab;

namespace {
// G* = 1.5e10 Pa, R = 0.01 m: c = 8 G* √R = 1.2e10 N/m^1.5; Hertz K = 1e10 N/m^1.5; μ = 0.3.
const MindlinStiffness kStiffness{1.5e10, 0.01};
constexpr double kHertzK = 1.0e10, kMu = 0.3, kCundallK = 2.0e7;
constexpr double kDelta0 = 1e-5;  // [m]
constexpr double kStep = 1e-6;    // h [s]
constexpr double kAccel = 5.6e4;  // A [m/s²]: ½ A t*² ≈ 1e-3 of the spring at t* = 0.3 h
// The closed form is evaluated with a handful of operations; the law with a few dozen.
constexpr double kRoundOff = 1e-12;

double NormalForce(double dn) { return kHertzK * std::pow(dn, 1.5); }
double NormalForceRate(double dn, double w) { return 1.5 * kHertzK * std::sqrt(dn) * w; }

// The law's spring stiffness k_s(δ_n).
double LawStiffness(const TangentialLaw& law, double dn) {
  if (law.name() == "cundall_strack") return kCundallK;
  if (law.name() == "mindlin_scaled_integral") return MindlinScaledIntegralLaw::kScale * kStiffness(dn);
  return kStiffness(dn);
}
bool IsIntegral(const TangentialLaw& law) { return law.name().find("incremental") == std::string::npos; }

struct SwitchStep {
  TangentialResponse response;
  double stored_prev = 0.0, stored_new = 0.0;
};

// Committed gross slip along +x at δ₀ (one capped step from an unloaded spring), then the step [0, h] with the switch at
// t* = phase·h; `with_rates` hands the law the committed state's rates.
SwitchStep RunSwitchStep(const TangentialLaw& law, double w, double phase, bool with_rates) {
  std::vector<double> z0(static_cast<size_t>(law.history_size()), 0.0), z1 = z0, z2 = z0;
  TangentialKinematics k0;  // at constant overlap δ₀ (the incremental laws load with k_t(δ_n,prev))
  k0.delta_n_prev = kDelta0;
  k0.normal_force_prev = NormalForce(kDelta0);
  k0.delta_n = kDelta0;
  k0.normal_force = NormalForce(kDelta0);
  k0.displacement_increment = Eigen::Vector3d(1e-3, 0, 0);  // far past the cone: gross slip
  REQUIRE(law.Evaluate(k0, z0, z1).sliding);
  const double k_start = LawStiffness(law, kDelta0);
  const double rho_rate = kMu * (NormalForceRate(kDelta0, w) * k_start -
                                 NormalForce(kDelta0) * (law.name() == "cundall_strack" ? 0.0 : k_start * w / (2.0 * kDelta0))) /
                          (k_start * k_start);
  const double t_star = phase * kStep;
  const double v = rho_rate + kAccel * t_star;
  TangentialKinematics k;
  k.delta_n_prev = kDelta0;
  k.normal_force_prev = NormalForce(kDelta0);
  k.delta_n = kDelta0 + w * kStep;
  k.normal_force = NormalForce(k.delta_n);
  k.displacement_increment = Eigen::Vector3d(v * kStep - 0.5 * kAccel * kStep * kStep, 0, 0);
  if (with_rates) {
    k.start.slip_velocity = Eigen::Vector3d(v, 0, 0);
    k.start.overlap_rate = w;
    k.start.normal_force_rate = NormalForceRate(kDelta0, w);
    k.start.step = kStep;
  }
  SwitchStep out;
  out.stored_prev = law.StoredEnergy(z1, kDelta0);
  out.response = law.Evaluate(k, z1, z2);
  out.stored_new = law.StoredEnergy(z2, k.delta_n);
  return out;
}

// F_t,x(h) of the closed form above.
double ExactEndForce(const TangentialLaw& law, double w, double phase) {
  const double t_star = phase * kStep, h = kStep;
  const double k_start = LawStiffness(law, kDelta0);
  const double rho0 = kMu * NormalForce(kDelta0) / k_start;
  const double dn_end = kDelta0 + w * h;
  // ρ is linear in t for Hertz over Mindlin (∝ δ_n) and constant for w = 0.
  const double rho_rate = (kMu * NormalForce(dn_end) / LawStiffness(law, dn_end) - rho0) / h;
  const double v = rho_rate + kAccel * t_star;
  const double s_after = v * (h - t_star) - 0.5 * kAccel * (h * h - t_star * t_star);  // s(h) − s(t*)
  if (IsIntegral(law)) return -LawStiffness(law, dn_end) * (rho0 + rho_rate * t_star + s_after);
  return -(kMu * NormalForce(kDelta0) + k_start * s_after);  // incremental, w = 0
}

std::vector<std::unique_ptr<TangentialLaw>> Laws() {
  std::vector<std::unique_ptr<TangentialLaw>> laws;
  laws.push_back(std::make_unique<CundallStrackLaw>(kCundallK, kMu));
  laws.push_back(std::make_unique<MindlinIntegralLaw>(kStiffness, kMu));
  laws.push_back(std::make_unique<MindlinScaledIntegralLaw>(kStiffness, kMu));
  laws.push_back(std::make_unique<MindlinIncrementalLaw>(kStiffness, kMu));
  laws.push_back(std::make_unique<MindlinRescaledIncrementalLaw>(kStiffness, kMu));
  return laws;
}
}  // namespace

TEST_CASE("slip to stick inside a step: the spring equals the closed form (cone up to t*, stuck after)") {
  for (const auto& law : Laws()) {
    // Growing overlap (moving cone) for the integral laws; constant overlap for all.
    for (double w : {0.0, 1.0}) {
      if (w != 0.0 && (!IsIntegral(*law) || law->name() == "cundall_strack")) continue;
      for (double phase : {0.1, 0.3, 0.5, 0.7, 0.95}) {
        CAPTURE(law->name());
        CAPTURE(w);
        CAPTURE(phase);
        const SwitchStep s = RunSwitchStep(*law, w, phase, true);
        const double exact = ExactEndForce(*law, w, phase);
        CHECK(s.response.force[0] == doctest::Approx(exact).epsilon(kRoundOff));
        CHECK(std::abs(s.response.force[1]) + std::abs(s.response.force[2]) == 0.0);
        CHECK_FALSE(s.response.sliding);
        // The slider's work before t*, and the step's energy identity U_prev + work_in + W_g = U_new + W_f.
        CHECK(s.response.friction_work > 0.0);
        const double identity = s.stored_prev + s.response.work_in + s.response.generated_work - s.stored_new -
                                s.response.friction_work;
        CHECK(std::abs(identity) <= kRoundOff * s.stored_prev);
        CHECK(s.response.stored_energy == doctest::Approx(s.stored_new).epsilon(kRoundOff));
      }
    }
  }
}

TEST_CASE("slip to stick inside a step: without the start rates the one-step return mapping keeps the O(h^2) error") {
  // What the laws did before the switch was located: the spring loaded with the whole step, off by ½ A t*² (in the
  // spring's displacement) — about 1e-3 of the force here, nine orders above the closed form's round-off.
  MindlinIntegralLaw law(kStiffness, kMu);
  const double phase = 0.3, w = 1.0;
  const SwitchStep s = RunSwitchStep(law, w, phase, false);
  const double exact = ExactEndForce(law, w, phase);
  const double t_star = phase * kStep;
  const double expected_error = kStiffness(kDelta0 + w * kStep) * 0.5 * kAccel * t_star * t_star;
  CHECK(exact - s.response.force[0] == doctest::Approx(expected_error).epsilon(1e-9));
  // Past t* = h/2 the end excess is positive and the one-step mapping even reports gross slip.
  CHECK(RunSwitchStep(law, w, 0.7, false).response.sliding);
  CHECK_FALSE(RunSwitchStep(law, w, 0.7, true).response.sliding);
}

TEST_CASE("SwitchSlip is the maximum of the quadratic excess inside the step and continuous at its edges") {
  CHECK(SwitchSlip(0.0, -1.0) == 0.0);   // no slip rate at the start: no switch
  CHECK(SwitchSlip(-1.0, -2.0) == 0.0);  // sticking at the start
  CHECK(SwitchSlip(1.0, 0.6) == 0.0);    // maximum at the end (slip throughout): the cap handles it
  // m(τ) = G τ/h + (m₁ − G)(τ/h)², G = 1, m₁ = −1: maximum at τ/h = 1/4, value 1/8.
  CHECK(SwitchSlip(1.0, -1.0) == doctest::Approx(0.125).epsilon(1e-15));
  // At m₁ = G/2 the maximum reaches the step end: λ* = m₁, continuous with the slip branch.
  CHECK(SwitchSlip(1.0, 0.5 - 1e-12) == doctest::Approx(0.5).epsilon(1e-11));
}
