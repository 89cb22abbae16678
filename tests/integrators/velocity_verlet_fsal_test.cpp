// Velocity Verlet reuses a_{n+1} of its last step as the next a_n (FSAL) only when it is handed the state that step
// returned (Integrator::KeepReturnedState, integrators/integrator.h). These cases change the state, the system or
// the outcome of a step between two steps and check that the next step equals a fresh integrator's bit for bit
// (a stale a_n would not), and that the rollback copy kept from the returned state restores a handed state exactly.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "integrators/velocity_verlet.h"
#include "models/contact_oscillator.h"
#include "state/same_bits.h"

using namespace impactlab;

namespace {

ContactOscillator Hertz(double stiffness, bool damped) {
  std::shared_ptr<const DampingLaw> damping = std::make_shared<NoDamping>();
  if (damped) damping = std::make_shared<TsujiDamping>(0.2, 1.0, stiffness, 1.5);
  return ContactOscillator(ContactOscillatorParameters{},
                           DampedNormalLaw{std::make_shared<HertzLaw>(stiffness), std::move(damping)});
}

/// One step of a fresh integrator from `s`: what any step from `s` must give.
MechanicalState FreshStep(const MechanicalSystem& system, MechanicalState s, double h) {
  VelocityVerlet fresh;
  REQUIRE(fresh.Step(system, s, h).status == StepStatus::kAccepted);
  return s;
}

void CheckSameBits(const MechanicalState& a, const MechanicalState& b) {
  CHECK(a.SameBits(b));
  CHECK(SameBits(a.dissipated, b.dissipated));
}

/// 1-D oscillator a = −q whose acceleration is NaN beyond |q| > 1 or after t > 5: a long step is rejected as
/// non-finite.
class NanBeyondOne final : public MechanicalSystem {
 public:
  std::string name() const override { return "nan_beyond_one"; }
  MechanicalState InitialState() const override {
    MechanicalState s;
    s.q = Eigen::VectorXd::Constant(1, 0.5);
    s.v = Eigen::VectorXd::Constant(1, 0.0);
    return s;
  }
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> a) const override {
    a[0] = std::abs(s.q[0]) > 1.0 || s.t > 5.0 ? std::numeric_limits<double>::quiet_NaN() : -s.q[0];
  }
  bool velocity_dependent_forces() const override { return false; }
  DefaultHooks default_hooks() const override { return {true, true, true, true}; }
  double KineticEnergy(const MechanicalState& s) const override { return 0.5 * s.v[0] * s.v[0]; }
  double PotentialEnergy(const MechanicalState& s) const override { return 0.5 * s.q[0] * s.q[0]; }
};

}  // namespace

TEST_CASE("velocity Verlet FSAL: a state changed between steps gets a fresh a_n") {
  for (const bool damped : {false, true}) {
    CAPTURE(damped);
    const ContactOscillator osc = Hertz(1.0, damped);
    const double h = 0.01;
    VelocityVerlet vv;
    MechanicalState s = osc.InitialState();
    for (int i = 0; i < 50; ++i) REQUIRE(vv.Step(osc, s, h).status == StepStatus::kAccepted);  // in contact
    REQUIRE(-s.q[0] > 0.0);

    SUBCASE("unchanged: one evaluation per undamped step, the same step as a fresh integrator's") {
      const long before = vv.statistics().rhs_evaluations;
      const MechanicalState expected = FreshStep(osc, s, h);
      REQUIRE(vv.Step(osc, s, h).status == StepStatus::kAccepted);
      CheckSameBits(s, expected);
      if (!damped) CHECK(vv.statistics().rhs_evaluations - before == 1);
    }
    SUBCASE("q changed") {
      s.q[0] *= 1.5;
      const MechanicalState expected = FreshStep(osc, s, h);
      REQUIRE(vv.Step(osc, s, h).status == StepStatus::kAccepted);
      CheckSameBits(s, expected);
    }
    SUBCASE("v changed (a and P depend on v with a damper)") {
      s.v[0] = -0.75;
      const MechanicalState expected = FreshStep(osc, s, h);
      REQUIRE(vv.Step(osc, s, h).status == StepStatus::kAccepted);
      CheckSameBits(s, expected);
    }
    SUBCASE("t changed") {
      s.t += 1.0;
      const long before = vv.statistics().rhs_evaluations;
      const MechanicalState expected = FreshStep(osc, s, h);
      REQUIRE(vv.Step(osc, s, h).status == StepStatus::kAccepted);
      CheckSameBits(s, expected);
      if (!damped) CHECK(vv.statistics().rhs_evaluations - before == 2);  // a_n evaluated again
    }
    SUBCASE("another system with the same state") {
      const ContactOscillator stiffer = Hertz(4.0, damped);
      const MechanicalState expected = FreshStep(stiffer, s, h);
      REQUIRE(vv.Step(stiffer, s, h).status == StepStatus::kAccepted);
      CheckSameBits(s, expected);
    }
    SUBCASE("Reset") {
      vv.Reset();
      const long before = vv.statistics().rhs_evaluations;
      REQUIRE(vv.Step(osc, s, h).status == StepStatus::kAccepted);
      if (!damped) CHECK(vv.statistics().rhs_evaluations - before == 2);
    }
  }
}

