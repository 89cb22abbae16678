// ECC Model I [Seed000 eqs. (29)–(32); docs/theory.md §2.1 gradient theorem]: force K_n S_n n at the section
// centroid and its torque are minus the gradient of W = K_n V_c with respect to the centre position AND a
// rigid rotation of the body (central finite differences), for a generic 3D orientation and wall.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <numbers>

#include "contact/ecc_volume_law.h"
#include "core/errors.h"

using namespace impactlab;

namespace {
// Central differences, step 1e-6 (m or rad): truncation ~1e-12·W''', round-off ~1e-16·W/1e-6 ~ 1e-10·W:
// 1e-7 relative to the force scale.
constexpr double kFdStep = 1e-6;
constexpr double kFdTol = 1e-7;
}  // namespace

TEST_CASE("ecc_volume_law: force and torque are -grad W (position and orientation)") {
  const EllipsoidShape shape{Eigen::Vector3d(1.0, 0.6, 0.35)};
  const PlaneWall wall{Eigen::Vector3d(0.0, 0.0, 0.1), Eigen::Vector3d(0.3, -0.5, 0.8).normalized()};
  const EccVolumeLaw law(1.7e3);
  const Eigen::Matrix3d rot =
      AxisAngleRotation(Eigen::Vector3d(0.2, -0.7, 0.4), 0.9) * AxisAngleRotation(Eigen::Vector3d::UnitX(), -0.5);
  const double h = EvaluateEllipsoidPlane(shape, wall.point, rot, wall).h;
  for (double depth : {0.02, 0.3}) {
    const Eigen::Vector3d centre = wall.point + (h - depth) * wall.normal + Eigen::Vector3d(0.2, 0.1, 0.0);
    auto energy = [&](const Eigen::Vector3d& x, const Eigen::Matrix3d& r) {
      const auto g = EvaluateEllipsoidPlane(shape, x, r, wall);
      return law.Evaluate(shape, g, x, wall.normal).potential;
    };
    const auto g = EvaluateEllipsoidPlane(shape, centre, rot, wall);
    const auto resp = law.Evaluate(shape, g, centre, wall.normal);
    REQUIRE(resp.normal_force > 0.0);
    const double scale = resp.normal_force;
    for (int i = 0; i < 3; ++i) {
      const Eigen::Vector3d e = Eigen::Vector3d::Unit(i);
      const double dW_dx = (energy(centre + kFdStep * e, rot) - energy(centre - kFdStep * e, rot)) / (2 * kFdStep);
      CHECK(-dW_dx == doctest::Approx(resp.force[i]).epsilon(kFdTol).scale(scale));
      // rigid rotation about the centre by φ e_i: R → exp(φ[e_i]×) R
      const double dW_dphi = (energy(centre, AxisAngleRotation(e, kFdStep) * rot) -
                              energy(centre, AxisAngleRotation(e, -kFdStep) * rot)) / (2 * kFdStep);
      CHECK(-dW_dphi == doctest::Approx(resp.torque[i]).epsilon(kFdTol).scale(scale));
    }
    // the support point is NOT the right application point (docs/theory.md §2.1): its torque differs
    const Eigen::Vector3d wrong = (g.support_point - centre).cross(resp.force);
    CHECK((wrong - resp.torque).norm() > 1e-3 * scale);
  }
}

TEST_CASE("ecc_volume_law: k_eff regular form, finite at onset, zero response when separated") {
  const EllipsoidShape shape{Eigen::Vector3d(1.0, 0.6, 0.6)};
  const EccVolumeLaw law(1e3);
  const Eigen::Matrix3d rot = AxisAngleRotation(Eigen::Vector3d::UnitY(), std::numbers::pi / 6);
  const double h = EvaluateEllipsoidPlane(shape, Eigen::Vector3d::Zero(), rot, PlaneWall{}).h;
  const double rho_g = shape.semi_axes.prod() / (h * h);
  // tiny overlap: k_eff → 2π K_n ρ_G (no 0/0), docs/theory.md §12.2
  const Eigen::Vector3d c_touch(0.0, 0.0, h - 1e-14);
  const auto r0 = law.Evaluate(shape, EvaluateEllipsoidPlane(shape, c_touch, rot, PlaneWall{}), c_touch,
                               Eigen::Vector3d::UnitZ());
  CHECK(std::isfinite(r0.effective_stiffness));
  CHECK(r0.effective_stiffness == doctest::Approx(2 * std::numbers::pi * 1e3 * rho_g).epsilon(1e-12));
  const Eigen::Vector3d c_sep(0.0, 0.0, h + 0.01);
  const auto rs = law.Evaluate(shape, EvaluateEllipsoidPlane(shape, c_sep, rot, PlaneWall{}), c_sep,
                               Eigen::Vector3d::UnitZ());
  CHECK(rs.potential == 0.0);
  CHECK(rs.normal_force == 0.0);
  CHECK(rs.effective_stiffness == 0.0);
  CHECK_THROWS_WITH_AS(EccVolumeLaw(0.0), doctest::Contains("K_n"), InvalidParameter);
}
