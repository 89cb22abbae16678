// Impulsive frictionless wall impact [Seed000 eqs. (39)–(45), + sign of docs/theory.md §4]: the contact-point
// restitution condition v_cn⁺ = −e_cn v_cn⁻ (pitfall 6, catches the sign of eq. 42), the energy loss
// ½(1 − e²) m_n* v_cn², and the e_E tables of docs/theory.md §10 rows 6, 8, 9.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <numbers>

#include "core/errors.h"
#include "dynamics/impulsive_restitution.h"
#include "geometry/ellipsoid_plane_contact.h"

using namespace impactlab;

namespace {
constexpr double kExactTol = 1e-12;
constexpr double kFourDecimals = 5e-5;  // the tables give 4 decimals

ImpulsiveImpactInput Seed(double theta_deg, double e_cn, double a, double b, double c, double v_z = -1.5,
                          double omega_y = 0.0) {
  const double theta = theta_deg * std::numbers::pi / 180.0;
  const Eigen::Matrix3d rot = AxisAngleRotation(Eigen::Vector3d::UnitY(), theta);
  const auto g = EvaluateEllipsoidPlane(EllipsoidShape{Eigen::Vector3d(a, b, c)}, Eigen::Vector3d::Zero(), rot,
                                        PlaneWall{});
  const Eigen::Vector3d body_inertia = Eigen::Vector3d(b * b + c * c, a * a + c * c, a * a + b * b) / 5.0;
  ImpulsiveImpactInput in;
  in.mass = 1.0;
  in.inertia = rot * body_inertia.asDiagonal() * rot.transpose();
  in.lever = g.support_point;
  in.velocity = Eigen::Vector3d(0.0, 0.0, v_z);
  in.angular_velocity = Eigen::Vector3d(0.0, omega_y, 0.0);
  in.e_cn = e_cn;
  return in;
}
}  // namespace

TEST_CASE("impulsive: v_cn+ = -e_cn v_cn- and the energy loss, also with pre-spin and a 3D lever") {
  for (double e : {0.0, 0.3, 1.0}) {
    auto in = Seed(30.0, e, 1.0, 0.6, 0.6, -1.5, 0.8);
    in.velocity.x() = 0.4;
    const auto r = SolveImpulsiveWallImpact(in);
    CHECK(r.v_cn_after == doctest::Approx(-e * r.v_cn_before).epsilon(kExactTol).scale(1.0));
    CHECK(r.kinetic_before - r.kinetic_after ==
          doctest::Approx(0.5 * (1 - e * e) * r.m_n_star * r.v_cn_before * r.v_cn_before).epsilon(1e-12).scale(1.0));
    // planar eq. 44: v_cn = v_z − ω_y r_x,  ω_y⁺ = ω_y⁻ − J_n r_x/I_yy
    const double r_x = in.lever.x(), I = in.inertia(1, 1);
    CHECK(r.v_cn_before == doctest::Approx(-1.5 - 0.8 * r_x).epsilon(kExactTol));
    CHECK(r.angular_velocity.y() == doctest::Approx(0.8 - r.impulse * r_x / I).epsilon(kExactTol));
    CHECK(r.velocity.x() == doctest::Approx(0.4).epsilon(kExactTol));
  }
  // a fully 3D configuration (lever out of plane, non-diagonal inertia)
  ImpulsiveImpactInput in;
  in.mass = 2.0;
  in.inertia << 0.5, 0.1, -0.05, 0.1, 0.7, 0.02, -0.05, 0.02, 0.9;
  in.lever = Eigen::Vector3d(0.3, -0.2, -0.6);
  in.normal = Eigen::Vector3d(0.1, 0.2, 1.0).normalized();
  in.velocity = Eigen::Vector3d(0.3, -0.1, -2.0);
  in.angular_velocity = Eigen::Vector3d(0.5, -1.0, 0.2);
  in.e_cn = 0.6;
  const auto r = SolveImpulsiveWallImpact(in);
  CHECK(r.v_cn_after == doctest::Approx(-0.6 * r.v_cn_before).epsilon(kExactTol));
}

TEST_CASE("impulsive: aspect-ratio sweep e_E, theta = 30 deg, e_cn = 0.5 (docs/theory.md §10 row 6)") {
  // a/b with b = c = 0.6 (the impulsive model is scale-free, docs/theory.md §12.7); "1.67" is (1, 0.6, 0.6).
  const double ratios[] = {1.0, 1.25, 1.5, 1.0 / 0.6, 2.0, 2.5};
  const double expected[] = {0.5000, 0.5649, 0.6646, 0.7169, 0.7862, 0.8396};
  for (int i = 0; i < 6; ++i) {
    const auto r = SolveImpulsiveWallImpact(Seed(30.0, 0.5, ratios[i] * 0.6, 0.6, 0.6));
    CHECK(r.e_E == doctest::Approx(expected[i]).epsilon(kFourDecimals / expected[i]));
    // ω⁻ = 0, v⁻ ∥ n: e_E² = 1 − (1 − e²) m_n*/m [docs/theory.md §4]
    CHECK(r.e_E * r.e_E == doctest::Approx(1.0 - 0.75 * r.m_n_star).epsilon(kExactTol));
  }
}

TEST_CASE("impulsive: e_E table at four angles, a/b = 1.67 (docs/theory.md §10 rows 7, 8)") {
  const double angles[] = {15.0, 30.0, 45.0, 60.0};
  const double e_cn[] = {0.1, 0.3, 0.5, 0.7, 0.9};
  const double table[4][5] = {{.4444, .5122, .6261, .7659, .9198},
                              {.5987, .6405, .7169, .8182, .9364},
                              {.6023, .6436, .7192, .8196, .9369},
                              {.5090, .5647, .6623, .7863, .9262}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j) {
      const auto r = SolveImpulsiveWallImpact(Seed(angles[i], e_cn[j], 1.0, 0.6, 0.6));
      CHECK(r.e_E == doctest::Approx(table[i][j]).epsilon(kFourDecimals / table[i][j]));
    }
}

TEST_CASE("impulsive: undamped rigid limit (docs/theory.md §10 row 9) and input checks") {
  const auto r = SolveImpulsiveWallImpact(Seed(30.0, 1.0, 1.0, 0.6, 0.6));
  CHECK(r.velocity.z() == doctest::Approx(0.44428).epsilon(5e-6 / 0.44428));
  CHECK(std::abs(r.angular_velocity.y()) == doctest::Approx(2.7471).epsilon(5e-5 / 2.7471));
  CHECK(r.angular_velocity.y() < 0.0);  // r_x > 0 and J_n > 0: ω_y⁺ = −J_n r_x / I_yy
  CHECK(r.e_E == doctest::Approx(1.0).epsilon(kExactTol));
  auto bad = Seed(30.0, 1.2, 1.0, 0.6, 0.6);
  CHECK_THROWS_WITH_AS(SolveImpulsiveWallImpact(bad), doctest::Contains("e_cn"), InvalidParameter);
  auto leaving = Seed(30.0, 0.5, 1.0, 0.6, 0.6, +1.0);
  CHECK_THROWS_WITH_AS(SolveImpulsiveWallImpact(leaving), doctest::Contains("v_cn"), InvalidParameter);
}
