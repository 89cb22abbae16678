// Ellipsoid–plane geometry [docs/theory.md §2.1] against closed forms (sphere cap, axis-aligned ellipsoid), the
// Schur-complement form, Seed000 eq. (13) and an independent nested Boost.Math quadrature of the cap volume
// and of the section area (chord lengths solved per line, no use of the closed forms).
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <cmath>
#include <numbers>

#include "core/errors.h"
#include "geometry/ellipsoid_plane_contact.h"

using namespace impactlab;

namespace {
constexpr double kPi = std::numbers::pi;
// Closed forms are evaluated with a handful of flops: agreement to a few ulps of the result.
constexpr double kClosedFormTol = 1e-12;
// Nested tanh-sinh / Gauss-Kronrod quadrature of a smooth (sqrt-endpoint) integrand reaches ~1e-12;
// 1e-9 relative leaves margin for the endpoint behaviour of the chord length.
constexpr double kQuadratureTol = 1e-9;

Eigen::Matrix3d GenericRotation() {
  return AxisAngleRotation(Eigen::Vector3d(0.2, -0.7, 0.4), 0.9) *
         AxisAngleRotation(Eigen::Vector3d(1.0, 0.3, 0.0), -0.5);
}

// Q in an orthonormal frame (e1, e2, n) built here independently of the library.
Eigen::Matrix3d QInWallFrame(const EllipsoidShape& s, const Eigen::Matrix3d& rot, const Eigen::Vector3d& n) {
  Eigen::Vector3d e1 = n.unitOrthogonal();
  Eigen::Vector3d e2 = n.cross(e1);
  Eigen::Matrix3d f;
  f << e1, e2, n;
  const Eigen::Matrix3d q = rot * s.semi_axes.cwiseAbs2().cwiseInverse().asDiagonal() * rot.transpose();
  return f.transpose() * q * f;
}

// Section area at height w (relative to the centre, along n) by quadrature of chord lengths in u2.
double SectionAreaByQuadrature(const Eigen::Matrix3d& q, double w) {
  // disc(u1) = B² − Q22 C with B = Q12 u1 + Q23 w, C = Q11 u1² + 2 Q13 u1 w + Q33 w² − 1: quadratic in u1.
  const double a2 = q(0, 1) * q(0, 1) - q(1, 1) * q(0, 0);
  const double a1 = 2 * q(0, 1) * q(1, 2) * w - 2 * q(1, 1) * q(0, 2) * w;
  const double a0 = q(1, 2) * q(1, 2) * w * w - q(1, 1) * (q(2, 2) * w * w - 1.0);
  const double disc = a1 * a1 - 4 * a2 * a0;
  if (disc <= 0.0) return 0.0;
  const double r1 = (-a1 + std::sqrt(disc)) / (2 * a2), r2 = (-a1 - std::sqrt(disc)) / (2 * a2);
  auto chord = [&](double u1) {
    const double v = a2 * u1 * u1 + a1 * u1 + a0;
    return v > 0.0 ? 2.0 * std::sqrt(v) / q(1, 1) : 0.0;
  };
  boost::math::quadrature::tanh_sinh<double> ts;
  return ts.integrate(chord, std::min(r1, r2), std::max(r1, r2));
}

double CapVolumeByQuadrature(const Eigen::Matrix3d& q, double h, double d) {
  auto area = [&](double w) { return SectionAreaByQuadrature(q, w); };
  return boost::math::quadrature::gauss_kronrod<double, 31>::integrate(area, -h, -d, 10, 1e-13);
}
}  // namespace

