// LiePoissonMidpoint (integrators/lie_poisson_midpoint.h; docs/rotation.md) on the free rigid body
// (models/free_rigid_body.h) against the elliptic-function solution (lib/exact/free_rigid_body_solution.h):
//  • 10⁵ steps at 5 % of the period T = 4K/λ: |E − E₀|/E₀ and ‖L − L₀‖/‖L₀‖ ≤ 1e-12 (RK4 at the same step
//    drifts by orders of magnitude more, so the check can tell a conserving scheme from one that is not);
//  • the observed order of Ω(T) against the exact solution is 2.0 ± 0.15;
//  • the flip period measured from the sign changes of the intermediate-axis component converges to T;
//  • a model that is not a single rigid body in quaternion coordinates is refused with the reason.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/errors.h"
#include "exact/free_rigid_body_solution.h"
#include "integrators/lie_poisson_midpoint.h"
#include "integrators/odeint_runge_kutta.h"
#include "models/ellipsoid_wall_impact.h"
#include "models/free_rigid_body.h"

using namespace impactlab;

namespace {

// The scenario of validation/scenarios/free_rigid_body.toml: an asymmetric top spun near its intermediate axis.
FreeRigidBodyParameters DzhanibekovTop() {
  FreeRigidBodyParameters p;
  p.inertia = Eigen::Vector3d(1.0, 2.0, 3.0);
  p.angular_velocity = Eigen::Vector3d(0.02, 2.0, 0.02);
  p.quaternion = Eigen::Vector4d(0.9, 0.1, -0.3, 0.2);
  return p;
}

struct Drift {
  double energy = 0.0, momentum = 0.0;
};

Drift RunDrift(const FreeRigidBody& model, Integrator& integrator, double h, int steps) {
  MechanicalState s = model.InitialState();
  const double e0 = model.KineticEnergy(s);
  const Eigen::Vector3d l0 = *model.AngularMomentum(s);
  Drift d;
  for (int n = 0; n < steps; ++n) {
    REQUIRE(integrator.Step(model, s, h).status == StepStatus::kAccepted);
    if (n % 100 == 99 || n == steps - 1) {
      d.energy = std::max(d.energy, std::abs(model.KineticEnergy(s) - e0) / e0);
      d.momentum = std::max(d.momentum, (*model.AngularMomentum(s) - l0).norm() / l0.norm());
    }
  }
  return d;
}

// ‖Ω_h(t_end) − Ω(t_end)‖∞ after steps of h = t_end/steps.
double FinalError(const FreeRigidBody& model, const FreeRigidBodySolution& exact, double t_end, int steps) {
  LiePoissonMidpoint scheme;
  MechanicalState s = model.InitialState();
  const double h = t_end / steps;
  for (int n = 0; n < steps; ++n) REQUIRE(scheme.Step(model, s, h).status == StepStatus::kAccepted);
  return (s.v.head<3>() - exact.AngularVelocity(s.t)).lpNorm<Eigen::Infinity>();
}

}  // namespace

TEST_CASE("rigid body lie_poisson_midpoint: 1e5 steps at 5 % of the period keep E and L to 1e-12") {
  const FreeRigidBody model(DzhanibekovTop());
  const FreeRigidBodySolution exact(model.PrincipalMoments(), model.InitialState().v);
  const double h = 0.05 * exact.Period();
  LiePoissonMidpoint scheme;
  const Drift d = RunDrift(model, scheme, h, 100000);
  MESSAGE("lie_poisson_midpoint, h = 0.05 T = " << h << " s, 1e5 steps: |dE|/E0 = " << d.energy
                                                << ", |dL|/|L0| = " << d.momentum);
  CHECK(d.energy <= 1e-12);
  CHECK(d.momentum <= 1e-12);
  CHECK(scheme.statistics().newton_iterations <= 6 * 100000);
  // The baseline at the same step: classical RK4 (quaternion renormalized after every step) drifts.
  OdeintRungeKutta rk4(OdeintMethod::kRk4);
  const Drift b = RunDrift(model, rk4, h, 100000);
  MESSAGE("rk4 at the same step: |dE|/E0 = " << b.energy << ", |dL|/|L0| = " << b.momentum);
  CHECK(b.energy > 1e-9);
}

TEST_CASE("rigid body lie_poisson_midpoint: observed order of Omega(t) against the elliptic solution is 2") {
  const FreeRigidBody model(DzhanibekovTop());
  const FreeRigidBodySolution exact(model.PrincipalMoments(), model.InitialState().v);
  const double t_end = exact.Period();
  std::vector<double> errors;
  for (int steps : {800, 1600, 3200, 6400}) errors.push_back(FinalError(model, exact, t_end, steps));
  for (size_t i = 1; i < errors.size(); ++i) {
    const double order = std::log2(errors[i - 1] / errors[i]);
    MESSAGE("steps per period " << 800 * (1 << (i - 1)) << " -> " << 800 * (1 << i) << ": error " << errors[i - 1]
                                << " -> " << errors[i] << ", observed order " << order);
    CHECK(order == doctest::Approx(2.0).epsilon(0.15 / 2.0));
  }
}

TEST_CASE("rigid body lie_poisson_midpoint: the flip period converges to 4K/lambda") {
  const FreeRigidBody model(DzhanibekovTop());
  const FreeRigidBodySolution exact(model.PrincipalMoments(), model.InitialState().v);
  const double t_period = exact.Period();
  const int b = exact.sn_axis();
  double previous_error = 0.0;
  for (int steps : {2000, 20000}) {
    LiePoissonMidpoint scheme;
    MechanicalState s = model.InitialState();
    const double h = t_period / steps;
    std::vector<double> downward;  // times where Ω_b crosses 0 from + to − (once per period)
    for (int n = 0; n < 3 * steps + steps / 2; ++n) {
      const double before = s.v[b];
      REQUIRE(scheme.Step(model, s, h).status == StepStatus::kAccepted);
      if (before > 0.0 && s.v[b] <= 0.0) downward.push_back(s.t - h * s.v[b] / (s.v[b] - before));
    }
    REQUIRE(downward.size() >= 3);
    const double measured = (downward.back() - downward.front()) / static_cast<double>(downward.size() - 1);
    const double error = std::abs(measured - t_period) / t_period;
    MESSAGE("flip period T = " << t_period << " s, " << steps << " steps per period: measured " << measured
                               << ", relative error " << error);
    if (previous_error > 0.0) {
      CHECK(error < 0.02 * previous_error);  // second order: 100x finer step → ~1e-2 of the error
      CHECK(error <= 1e-6);
    }
    previous_error = error;
  }
}

TEST_CASE("rigid body lie_poisson_midpoint: refuses a model that is not a single rigid body in quaternions") {
  LiePoissonMidpoint scheme;
  const EllipsoidWallImpact planar{EllipsoidWallParameters{}};
  MechanicalState s = planar.InitialState();
  const MechanicalState s0 = s;
  try {
    (void)scheme.Step(planar, s, 1e-4);
    FAIL("expected InvalidParameter");
  } catch (const InvalidParameter& e) {
    CHECK(e.parameter() == "integrator");
    CHECK(std::string(e.what()).find("ellipsoid_wall") != std::string::npos);
    CHECK(std::string(e.what()).find("RigidBodySystem") != std::string::npos);
  }
  CHECK(s.SameValues(s0));
}