TEST_CASE("velocity Verlet FSAL: a rejected step restores the handed state exactly and leaves no stale a_n") {
  const NanBeyondOne system;
  VelocityVerlet vv;
  MechanicalState s = system.InitialState();
  for (int i = 0; i < 3; ++i) REQUIRE(vv.Step(system, s, 0.1).status == StepStatus::kAccepted);
  s.dissipated = 0.125;  // bookkeeping the caller may set: not compared, restored all the same
  const MechanicalState handed = s;
  const StepResult rejected = vv.Step(system, s, 10.0);  // q leaves |q| ≤ 1: a = NaN, v non-finite
  REQUIRE(rejected.status == StepStatus::kRetrySmallerStep);
  CheckSameBits(s, handed);
  const MechanicalState expected = FreshStep(system, s, 0.1);
  REQUIRE(vv.Step(system, s, 0.1).status == StepStatus::kAccepted);
  CheckSameBits(s, expected);

  // A changed state that is then rejected is restored to its own bits, not to the kept returned state.
  MechanicalState changed = s;
  changed.q[0] = -0.5;
  changed.v[0] = 0.25;
  const MechanicalState changed_copy = changed;
  REQUIRE(vv.Step(system, changed, 100.0).status == StepStatus::kRetrySmallerStep);
  CheckSameBits(changed, changed_copy);
}

TEST_CASE("velocity Verlet FSAL: +0.0 and -0.0 are different states for the rollback copy") {
  const NanBeyondOne system;
  VelocityVerlet vv;
  MechanicalState s = system.InitialState();
  s.q[0] = 0.0;
  REQUIRE(vv.Step(system, s, 0.5).status == StepStatus::kAccepted);  // at rest: returns q = v = +0.0
  REQUIRE(std::bit_cast<std::uint64_t>(s.q[0]) == 0u);
  s.q[0] = -0.0;  // equal by ==, not by bits
  s.v[0] = -0.0;
  const MechanicalState handed = s;
  REQUIRE(vv.Step(system, s, 10.0).status == StepStatus::kRetrySmallerStep);  // t > 5: a = NaN
  CHECK(std::signbit(s.q[0]));
  CHECK(std::signbit(s.v[0]));
  CheckSameBits(s, handed);
  const MechanicalState expected = FreshStep(system, s, 0.5);
  REQUIRE(vv.Step(system, s, 0.5).status == StepStatus::kAccepted);
  CheckSameBits(s, expected);
}

TEST_CASE("MechanicalState::SameBits: the bits of t, q, v, z, not dissipated") {
  MechanicalState a;
  a.q = Eigen::VectorXd::Constant(2, 0.0);
  a.v = Eigen::VectorXd::Constant(2, 1.0);
  MechanicalState b = a;
  CHECK(a.SameBits(b));
  b.dissipated = 3.0;
  CHECK(a.SameBits(b));
  b.q[1] = -0.0;
  CHECK(a.SameValues(b));
  CHECK_FALSE(a.SameBits(b));
  b = a;
  b.z = Eigen::VectorXd::Zero(1);
  CHECK_FALSE(a.SameBits(b));
  b = a;
  b.t = std::nextafter(0.0, 1.0);
  CHECK_FALSE(a.SameBits(b));
  a.v[0] = b.v[0] = std::numeric_limits<double>::quiet_NaN();
  b.t = a.t;
  CHECK(a.SameBits(b));  // the same NaN: a copy would not change a bit
}