TEST_CASE("ellipsoid_plane: sphere cap closed forms") {
  const double R = 0.7, delta = 0.13;
  EllipsoidShape s{Eigen::Vector3d(R, R, R)};
  const Eigen::Vector3d centre(0.3, -0.2, R - delta);
  const auto g = EvaluateEllipsoidPlane(s, centre, GenericRotation(), PlaneWall{});
  CHECK(g.h == doctest::Approx(R).epsilon(kClosedFormTol));
  CHECK(g.delta == doctest::Approx(delta).epsilon(kClosedFormTol));
  CHECK(g.cap_volume == doctest::Approx(kPi * delta * delta * (3 * R - delta) / 3).epsilon(kClosedFormTol));
  CHECK(g.section_area == doctest::Approx(kPi * (2 * R * delta - delta * delta)).epsilon(kClosedFormTol));
  CHECK((g.section_centroid - Eigen::Vector3d(0.3, -0.2, 0.0)).norm() < kClosedFormTol);
  CHECK((g.support_point - Eigen::Vector3d(0.3, -0.2, -delta)).norm() < kClosedFormTol);
  CHECK(g.gaussian_radius == doctest::Approx(R).epsilon(kClosedFormTol));
  // k_eff → 2π R K_n at onset [Seed000 eq. 32]
  CHECK(EccEffectiveStiffness(5.0, R * R * R, R, 0.0) == doctest::Approx(2 * kPi * R * 5.0).epsilon(kClosedFormTol));
}

TEST_CASE("ellipsoid_plane: axis-aligned ellipsoid and separated / immersed limits") {
  const double a = 1.0, b = 0.6, c = 0.4, d = 0.25;
  EllipsoidShape s{Eigen::Vector3d(a, b, c)};
  const auto g = EvaluateEllipsoidPlane(s, Eigen::Vector3d(0, 0, d), Eigen::Matrix3d::Identity(), PlaneWall{});
  CHECK(g.h == doctest::Approx(c).epsilon(kClosedFormTol));
  CHECK(g.section_area == doctest::Approx(kPi * a * b * (1 - d * d / (c * c))).epsilon(kClosedFormTol));
  // cap of an axis-aligned ellipsoid: ∫_{-c}^{-d} π a b (1 − w²/c²) dw
  const double cap = kPi * a * b * ((c - d) - (c * c * c - d * d * d) / (3 * c * c));
  CHECK(g.cap_volume == doctest::Approx(cap).epsilon(kClosedFormTol));
  CHECK(g.gaussian_radius == doctest::Approx(a * b / c).epsilon(kClosedFormTol));
  const auto sep = EvaluateEllipsoidPlane(s, Eigen::Vector3d(0, 0, 0.5), Eigen::Matrix3d::Identity(), PlaneWall{});
  CHECK(!sep.in_contact());
  CHECK(sep.cap_volume == 0.0);
  CHECK(sep.section_area == 0.0);
  const auto full = EvaluateEllipsoidPlane(s, Eigen::Vector3d(0, 0, -0.5), Eigen::Matrix3d::Identity(), PlaneWall{});
  CHECK(full.cap_volume == doctest::Approx(4.0 / 3.0 * kPi * a * b * c).epsilon(kClosedFormTol));
  CHECK(full.section_area == 0.0);
}

TEST_CASE("ellipsoid_plane: Schur-complement form equals the direct form, any orientation and wall") {
  EllipsoidShape s{Eigen::Vector3d(1.0, 0.6, 0.35)};
  PlaneWall wall{Eigen::Vector3d(0.1, 0.2, -0.3), Eigen::Vector3d(0.3, -0.5, 0.8).normalized()};
  const Eigen::Matrix3d rot = GenericRotation();
  for (double depth : {0.01, 0.2, 0.5}) {
    const auto g0 = EvaluateEllipsoidPlane(s, wall.point, rot, wall);  // centre on the wall: d = 0
    const Eigen::Vector3d centre = wall.point + (g0.h - depth) * wall.normal + Eigen::Vector3d(0.05, 0.0, 0.0).cross(wall.normal);
    const auto g = EvaluateEllipsoidPlane(s, centre, rot, wall);
    const auto schur = EllipsoidPlaneSchurSection(s, centre, rot, wall);
    CHECK(g.delta == doctest::Approx(depth).epsilon(1e-12));
    CHECK(schur.schur == doctest::Approx(1.0 / (g.h * g.h)).epsilon(kClosedFormTol));
    CHECK(schur.area == doctest::Approx(g.section_area).epsilon(kClosedFormTol));
    CHECK((schur.centroid_offset - (g.section_centroid - centre)).norm() < 1e-12);
    // the section centroid lies in the wall plane; the support point is the deepest point of the body
    CHECK(std::abs(wall.normal.dot(g.section_centroid - wall.point)) < 1e-12);
    CHECK(wall.normal.dot(g.support_point - wall.point) == doctest::Approx(-depth).epsilon(1e-12));
  }
}

