// Numerical guards of the run driver (docs/reliability.md, "Numerical guards"):
//  - MechanicalSystem::CriticalTimeStep is a real stability boundary where it is exact (harmonic oscillator,
//    velocity Verlet: stable for ω Δt < 2, divergent above) and agrees with lib/exact for the oscillator;
//  - a step that cannot be completed throws StepFailure naming step, t, dt, the state and the likely cause;
//  - Newton non-convergence carries the residual history.
#include <doctest/doctest.h>

#include <cmath>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "core/errors.h"
#include "exact/critical_time_step.h"
#include "integrators/newton_solver.h"
#include "integrators/simulation.h"
#include "integrators/velocity_verlet.h"
#include "models/bead_chain.h"
#include "models/contact_oscillator.h"
#include "models/harmonic_oscillator.h"

using namespace impactlab;

namespace {

std::string FailureMessage(const MechanicalSystem& sys, Integrator& integrator, const SimulationOptions& o) {
  try {
    (void)Simulate(sys, integrator, sys.InitialState(), o, {});
  } catch (const StepFailure& e) {
    return e.what();
  }
  return "";
}

double MaxAbsPosition(const MechanicalSystem& sys, double dt, long steps) {
  VelocityVerlet vv;
  MechanicalState s = sys.InitialState();
  double max_q = 0.0;
  for (long n = 0; n < steps; ++n) {
    if (vv.Step(sys, s, dt).status != StepStatus::kAccepted) return INFINITY;
    max_q = std::max(max_q, std::abs(s.q[0]));
  }
  return max_q;
}

}  // namespace

TEST_CASE("guard: harmonic oscillator critical step 2/omega is the velocity-Verlet stability boundary") {
  const HarmonicOscillator osc(1.0, 1e4, 1.0, 0.0);  // ω = 100 rad/s
  const auto crit = osc.CriticalTimeStep(osc.InitialState());
  REQUIRE(crit);
  CHECK(*crit == doctest::Approx(0.02).epsilon(1e-15));
  // Below: bounded (|q| ≤ 1/√(1 − (ωh/2)²) = 7.1 at 0.99); above: |λ| = 1.38 per step at 1.01 → 1e100 in
  // 720 steps. Both thresholds are orders of magnitude away from the boundary cases they separate.
  CHECK(MaxAbsPosition(osc, 0.99 * *crit, 2000) < 10.0);
  CHECK(MaxAbsPosition(osc, 1.05 * *crit, 2000) > 1e100);
}

TEST_CASE("guard: NaN/Inf step -> StepFailure with step, t, dt, state and the stability estimate") {
  const HarmonicOscillator osc(1.0, 1e4, 1.0, 0.0);
  VelocityVerlet vv;
  SimulationOptions o;
  o.dt = 0.03;  // 1.5 Δt_crit: |λ| ≈ 6.9 per step, overflows within ~400 steps
  o.t_end = 1e3;
  o.adaptive_retry = false;
  const std::string msg = FailureMessage(osc, vv, o);
  CAPTURE(msg);
  CHECK(msg.find("cannot complete step ") != std::string::npos);
  CHECK(msg.find("at t = ") != std::string::npos);
  CHECK(msg.find("non-finite") != std::string::npos);
  CHECK(msg.find("q = [") != std::string::npos);
  CHECK(msg.find("v = [") != std::string::npos);
  CHECK(msg.find("dt = 0.03 is above the estimated stability limit 0.02") != std::string::npos);
}

TEST_CASE("guard: compact state formatting truncates big systems") {
  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(40, 0.0, 39.0);
  CHECK(FormatVectorCompact(x, 3) == "[0, 1, 2, ... (40 entries)]");
  CHECK(FormatVectorCompact(Eigen::Vector2d(1.5, -2.0)) == "[1.5, -2]");
}

TEST_CASE("guard: contact oscillator critical step = lib/exact tangent estimate - 2 sqrt(m/k) for a linear spring") {
  ContactOscillatorParameters p;
  p.mass = 2.0;
  p.impact_velocity = 1.0;
  {
    ContactOscillator lin(p, DampedNormalLaw{std::make_shared<LinearLaw>(8.0), std::make_shared<NoDamping>()});
    const auto crit = lin.CriticalTimeStep(lin.InitialState());
    REQUIRE(crit);
    CHECK(*crit == doctest::Approx(2.0 * std::sqrt(2.0 / 8.0)).epsilon(1e-12));  // 2/ω, exact for p = 1
  }
  {
    ContactOscillator hz(p, DampedNormalLaw{std::make_shared<PowerLaw>(1e5, 1.5), std::make_shared<NoDamping>()});
    const auto crit = hz.CriticalTimeStep(hz.InitialState());
    REQUIRE(crit);
    CHECK(*crit == doctest::Approx(PowerLawCriticalTimeStep(2.0, 1e5, 1.5, 1.0).tangent).epsilon(1e-12));
  }
}

TEST_CASE("guard: particle assembly estimate: sqrt(m/k) for a linear equal-mass chain, 2 sqrt(m*/k) for a pair") {
  BeadChainParameters bp;
  bp.mass = 2.0;
  bp.radius = 0.1;
  bp.impact_velocity = 1.0;
  for (int n : {2, 10}) {
    CAPTURE(n);
    bp.num_beads = n;
    BeadChain chain(bp, DampedNormalLaw{std::make_shared<LinearLaw>(50.0), std::make_shared<NoDamping>()});
    const auto crit = chain.CriticalTimeStep(chain.InitialState());
    REQUIRE(crit);
    // pair: ω² = 2k/m (m* = m/2); chain: Gershgorin ω² ≤ 4k/m, the N → ∞ limit of the highest chain mode
    const double expected = n == 2 ? 2.0 * std::sqrt(1.0 / 50.0) : std::sqrt(2.0 / 50.0);
    CHECK(*crit == doctest::Approx(expected).epsilon(1e-12));
  }
}

namespace {
// R(x) = x² + 1: no real root, Newton cannot converge.
class NoRoot final : public NewtonSystem {
 public:
  double Evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& r, NewtonJacobian* j) override {
    r.resize(1);
    r[0] = x[0] * x[0] + 1.0;
    if (j) {
      Eigen::MatrixXd d(1, 1);
      d(0, 0) = 2.0 * x[0] + 1e-3;
      j->matrix = d.sparseView();
      j->u.resize(0);
      j->w.resize(0);
    }
    return 1.0 + x[0] * x[0];
  }
};
}  // namespace

TEST_CASE("guard: Newton non-convergence reports the residual history and the tolerance") {
  NoRoot sys;
  NewtonOptions o;
  o.max_iterations = 5;
  Eigen::VectorXd x = Eigen::VectorXd::Constant(1, 3.0);
  const NewtonReport rep = SolveNewton(sys, x, 1.0, o);
  CAPTURE(rep.message);
  REQUIRE_FALSE(rep.converged);
  CHECK(rep.residual_history.size() == 6);  // the initial guess and 5 updates
  CHECK(rep.message.find("did not converge in 5 iterations: |r| = ") != std::string::npos);
  CHECK(rep.message.find("(tol 2.5e-16)") != std::string::npos);
  CHECK(FormatResidualHistory({1e-2, 3e-3, 1e-4}, 1e-12) == "|r| = 0.01, 0.003, 0.0001 (tol 1e-12)");
  CHECK(FormatResidualHistory({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 1e-12, 4) == "|r| = 1, 2, 3, ..., 10 (tol 1e-12)");
}
