#include "geometry/ellipsoid_plane_contact.h"

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/checks.h"
#include "core/errors.h"

namespace impactlab {

void EllipsoidShape::Validate() const {
  for (int i = 0; i < 3; ++i)
    if (!(std::isfinite(semi_axes[i]) && semi_axes[i] > 0.0))
      throw InvalidParameter("semi_axes", semi_axes[i], "three finite semi-axes > 0 [m]");
}

Eigen::Matrix3d AxisAngleRotation(const Eigen::Vector3d& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

double EccEffectiveStiffness(double K_n, double abc, double h, double t) {
  return 3.0 * std::numbers::pi * K_n * abc / (2.0 * h * h) * (2.0 - t) * (2.0 - t) / (3.0 - t);
}

EllipsoidPlaneGeometry EvaluateEllipsoidPlane(const EllipsoidShape& shape, const Eigen::Vector3d& centre,
                                              const Eigen::Matrix3d& rotation, const PlaneWall& wall) {
  const Eigen::Vector3d& ax = shape.semi_axes;
  const double abc = ax.prod();
  EllipsoidPlaneGeometry g;
  g.sigma = rotation * ax.cwiseAbs2().asDiagonal() * rotation.transpose();
  const Eigen::Vector3d& n = wall.normal;
  const Eigen::Vector3d sigma_n = g.sigma * n;
  g.h = std::sqrt(n.dot(sigma_n));
  g.d = n.dot(centre - wall.point);
  g.delta = g.h - g.d;
  g.t = std::clamp(g.delta / g.h, 0.0, 2.0);
  const double t = g.t;
  g.cap_volume = std::numbers::pi * abc / 3.0 * t * t * (3.0 - t);
  g.section_area = std::numbers::pi * abc / g.h * t * (2.0 - t);
  g.section_centroid = centre - (g.d / (g.h * g.h)) * sigma_n;
  g.support_point = centre - sigma_n / g.h;
  g.gaussian_radius = abc / (g.h * g.h);
  return g;
}

SchurSection EllipsoidPlaneSchurSection(const EllipsoidShape& shape, const Eigen::Vector3d& centre,
                                        const Eigen::Matrix3d& rotation, const PlaneWall& wall) {
  const Eigen::Vector3d n = wall.normal.normalized();
  // Orthonormal wall frame (t1, t2, n).
  const Eigen::Vector3d helper = std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d t1 = (helper - helper.dot(n) * n).normalized();
  const Eigen::Vector3d t2 = n.cross(t1);
  Eigen::Matrix3d frame;
  frame << t1, t2, n;  // columns: wall-frame → world
  const Eigen::Vector3d inv_sq = shape.semi_axes.cwiseAbs2().cwiseInverse();
  const Eigen::Matrix3d q_world = rotation * inv_sq.asDiagonal() * rotation.transpose();
  const Eigen::Matrix3d q = frame.transpose() * q_world * frame;
  const Eigen::Matrix2d q_tt = q.topLeftCorner<2, 2>();
  const Eigen::Vector2d q_tn = q.topRightCorner<2, 1>();
  const Eigen::Vector2d q_tt_inv_q = q_tt.ldlt().solve(q_tn);
  SchurSection out;
  out.schur = q(2, 2) - q_tn.dot(q_tt_inv_q);
  const double d = n.dot(centre - wall.point);
  const double level = 1.0 - out.schur * d * d;
  out.area = level > 0.0 ? std::numbers::pi * level / std::sqrt(q_tt.determinant()) : 0.0;
  const Eigen::Vector2d u0 = q_tt_inv_q * d;
  out.centroid_offset = frame * Eigen::Vector3d(u0.x(), u0.y(), -d);
  return out;
}

}  // namespace impactlab
