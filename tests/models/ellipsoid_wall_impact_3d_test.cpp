// EllipsoidWallImpact3D [Seed000 eqs. 7–12, 33, 39–43; docs/theory.md §4]: reduces to the planar model for planar
// initial data; free rigid rotation conserves energy and world angular momentum (Euler equations with the
// gyroscopic term); the quaternion rate is the rigid rotation; a generic oblique, spinning, tilted impact
// conserves energy when undamped and converges to the 3D impulsive solution at high K_n.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>

#include "models/ellipsoid_wall_impact_3d.h"
#include "registry/registries.h"
#include "run/scenario_runner.h"
#include "support/run_impactlab.h"

using namespace impactlab;

namespace {
nlohmann::json Run(const std::string& model, const std::string& integrator, double K_n, double e_cn, double dt,
                   double t_end, bool generic) {
  RunRequest r;
  r.scenario.path = "<test>";
  r.scenario.model = model;
  auto& p = r.scenario.parameters;
  p.Set("theta_deg", 30.0);
  p.Set("K_n", K_n);
  p.Set("e_cn", e_cn);
  p.Set("dt", dt);
  p.Set("t_end", t_end);
  p.Set("stop_after_separation", 1e-3 * t_end);
  if (generic) {
    p.Set("tilt_deg", 20.0);
    p.Set("v_x", 0.3);
    p.Set("v_y", -0.2);
    p.Set("omega_x", 1.0);
    p.Set("omega_z", 2.0);
  }
  if (integrator == "cvode_bdf") {
    p.Set("cvode_rtol", 1e-11);
    p.Set("cvode_atol", 1e-14);
  }
  r.integrators = {integrator};
  return RunScenario(r)["runs"][0];
}
}  // namespace

TEST_CASE("ellipsoid_wall_3d: planar initial data reproduce the planar model") {
  const auto planar = Run("ellipsoid_wall", "cvode_bdf", 1e3, 0.5, 1e-3, 0.2, false);
  const auto full = Run("ellipsoid_wall_3d", "cvode_bdf", 1e3, 0.5, 1e-3, 0.2, false);
  // both solved by CVODE at rtol 1e-11: agreement ~1e-9
  CHECK(full["m_n_star_initial"].get<double>() == doctest::Approx(planar["m_n_star_initial"].get<double>()).epsilon(1e-13));
  CHECK(full["e_cn"].get<double>() == doctest::Approx(planar["e_cn"].get<double>()).epsilon(1e-7));
  CHECK(full["e_E"].get<double>() == doctest::Approx(planar["e_E"].get<double>()).epsilon(1e-7));
  CHECK(full["e_E_impulsive"].get<double>() == doctest::Approx(planar["e_E_impulsive"].get<double>()).epsilon(1e-13));
  CHECK(full["v_after_z"].get<double>() == doctest::Approx(planar["v_z_after"].get<double>()).epsilon(1e-6));
  CHECK(full["omega_after_y"].get<double>() == doctest::Approx(planar["omega_y_after"].get<double>()).epsilon(1e-7));
  CHECK(std::abs(full["v_after_y"].get<double>()) < 1e-12);
  CHECK(std::abs(full["omega_after_x"].get<double>()) < 1e-12);
}

