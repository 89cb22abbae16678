// FreeRigidBodySolution [Landau & Lifshitz, Mechanics §37; lib/exact/free_rigid_body_solution.h]: the elliptic-
// function Ω(t) of the torque-free top against a fine classical RK4 run of the model's own Euler equations
// (models/free_rigid_body.h) for both branches (rotation about the largest and about the smallest axis), every
// ordering of the moments and random signs; it keeps E and M² and is periodic with T = 4K/λ, the cn and sn
// components changing sign at T/2 (the flip) while the dn component does not.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <random>
#include <string>

#include "core/errors.h"
#include "exact/free_rigid_body_solution.h"
#include "integrators/odeint_runge_kutta.h"
#include "models/free_rigid_body.h"

using namespace impactlab;

namespace {

struct Case {
  Eigen::Vector3d inertia, omega;
};

// max over 20 sample times in [0, T] of ‖Ω_RK4 − Ω_exact‖∞ / ‖Ω₀‖, RK4 at T/40000.
double MaxErrorAgainstRk4(const Case& c, const FreeRigidBodySolution& exact) {
  FreeRigidBodyParameters p;
  p.inertia = c.inertia;
  p.angular_velocity = c.omega;
  const FreeRigidBody model(p);
  OdeintRungeKutta rk4(OdeintMethod::kRk4);
  MechanicalState s = model.InitialState();
  const int steps = 40000;
  const double h = exact.Period() / steps;
  double worst = 0.0;
  for (int n = 1; n <= steps; ++n) {
    REQUIRE(rk4.Step(model, s, h).status == StepStatus::kAccepted);
    if (n % (steps / 20) == 0)
      worst = std::max(worst, (s.v.head<3>() - exact.AngularVelocity(s.t)).lpNorm<Eigen::Infinity>());
  }
  return worst / c.omega.lpNorm<Eigen::Infinity>();
}

}  // namespace

TEST_CASE("free rigid body exact solution: both branches and all axis orderings agree with a fine RK4 run") {
  std::vector<Case> cases = {
      {{1.0, 2.0, 3.0}, {0.1, 1.0, 0.05}},    // D < I_m: about the smallest axis (near the intermediate one)
      {{1.0, 2.0, 3.0}, {0.05, 1.0, 0.1}},    // D > I_m: about the largest axis
      {{3.0, 1.0, 2.0}, {-0.3, 0.4, -1.2}},   // permuted moments, (a, b, c) cyclic
      {{2.0, 3.0, 1.0}, {1.0, -0.2, 0.5}},    // permuted moments, (a, b, c) anticyclic
      {{1.0, 2.0, 3.0}, {0.0, 0.0, 2.0}},     // exactly about the largest axis (k = 0, constant Ω)
  };
  std::mt19937 rng(15);
  std::uniform_real_distribution<double> moment(0.5, 2.0), component(-2.0, 2.0);
  for (int i = 0; i < 12; ++i) {
    Eigen::Vector3d inertia(moment(rng), moment(rng), moment(rng));
    // keep the triangle inequality (not needed by the solution, but by the model)
    while (2.0 * inertia.maxCoeff() > inertia.sum()) inertia = Eigen::Vector3d(moment(rng), moment(rng), moment(rng));
    cases.push_back({inertia, {component(rng), component(rng), component(rng)}});
  }
  for (const auto& c : cases) {
    CAPTURE(c.inertia.transpose());
    CAPTURE(c.omega.transpose());
    const FreeRigidBodySolution exact(c.inertia, c.omega);
    CHECK((exact.AngularVelocity(0.0) - c.omega).lpNorm<Eigen::Infinity>() <= 1e-13 * c.omega.norm());
    // RK4 at 40000 steps per period: global error ~(λh)⁴ ≲ 1e-13, round-off ~1e-13
    CHECK(MaxErrorAgainstRk4(c, exact) <= 1e-10);
  }
}

TEST_CASE("free rigid body exact solution: conserved quantities, period and the flip at T/2") {
  const Eigen::Vector3d inertia(1.0, 2.0, 3.0);
  for (const Eigen::Vector3d& omega0 : {Eigen::Vector3d(0.1, 1.0, 0.05), Eigen::Vector3d(0.05, 1.0, 0.1),
                                       Eigen::Vector3d(1.0, 0.5, -0.7)}) {
    CAPTURE(omega0.transpose());
    const FreeRigidBodySolution exact(inertia, omega0);
    const double e0 = 0.5 * omega0.dot(inertia.cwiseProduct(omega0));
    const double m2 = inertia.cwiseProduct(omega0).squaredNorm();
    CHECK(exact.energy() == doctest::Approx(e0).epsilon(1e-15));
    const double t_period = exact.Period();
    for (int i = 0; i <= 40; ++i) {
      const Eigen::Vector3d w = exact.AngularVelocity(0.137 * i * t_period);
      CHECK(std::abs(0.5 * w.dot(inertia.cwiseProduct(w)) - e0) <= 1e-13 * e0);
      CHECK(std::abs(inertia.cwiseProduct(w).squaredNorm() - m2) <= 1e-13 * m2);
    }
    CHECK((exact.AngularVelocity(t_period) - omega0).lpNorm<Eigen::Infinity>() <= 1e-12 * omega0.norm());
    const Eigen::Vector3d half = exact.AngularVelocity(0.5 * t_period);
    CHECK(half[exact.cn_axis()] == doctest::Approx(-omega0[exact.cn_axis()]).epsilon(1e-11));
    CHECK(half[exact.sn_axis()] == doctest::Approx(-omega0[exact.sn_axis()]).epsilon(1e-11));
    CHECK(half[exact.dn_axis()] == doctest::Approx(omega0[exact.dn_axis()]).epsilon(1e-11));
    CHECK(exact.sn_axis() == 1);  // the intermediate axis carries sn
  }
}

TEST_CASE("free rigid body exact solution: symmetric tops and the separatrix are refused") {
  CHECK_THROWS_AS(FreeRigidBodySolution(Eigen::Vector3d(1.0, 1.0, 2.0), Eigen::Vector3d(1.0, 0.2, 0.3)),
                  InvalidParameter);
  CHECK_THROWS_AS(FreeRigidBodySolution(Eigen::Vector3d(1.0, 2.0, 3.0), Eigen::Vector3d(0.0, 1.0, 0.0)),
                  InvalidParameter);
  CHECK_THROWS_AS(FreeRigidBodySolution(Eigen::Vector3d(0.0, 2.0, 3.0), Eigen::Vector3d(0.1, 1.0, 0.0)),
                  InvalidParameter);
  // The message names the parameter and gives the three values as a vector.
  try {
    FreeRigidBodySolution(Eigen::Vector3d(0.0, 2.5, 3.0), Eigen::Vector3d(0.1, 1.0, 0.0));
    FAIL("zero inertia accepted");
  } catch (const InvalidParameter& e) {
    const std::string message = e.what();
    CAPTURE(message);
    CHECK(message.find("inertia") != std::string::npos);
    CHECK(message.find("(0, 2.5, 3)") != std::string::npos);
  }
}
