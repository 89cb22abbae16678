// Velocity Verlet's end-velocity fixed point (integrators/velocity_verlet.cpp, KickRange): with a force linear in v
// the trapezoidal kick v₁ = v½ + h/2 a(q₁, v₁) has a closed form, which the iteration must reach to round-off; and a
// non-finite entry anywhere in the swept vector (in a two-entry packet or in the odd last entry) must never end in an
// accepted step: the step is rejected and the handed state restored bit for bit. (When KickRange moved to two-entry
// packets, 2026-12-04, the 30 non-finite cases below gave the same failure cause and iteration count as the scalar
// loop before it.)
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "integrators/velocity_verlet.h"

using namespace impactlab;

namespace {

/// n independent damped oscillators a_i = −ω² q_i − c v_i (unit mass). With `poison` ≥ 0 the acceleration of entry
/// `poison` is `bad` in every evaluation after the first (a_n at the step start is finite; every sweep of the fixed
/// point meets the non-finite value).
class DampedOscillators final : public MechanicalSystem {
 public:
  DampedOscillators(int n, double omega, double c, int poison = -1, double bad = 0.0)
      : n_(n), omega_(omega), c_(c), poison_(poison), bad_(bad) {}
  std::string name() const override { return "damped_oscillators"; }
  MechanicalState InitialState() const override {
    MechanicalState s;
    s.q = Eigen::VectorXd::LinSpaced(n_, 0.1, 1.0);
    s.v = Eigen::VectorXd::LinSpaced(n_, -2.0, 3.0);
    return s;
  }
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> a) const override {
    a = -omega_ * omega_ * s.q - c_ * s.v;
    if (poison_ >= 0 && ++evaluations_ > 1) a[poison_] = bad_;
  }
  double KineticEnergy(const MechanicalState& s) const override { return 0.5 * s.v.squaredNorm(); }
  double PotentialEnergy(const MechanicalState& s) const override { return 0.5 * omega_ * omega_ * s.q.squaredNorm(); }
  double DissipationPower(const MechanicalState& s) const override { return c_ * s.v.squaredNorm(); }

 private:
  int n_;
  double omega_, c_;
  int poison_;
  double bad_;
  mutable int evaluations_ = 0;
};

}  // namespace

TEST_CASE("velocity Verlet fixed point: the trapezoidal kick reaches its closed form, odd and even lengths") {
  // v½ = v₀ + h/2 a₀, q₁ = q₀ + h v½, and v₁ = (v½ − h/2 ω² q₁) / (1 + h c / 2) solves v₁ = v½ + h/2 (−ω² q₁ − c v₁).
  for (const int n : {1, 2, 5, 8}) {
    CAPTURE(n);
    const double omega = 3.0, c = 4.0, h = 0.01;
    const DampedOscillators system(n, omega, c);
    MechanicalState s = system.InitialState();
    const Eigen::VectorXd a0 = -omega * omega * s.q - c * s.v;
    const Eigen::VectorXd v_half = s.v + 0.5 * h * a0;
    const Eigen::VectorXd q1 = s.q + h * v_half;
    const Eigen::VectorXd v1 = (v_half - 0.5 * h * omega * omega * q1) / (1.0 + 0.5 * h * c);
    VelocityVerlet vv;
    const StepResult r = vv.Step(system, s, h);
    REQUIRE(r.status == StepStatus::kAccepted);
    CHECK(r.newton_iterations > 1);  // the fixed point iterated (h c / 2 = 0.02: about ten sweeps)
    CHECK((s.q - q1).lpNorm<Eigen::Infinity>() == 0.0);
    CHECK((s.v - v1).lpNorm<Eigen::Infinity>() <= 4e-16 * v1.lpNorm<Eigen::Infinity>());
  }
}

TEST_CASE("velocity Verlet fixed point: a non-finite entry in a packet or in the odd last entry is never converged") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  for (const int n : {4, 5}) {
    for (int poison = 0; poison < n; ++poison) {
      for (const double bad : {inf, -inf, nan}) {
        CAPTURE(n);
        CAPTURE(poison);
        CAPTURE(bad);
        const DampedOscillators system(n, 3.0, 4.0, poison, bad);
        MechanicalState s = system.InitialState();
        const MechanicalState handed = s;
        VelocityVerlet vv;
        const StepResult r = vv.Step(system, s, 0.01);
        CHECK(r.status != StepStatus::kAccepted);
        CHECK((r.cause == StepFailureCause::kNonFiniteState || r.cause == StepFailureCause::kFixedPointNonConvergence));
        CHECK(s.SameBits(handed));
      }
    }
  }
}