TEST_CASE("ellipsoid_wall_3d: free rotation conserves energy and world angular momentum") {
  EllipsoidWall3DParameters p;
  p.shape.semi_axes = Eigen::Vector3d(1.0, 0.6, 0.35);
  p.gap = 10.0;  // never reaches the wall in the time simulated
  p.velocity = Eigen::Vector3d(0.0, 0.0, -1.0);
  p.angular_velocity = Eigen::Vector3d(0.3, 2.0, 0.4);  // near the unstable intermediate axis
  p.tilt_deg = 10.0;
  EllipsoidWallImpact3D model(p);
  MechanicalState s = model.InitialState();
  auto momentum = [&](const MechanicalState& x) {
    return Eigen::Vector3d(model.WorldInertia(x.q) * model.WorldAngularVelocity(x));
  };
  const Eigen::Vector3d l0 = momentum(s);
  const double e0 = model.KineticEnergy(s);
  // classical RK4 on (q, v), h = 1e-3 for 2 s: local error ~h⁵ → global ~1e-11 (relative)
  const double h = 1e-3;
  for (int n = 0; n < 2000; ++n) {
    auto f = [&](const MechanicalState& x, Eigen::VectorXd& dq, Eigen::VectorXd& dv) {
      model.PositionRate(x, dq);
      model.Acceleration(x, dv);
    };
    MechanicalState k = s;
    Eigen::VectorXd q1(7), v1(6), q2(7), v2(6), q3(7), v3(6), q4(7), v4(6);
    f(s, q1, v1);
    k.q = s.q + 0.5 * h * q1;
    k.v = s.v + 0.5 * h * v1;
    f(k, q2, v2);
    k.q = s.q + 0.5 * h * q2;
    k.v = s.v + 0.5 * h * v2;
    f(k, q3, v3);
    k.q = s.q + h * q3;
    k.v = s.v + h * v3;
    f(k, q4, v4);
    s.q += h / 6 * (q1 + 2 * q2 + 2 * q3 + q4);
    s.v += h / 6 * (v1 + 2 * v2 + 2 * v3 + v4);
    model.NormalizeCoordinates(s);
  }
  CHECK(std::abs(model.KineticEnergy(s) - e0) < 1e-9 * e0);
  CHECK((momentum(s) - l0).norm() < 1e-9 * l0.norm());
  CHECK(model.PotentialEnergy(s) == 0.0);
}

TEST_CASE("ellipsoid_wall_3d: quaternion rate is the rigid rotation with omega = R Omega") {
  EllipsoidWall3DParameters p;
  p.tilt_deg = 25.0;
  p.angular_velocity = Eigen::Vector3d(0.7, -1.1, 0.4);
  EllipsoidWallImpact3D model(p);
  const MechanicalState s = model.InitialState();
  Eigen::VectorXd qd(7);
  model.PositionRate(s, qd);
  const double h = 1e-7;
  MechanicalState moved = s;
  moved.q += h * qd;
  model.NormalizeCoordinates(moved);
  const Eigen::Matrix3d r0 = Eigen::Quaterniond(s.q[3], s.q[4], s.q[5], s.q[6]).toRotationMatrix();
  const Eigen::Matrix3d r1 = Eigen::Quaterniond(moved.q[3], moved.q[4], moved.q[5], moved.q[6]).toRotationMatrix();
  const Eigen::Matrix3d expected = AxisAngleRotation(p.angular_velocity, h * p.angular_velocity.norm()) * r0;
  CHECK((r1 - expected).norm() < 1e-12);  // forward difference: O(h²|ω|²) ~ 1e-14
  CHECK((model.WorldAngularVelocity(s) - p.angular_velocity).norm() < 1e-14);
}

TEST_CASE("ellipsoid_wall_3d: generic tilted spinning impact, energy and the impulsive limit") {
  // undamped: K + K_n V_c conserved by the exact flow (CVODE rtol 1e-11)
  const auto undamped = Run("ellipsoid_wall_3d", "cvode_bdf", 1e3, 1.0, 1e-3, 0.2, true);
  CHECK(undamped["energy_error_max"].get<double>() < 1e-8);
  CHECK(undamped["e_E"].get<double>() == doctest::Approx(1.0).epsilon(1e-8));
  // damped, stiff: compliant → impulsive with error O(K_n^−1/2) (planar: 8.7e-4 relative in v_z at 1e7)
  const auto stiff = Run("ellipsoid_wall_3d", "rk4", 1e7, 0.5, 1e-7, 1e-3, true);
  CHECK(stiff["e_cn"].get<double>() == doctest::Approx(0.5).epsilon(2e-3));
  CHECK(stiff["e_E"].get<double>() == doctest::Approx(stiff["e_E_impulsive"].get<double>()).epsilon(2e-3));
  for (const char* axis : {"x", "y", "z"}) {
    const double w = stiff[std::string("omega_after_") + axis].get<double>();
    const double w_imp = stiff[std::string("omega_impulsive_") + axis].get<double>();
    CHECK(w == doctest::Approx(w_imp).epsilon(3e-3));
    CHECK(stiff[std::string("v_after_") + axis].get<double>() ==
          doctest::Approx(stiff[std::string("v_impulsive_") + axis].get<double>()).epsilon(3e-3));
  }
  CHECK(stiff["energy_balance_residual_max"].get<double>() < 1e-7);
}

