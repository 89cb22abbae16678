// Contact-centric dynamics [Seed000 eqs. (10)–(15); docs/theory.md §4]: M_eff⁻¹ against the planar Delassus
// closed form, the seed's m_n* = 0.648 m (0.6481 [V]) and κ = 0.4807 [V], spheres (κ = 0, m_n* = m_red).
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <numbers>

#include "dynamics/contact_mass.h"
#include "geometry/ellipsoid_plane_contact.h"

using namespace impactlab;

namespace {
constexpr double kExactTol = 1e-13;  // a few flops of 3×3 algebra
// docs/theory.md §10 row 1 / §4 give 4 significant digits: half a unit of the 4th digit.
constexpr double kFourDigits = 5e-5;

struct SeedEllipsoid {
  ContactBody body;
  double h = 0.0;
};

SeedEllipsoid SeedCase(double theta_deg, double a = 1.0, double b = 0.6, double c = 0.6) {
  const double theta = theta_deg * std::numbers::pi / 180.0;
  const Eigen::Matrix3d rot = AxisAngleRotation(Eigen::Vector3d::UnitY(), theta);
  EllipsoidShape s{Eigen::Vector3d(a, b, c)};
  const auto g = EvaluateEllipsoidPlane(s, Eigen::Vector3d::Zero(), rot, PlaneWall{});
  const Eigen::Vector3d body_inertia = Eigen::Vector3d(b * b + c * c, a * a + c * c, a * a + b * b) / 5.0;
  SeedEllipsoid e;
  e.body = ContactBody{1.0, rot * body_inertia.asDiagonal() * rot.transpose(), g.support_point};
  e.h = g.h;
  return e;
}
}  // namespace

TEST_CASE("contact_mass: Seed000 eq. 14 m_n* = 0.648 m and kappa = 0.4807 at theta = 30 deg, a/b = 1.67") {
  const auto e = SeedCase(30.0);
  const Eigen::Matrix3d w = InverseEffectiveMassBodyWall(e.body);
  const double m_n = ProjectedNormalMass(w, Eigen::Vector3d::UnitZ());
  CHECK(m_n == doctest::Approx(0.6481).epsilon(kFourDigits / 0.6481));
  CHECK(std::round(m_n * 1000) / 1000 == doctest::Approx(0.648));
  // eq. 14 directly: (1/m + r_x²/I_yy)⁻¹ with I_yy = m(a² + c²)/5
  const double r_x = e.body.lever.x();
  CHECK(m_n == doctest::Approx(1.0 / (1.0 + r_x * r_x / 0.272)).epsilon(kExactTol));
  const double kappa = CouplingIndex(w, Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX());
  CHECK(kappa == doctest::Approx(0.4807).epsilon(kFourDigits / 0.4807));
  // "≈ 35 % below the reduced mass"
  CHECK(1.0 - m_n == doctest::Approx(0.35).epsilon(0.02 / 0.35));
}

TEST_CASE("contact_mass: planar Delassus closed form, symmetry and positive definiteness") {
  for (double theta : {0.0, 15.0, 45.0, 60.0, 80.0}) {
    const auto e = SeedCase(theta, 1.2, 0.5, 0.7);
    const Eigen::Matrix3d w = InverseEffectiveMassBodyWall(e.body);
    const double I = e.body.inertia(1, 1), rt = e.body.lever.x(), rn = e.body.lever.z();
    CHECK(w(0, 0) == doctest::Approx(1.0 + rn * rn / I).epsilon(kExactTol));
    CHECK(w(2, 2) == doctest::Approx(1.0 + rt * rt / I).epsilon(kExactTol));
    CHECK(w(0, 2) == doctest::Approx(-rt * rn / I).epsilon(1e-12).scale(1.0));
    CHECK((w - w.transpose()).norm() < kExactTol);
    CHECK(Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(w).eigenvalues().minCoeff() > 0.0);
    const double kappa = CouplingIndex(w, Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX());
    CHECK(kappa == doctest::Approx(std::abs(rt * rn) / std::sqrt((I + rn * rn) * (I + rt * rt))).epsilon(1e-12).scale(1.0));
  }
  // aligned (θ = 0): no coupling, m_n* = m
  const auto e0 = SeedCase(0.0);
  const Eigen::Matrix3d w0 = InverseEffectiveMassBodyWall(e0.body);
  CHECK(CouplingIndex(w0, Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX()) < kExactTol);
  CHECK(ProjectedNormalMass(w0, Eigen::Vector3d::UnitZ()) == doctest::Approx(1.0).epsilon(kExactTol));
}

TEST_CASE("contact_mass: two spheres give the reduced mass and no coupling") {
  const double m1 = 2.0, m2 = 3.0, r1 = 0.1, r2 = 0.2;
  const Eigen::Vector3d n = Eigen::Vector3d(1.0, 2.0, -0.5).normalized();
  ContactBody a{m1, 0.4 * m1 * r1 * r1 * Eigen::Matrix3d::Identity(), r1 * n};
  ContactBody b{m2, 0.4 * m2 * r2 * r2 * Eigen::Matrix3d::Identity(), -r2 * n};
  const Eigen::Matrix3d w = InverseEffectiveMassTwoBodies(a, b);
  CHECK(ProjectedNormalMass(w, n) == doctest::Approx(m1 * m2 / (m1 + m2)).epsilon(kExactTol));
  CHECK(CouplingIndex(w, n, n.unitOrthogonal()) < kExactTol);
  // eq. 15
  CHECK(CriticalContactFrequency(100.0, 4.0) == doctest::Approx(5.0).epsilon(kExactTol));
  // [r]× v = r × v
  const Eigen::Vector3d r(0.3, -1.0, 2.0), v(-0.5, 0.7, 0.1);
  CHECK((CrossMatrix(r) * v - r.cross(v)).norm() < kExactTol);
}
