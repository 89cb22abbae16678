// Typed step-failure causes (integrators/step_failure_cause.h): every way a step can fail carries an enum
// cause — Newton non-convergence, non-finite residual, singular matrix, KINSOL failure, non-finite state —
// and the driver's diagnosis depends on the cause alone, never on the words of the message.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "integrators/newton_solver.h"
#include "integrators/simulation.h"
#include "registry/registries.h"
#include "support/analytic_problems.h"

using namespace impactlab;

namespace {

/// R(x) = x³ − 2 (converges from x = 30 in many iterations), or a constant NaN / a zero Jacobian.
class ScalarSystem final : public NewtonSystem {
 public:
  enum class Mode { kCubic, kNaN, kSingular };
  explicit ScalarSystem(Mode mode) : mode_(mode) {}
  double Evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& r, NewtonJacobian* j) override {
    r.resize(1);
    r[0] = mode_ == Mode::kNaN ? std::numeric_limits<double>::quiet_NaN() : x[0] * x[0] * x[0] - 2.0 + (mode_ == Mode::kSingular ? 1.0 : 0.0);
    if (j) {
      Eigen::MatrixXd d(1, 1);
      d(0, 0) = mode_ == Mode::kSingular ? 0.0 : 3.0 * x[0] * x[0];
      j->matrix = d.sparseView(0.0, 0.0);
      j->u.resize(0);
      j->w.resize(0);
    }
    return 2.0 + std::abs(x[0] * x[0] * x[0]);
  }

 private:
  Mode mode_;
};

StepFailureCause Solve(ScalarSystem::Mode mode, NonlinearSolverKind kind) {
  ScalarSystem sys(mode);
  NewtonOptions o;
  o.max_iterations = 2;
  o.kind = kind;
  Eigen::VectorXd x = Eigen::VectorXd::Constant(1, 30.0);
  const NewtonReport rep = SolveNewton(sys, x, 1.0, o);
  CHECK_FALSE(rep.converged);
  return rep.cause;
}

/// A test-only scheme whose step produces NaN.
class NanScheme final : public Integrator {
 public:
  std::string name() const override { return "test_nan"; }
  IntegratorTraits traits() const override { return {}; }

 private:
  StepResult DoStep(const MechanicalSystem&, MechanicalState& state, double h) override {
    state.q[0] = std::numeric_limits<double>::quiet_NaN();
    state.t += h;
    return {};
  }
};

}  // namespace

TEST_CASE("step failure cause: the Newton back ends report a typed cause") {
  CHECK(Solve(ScalarSystem::Mode::kCubic, NonlinearSolverKind::kNewtonSparseLu) == StepFailureCause::kNewtonNonConvergence);
  CHECK(Solve(ScalarSystem::Mode::kNaN, NonlinearSolverKind::kNewtonSparseLu) == StepFailureCause::kNewtonNonFiniteResidual);
  CHECK(Solve(ScalarSystem::Mode::kSingular, NonlinearSolverKind::kNewtonSparseLu) == StepFailureCause::kSingularNewtonMatrix);
  CHECK(Solve(ScalarSystem::Mode::kCubic, NonlinearSolverKind::kKinsol) == StepFailureCause::kKinsolFailure);
}

TEST_CASE("step failure cause: a non-finite step and a failed implicit step carry their cause") {
  testing::FreeParticle particle;
  NanScheme nan;
  MechanicalState s = particle.InitialState();
  const StepResult r = nan.Step(particle, s, 0.1);
  CHECK(r.status == StepStatus::kRetrySmallerStep);
  CHECK(r.cause == StepFailureCause::kNonFiniteState);

  // Simo–Tarnow with one Newton iteration, deep in a Hertz contact: the scheme passes the solver's cause on.
  ParameterSet mp;
  mp.Set("normal_law", std::string("hertz"));
  mp.Set("k", 1.0);
  mp.Set("m", 1.0);
  mp.Set("v0", 1.0);
  const ModelInstance model = ModelRegistry().Get("contact_oscillator").make(mp);
  ParameterSet ip;
  ip.Set("newton_max_iterations", 1.0);
  auto st = IntegratorRegistry().Get("simo_tarnow").make(ip);
  MechanicalState deep = model.system->InitialState();
  deep.q[0] = -0.5;
  deep.v[0] = -0.3;
  REQUIRE(deep.q.size() == 1);
  const StepResult f = st->Step(*model.system, deep, 0.3);
  INFO(f.message);
  CHECK(f.status == StepStatus::kRetrySmallerStep);
  CHECK(f.cause == StepFailureCause::kNewtonNonConvergence);
  CHECK(ToString(StepFailureCause::kKinsolFailure) == "kinsol_failure");
}

TEST_CASE("step failure cause: the driver's diagnosis reads the cause, never the message") {
  testing::FreeParticle particle;
  NanScheme scheme;
  SimulationOptions o;
  o.dt = 0.1;
  o.t_end = 1.0;
  StepResult opaque;
  opaque.status = StepStatus::kRetrySmallerStep;
  opaque.cause = StepFailureCause::kNewtonNonConvergence;
  opaque.message = "opaque words";
  const MechanicalState s = particle.InitialState();
  CHECK(DescribeStepFailure(particle, scheme, s, 1, o, 0.1, 0, opaque).find("implicit solve does not converge") !=
        std::string::npos);
  StepResult misleading;
  misleading.status = StepStatus::kRetrySmallerStep;
  misleading.cause = StepFailureCause::kFixedPointNonConvergence;
  misleading.message = "Newton KINSOL non-finite";  // words that the old string search would have matched
  const std::string d = DescribeStepFailure(particle, scheme, s, 1, o, 0.1, 0, misleading);
  CHECK(d.find("implicit solve does not converge") == std::string::npos);
  CHECK(d.find("NaN/Inf") == std::string::npos);
  CHECK(d.find("fixed_point_non_convergence") != std::string::npos);
}