namespace {
// The in-plane special case of issue 15 (docs/rotation.md §6): spin only about the axis normal to the plane of
// motion (world y), v_y = 0, no tilt. Both models by the same integrator at a tight tolerance.
nlohmann::json RunInPlane(const std::string& model, const std::string& integrator) {
  RunRequest r;
  r.scenario.path = "<test>";
  r.scenario.model = model;
  auto& p = r.scenario.parameters;
  p.Set("theta_deg", 30.0);
  p.Set("v_x", 0.4);
  p.Set("v_z", -1.5);
  p.Set("omega_y", 3.0);
  p.Set("K_n", 1e3);
  p.Set("e_cn", 0.5);
  p.Set("dt", 1e-3);
  p.Set("t_end", 0.3);
  p.Set("stop_after_separation", 1e-3);
  p.Set("rk_rtol", 1e-13);
  p.Set("rk_atol", 1e-15);
  r.integrators = {integrator};
  return RunScenario(r)["runs"][0];
}
}  // namespace

TEST_CASE("ellipsoid_wall_3d: in-plane spin reproduces planar ellipsoid_wall e_cn and e_E to 1e-9") {
  const auto planar = RunInPlane("ellipsoid_wall", "dopri5");
  const auto full = RunInPlane("ellipsoid_wall_3d", "dopri5");
  REQUIRE(planar["e_cn"].is_number());
  REQUIRE(full["e_cn"].is_number());
  const double d_cn = std::abs(full["e_cn"].get<double>() - planar["e_cn"].get<double>());
  const double d_e = std::abs(full["e_E"].get<double>() - planar["e_E"].get<double>());
  MESSAGE("in-plane, dopri5 rtol 1e-13: |de_cn| = " << d_cn << ", |de_E| = " << d_e << " (e_cn = "
                                                    << planar["e_cn"].get<double>() << ", e_E = "
                                                    << planar["e_E"].get<double>() << ")");
  CHECK(d_cn <= 1e-9);
  CHECK(d_e <= 1e-9);
  CHECK(full["omega_after_y"].get<double>() == doctest::Approx(planar["omega_y_after"].get<double>()).epsilon(1e-9));
  CHECK(std::abs(full["omega_after_x"].get<double>()) < 1e-12);
  CHECK(std::abs(full["omega_after_z"].get<double>()) < 1e-12);
}

// The acceptance command of issue 15 (docs/rotation.md §6, §7): the shipped scenario (friction μ = 0.3 through the
// Cundall–Strack spring, gravity, damping) with the conserving rotation scheme, spin about each world axis: energy
// balance residual ≤ 1e-12 relative, the body rebounds, friction did work; its frictionless variant (mu = 0, g = 0:
// Seed000's impact) restores the target e_cn.
TEST_CASE("ellipsoid_wall_3d: shipped scenario with lie_poisson_midpoint closes the balance for each spin axis") {
  for (const char* key : {"omega_x", "omega_y", "omega_z"}) {
    for (const bool frictionless : {false, true}) {
      const auto o = test::RunImpactlab(std::string("run ") + IMPACTLAB_SOURCE_DIR +
                                        "/validation/scenarios/ellipsoid_wall_3d.toml --integrator lie_poisson_midpoint "
                                        "--set " + key + "=4 --json --quiet" +
                                        (frictionless ? " --set mu=0 --set g=0" : ""));
      CAPTURE(key);
      CAPTURE(frictionless);
      REQUIRE(o.status == 0);
      const auto run = nlohmann::json::parse(o.out)["runs"][0];
      CHECK(run["energy_balance_residual_max"].get<double>() <= 1e-12);
      CHECK(run["rebounds"].get<bool>());
      if (frictionless) {
        CHECK(run["e_cn"].get<double>() == doctest::Approx(0.5).epsilon(0.01));
        CHECK(run["energy_terms"]["friction_work_J"].get<double>() == 0.0);  // μ = 0 drops the law
      } else {
        CHECK(run["energy_terms"]["friction_work_J"].get<double>() > 1e-3);
      }
    }
  }
}
