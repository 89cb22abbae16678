// Velocity Verlet's long-vector sweeps on the contact threads (integrators/velocity_verlet.cpp,
// core/contact_threads.h ParallelBlocks): the half kick, drift and kicks are element by element and the fixed point's
// convergence test takes maxima, which are exact in any order, so a run is bitwise the same on 1 and 2 threads. The
// system is long enough (60 000 velocity entries) for the sweeps to run in blocks, and damped, so that the
// end-velocity fixed point iterates.
#include <doctest/doctest.h>

#include <cmath>

#include "core/contact_threads.h"
#include "integrators/velocity_verlet.h"

using namespace impactlab;

namespace {

/// n independent damped linear oscillators, a_i = −ω_i² q_i − c_i v_i, with spread frequencies and dampers.
class DampedOscillators final : public MechanicalSystem {
 public:
  explicit DampedOscillators(int n) : n_(n) {}
  std::string name() const override { return "damped_oscillators"; }
  MechanicalState InitialState() const override {
    MechanicalState s;
    s.q.resize(n_);
    s.v.resize(n_);
    for (int i = 0; i < n_; ++i) {
      s.q[i] = std::sin(0.37 * i);
      s.v[i] = std::cos(1.3 * i);
    }
    return s;
  }
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> a) const override {
    for (int i = 0; i < n_; ++i) a[i] = -Omega2(i) * s.q[i] - Damping(i) * s.v[i];
  }
  DefaultHooks default_hooks() const override { return {true, true, true, false}; }
  double KineticEnergy(const MechanicalState& s) const override { return 0.5 * s.v.squaredNorm(); }
  double PotentialEnergy(const MechanicalState& s) const override {
    double e = 0.0;
    for (int i = 0; i < n_; ++i) e += 0.5 * Omega2(i) * s.q[i] * s.q[i];
    return e;
  }
  double DissipationPower(const MechanicalState& s) const override {
    double p = 0.0;
    for (int i = 0; i < n_; ++i) p += Damping(i) * s.v[i] * s.v[i];
    return p;
  }

 private:
  static double Omega2(int i) { return 1.0 + 0.5 * std::sin(0.11 * i); }
  static double Damping(int i) { return 0.2 + 0.1 * std::cos(0.07 * i); }
  int n_;
};

struct RestoreThreads {
  int saved = ContactThreads();
  ~RestoreThreads() { SetContactThreads(saved); }
};

MechanicalState Run(const MechanicalSystem& sys, VerletDamping damping, int threads, long& rhs) {
  SetContactThreads(threads);
  VelocityVerlet verlet(damping);
  MechanicalState s = sys.InitialState();
  for (int k = 0; k < 20; ++k) REQUIRE(verlet.Step(sys, s, 0.05).status == StepStatus::kAccepted);
  rhs = verlet.statistics().rhs_evaluations;
  return s;
}

}  // namespace

TEST_CASE("velocity_verlet: long-vector sweeps give bitwise the same run on 1 and 2 threads") {
  const RestoreThreads restore;
  const DampedOscillators sys(60000);
  for (const VerletDamping damping : {VerletDamping::kImplicitEndVelocity, VerletDamping::kHalfStepVelocity}) {
    long rhs_one = 0, rhs_two = 0;
    const MechanicalState one = Run(sys, damping, 1, rhs_one);
    const MechanicalState two = Run(sys, damping, 2, rhs_two);
    CHECK(one.SameBits(two));
    CHECK(SameBits(one.dissipated, two.dissipated));
    CHECK(rhs_one == rhs_two);  // the fixed point's convergence test saw the same maxima
    if (damping == VerletDamping::kImplicitEndVelocity) CHECK(rhs_one > 2 * 20);  // it did iterate
  }
  MESSAGE("contact threads available: ", ContactThreadsAvailable());
}