TEST_CASE("ellipsoid_plane: cap volume and section area vs nested quadrature") {
  EllipsoidShape s{Eigen::Vector3d(1.0, 0.6, 0.35)};
  const Eigen::Vector3d n = Eigen::Vector3d(0.3, -0.5, 0.8).normalized();
  PlaneWall wall{Eigen::Vector3d::Zero(), n};
  const Eigen::Matrix3d rot = GenericRotation();
  const Eigen::Matrix3d q = QInWallFrame(s, rot, n);
  for (double t_rel : {0.05, 0.6, 1.3}) {
    const auto g0 = EvaluateEllipsoidPlane(s, Eigen::Vector3d::Zero(), rot, wall);
    const double d = g0.h * (1.0 - t_rel);
    const auto g = EvaluateEllipsoidPlane(s, d * n, rot, wall);
    CHECK(g.cap_volume == doctest::Approx(CapVolumeByQuadrature(q, g.h, d)).epsilon(kQuadratureTol));
    CHECK(g.section_area == doctest::Approx(SectionAreaByQuadrature(q, -d)).epsilon(kQuadratureTol));
    // S_n = dV_c/dδ along a pure translation (Seed000 eq. 30), central differences (step 1e-6 h → ~1e-11)
    const double step = 1e-6 * g.h;
    const double dv = (EvaluateEllipsoidPlane(s, (d - step) * n, rot, wall).cap_volume -
                       EvaluateEllipsoidPlane(s, (d + step) * n, rot, wall).cap_volume) / (2 * step);
    CHECK(g.section_area == doctest::Approx(dv).epsilon(1e-8));
    // regular k_eff equals K_n S_n²/(2 V_c) away from onset
    CHECK(EccEffectiveStiffness(2.0, s.semi_axes.prod(), g.h, g.t) ==
          doctest::Approx(2.0 * g.section_area * g.section_area / (2 * g.cap_volume)).epsilon(1e-12));
  }
}

TEST_CASE("ellipsoid_plane: Seed000 eq. 13 lever and h at theta = 30 deg, a/b = 1.67") {
  EllipsoidShape s{Eigen::Vector3d(1.0, 0.6, 0.6)};
  const double theta = 30.0 * kPi / 180.0;
  const Eigen::Matrix3d rot = AxisAngleRotation(Eigen::Vector3d::UnitY(), theta);
  const auto g = EvaluateEllipsoidPlane(s, Eigen::Vector3d::Zero(), rot, PlaneWall{});
  const Eigen::Matrix3d q = rot * s.semi_axes.cwiseAbs2().cwiseInverse().asDiagonal() * rot.transpose();
  const double h_schur = 1.0 / std::sqrt(q(2, 2) - q(0, 2) * q(0, 2) / q(0, 0));
  CHECK(g.h == doctest::Approx(h_schur).epsilon(kClosedFormTol));
  CHECK(g.h == doctest::Approx(0.72111).epsilon(1e-5));  // docs/theory.md §2.1 [V], 5 digits
  const double r_x = g.support_point.x();
  CHECK(r_x == doctest::Approx(q(0, 2) * g.h / q(0, 0)).epsilon(kClosedFormTol));
  CHECK(r_x == doctest::Approx(0.38431).epsilon(1e-5));
}

TEST_CASE("ellipsoid_plane: bad semi-axes are rejected naming the key") {
  EllipsoidShape s{Eigen::Vector3d(1.0, -0.6, 0.6)};
  CHECK_THROWS_WITH_AS(s.Validate(), doctest::Contains("semi_axes"), InvalidParameter);
  s.semi_axes = Eigen::Vector3d(1.0, std::nan(""), 0.6);
  CHECK_THROWS_AS(s.Validate(), InvalidParameter);
}
