// Runge–Kutta stages see the history the law would commit at that stage (integrators/first_order_form.h).
//
// A mass on an elasto-plastic spring (a Prandtl element: spring k in series with a Coulomb slider of
// yield force k z_max). The spring elongation z is a history variable updated incrementally,
// z_{n+1} = clamp(z_n + Δx, ±z_max), exactly as the tangential springs of the contact laws are. While the
// slider sticks, the force −k z equals −k x and the motion is the harmonic oscillator x(t) = (v₀/ω) sin ωt,
// ω = √(k/m) — a closed form to test against. Freezing z at the step start in all four stages (the old
// treatment) makes rk4 first order here; with stage history it is the fourth-order RK4 of the oscillator.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "integrators/odeint_runge_kutta.h"
#include "system/mechanical_system.h"

using namespace impactlab;

namespace {

class PrandtlOscillator final : public MechanicalSystem {
 public:
  PrandtlOscillator(double m, double k, double z_max) : m_(m), k_(k), z_max_(z_max) {}
  std::string name() const override { return "test_prandtl_oscillator"; }
  MechanicalState InitialState() const override {
    MechanicalState s;
    s.q = Eigen::VectorXd::Zero(1);
    s.v = Eigen::VectorXd::Constant(1, 1.0);
    s.z = Eigen::VectorXd::Zero(1);
    return s;
  }
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> a) const override {
    a[0] = -k_ * s.z[0] / m_;
  }
  void UpdateHistory(const MechanicalState& before, MechanicalState& after) const override {
    after.z[0] = std::clamp(before.z[0] + (after.q[0] - before.q[0]), -z_max_, z_max_);
  }
  double KineticEnergy(const MechanicalState& s) const override { return 0.5 * m_ * s.v[0] * s.v[0]; }
  double PotentialEnergy(const MechanicalState& s) const override { return 0.5 * k_ * s.z[0] * s.z[0]; }

 private:
  double m_, k_, z_max_;
};

/// |x(T) − sin T| after T/h steps of rk4 (m = k = 1, v₀ = 1; z_max = 10 never yields).
double Rk4Error(double h) {
  const PrandtlOscillator system(1.0, 1.0, 10.0);
  OdeintRungeKutta rk4(OdeintMethod::kRk4);
  MechanicalState s = system.InitialState();
  const int steps = static_cast<int>(std::lround(1.0 / h));
  for (int i = 0; i < steps; ++i) REQUIRE(rk4.Step(system, s, h).status == StepStatus::kAccepted);
  return std::abs(s.q[0] - std::sin(1.0));
}

}  // namespace

TEST_CASE("rk4 on an incremental history spring is fourth order (stage history, closed form sin t)") {
  const double e1 = Rk4Error(0.1), e2 = Rk4Error(0.05), e3 = Rk4Error(0.025);
  const double p1 = std::log2(e1 / e2), p2 = std::log2(e2 / e3);
  INFO("errors " << e1 << " " << e2 << " " << e3 << ", orders " << p1 << " " << p2);
  CHECK(p1 == doctest::Approx(4.0).epsilon(0.05));
  CHECK(p2 == doctest::Approx(4.0).epsilon(0.05));
  CHECK(e1 < 1e-6);  // a frozen z_n would leave an O(h) error, ~1e-2 here
}

TEST_CASE("rk4 stage history: the yield of the slider is seen inside the step") {
  // z_max = 0.5: the slider yields at x = 0.5 and the spring stays at the cap while x grows, so the force
  // is −k z_max from then on. Check against a fine-step run (the yield kink limits the order).
  const PrandtlOscillator system(1.0, 1.0, 0.5);
  auto run = [&](double h) {
    OdeintRungeKutta rk4(OdeintMethod::kRk4);
    MechanicalState s = system.InitialState();
    const int steps = static_cast<int>(std::lround(1.0 / h));
    for (int i = 0; i < steps; ++i) REQUIRE(rk4.Step(system, s, h).status == StepStatus::kAccepted);
    return s;
  };
  // Closed form: stick until x = 0.5 at t₁ = asin(0.5) = π/6 with v = cos t₁; then a = −0.5 (constant):
  // x(1) = 0.5 + v₁ τ − 0.25 τ², τ = 1 − t₁, and z = 0.5 (the spring stays at the cap while v > 0).
  const double t1 = std::asin(0.5), v1 = std::cos(t1), tau = 1.0 - t1;
  const double x_exact = 0.5 + v1 * tau - 0.25 * tau * tau;
  const MechanicalState s = run(1e-3);
  CHECK(s.z[0] == doctest::Approx(0.5).epsilon(1e-15));
  CHECK(std::abs(s.q[0] - x_exact) < 1e-6);
}
