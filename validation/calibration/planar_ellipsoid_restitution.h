// Impulsive frictionless impact of an ellipsoid on a fixed wall, PLANAR special case (rotation θ about y,
// wall normal n = e_z, ω⁻ = 0, v⁻ ∥ n) [docs/theory.md §2.1 "Schur-complement form", §4 "Impulsive frictionless
// impact"; Seed000 eqs. (13), (14), (43)].
//
//   Q = R_y(θ) diag(a⁻², b⁻², c⁻²) R_y(θ)ᵀ                       [m⁻²]
//   h = (Q33 − Q13²/Q11)^(−1/2)          support distance at first contact (seed 000's ρ in eq. 13) [m]
//   r_x = Q13 h / Q11                    lever arm of the first-contact point along x [m]
//   m_n* = (1/m + r_x²/I_yy)^(−1)        projected normal mass [kg]
//   e_E² = 1 − (1 − e_cn²) m_n*/m        total kinetic-energy restitution [Seed000 eq. 43; docs/theory.md §4]
//
// Check value (docs/theory.md §10 row 1): (a, b, c) = (1, 0.6, 0.6), m = 1, I_yy = m(a²+c²)/5, θ = 30°
// → r_x = 0.38431, h = 0.72111, m_n* = 0.6481 m.
//
// The geometry comes from lib/geometry/ellipsoid_plane_contact.h and the normal mass from
// lib/dynamics/contact_mass.h; e_E is templated so that Ceres Jets flow through it (AutoDiffCostFunction).
#pragma once

#include <cmath>

#include <Eigen/Core>

#include "core/checks.h"
#include "dynamics/contact_mass.h"
#include "geometry/ellipsoid_plane_contact.h"

namespace impactlab::calibration {

/// Ellipsoid semi-axes a (x), b (y), c (z) [m], mass m [kg], I_yy [kg m²] (rotation axis y).
struct PlanarEllipsoid {
  double a = 1.0, b = 0.6, c = 0.6;
  double mass = 1.0;
  double inertia_yy = 0.0;  ///< 0: solid ellipsoid m(a² + c²)/5

  void Validate() const {
    RequirePositive("a", a);
    RequirePositive("b", b);
    RequirePositive("c", c);
    RequirePositive("mass", mass);
    RequireNonNegative("I_yy", inertia_yy);
  }
  double Iyy() const { return inertia_yy > 0.0 ? inertia_yy : mass * (a * a + c * c) / 5.0; }
};

struct PlanarContactGeometry {
  double h = 0.0;           ///< support distance [m]
  double lever_x = 0.0;     ///< r_x [m] (sign: Q13 convention above)
  double normal_mass = 0.0; ///< m_n* [kg]
};

/// Geometry and projected normal mass at first contact for a rotation θ [rad] about y, from the shared
/// ellipsoid–plane geometry (lib/geometry) and contact mass (lib/dynamics, Seed000 eqs. 10, 12).
inline PlanarContactGeometry FirstContactGeometry(const PlanarEllipsoid& e, double theta) {
  const EllipsoidShape shape{Eigen::Vector3d(e.a, e.b, e.c)};
  const Eigen::Matrix3d rotation = AxisAngleRotation(Eigen::Vector3d::UnitY(), theta);
  const PlaneWall wall;  // z = 0, n = e_z
  const double h = EvaluateEllipsoidPlane(shape, Eigen::Vector3d::Zero(), rotation, wall).h;
  const Eigen::Vector3d centre(0.0, 0.0, h);  // first touch: d = h
  const EllipsoidPlaneGeometry g = EvaluateEllipsoidPlane(shape, centre, rotation, wall);
  ContactBody body;
  body.mass = e.mass;
  // Only I_yy enters for a lever in the x–z plane and n = e_z (rotation about y keeps the y axis).
  body.inertia = Eigen::Vector3d(e.Iyy(), e.Iyy(), e.Iyy()).asDiagonal();
  body.lever = g.section_centroid - centre;
  PlanarContactGeometry out;
  out.h = g.h;
  out.lever_x = body.lever.x();
  out.normal_mass = ProjectedNormalMass(InverseEffectiveMassBodyWall(body), wall.normal);
  return out;
}

/// e_E(e_cn) for a given mass ratio m_n*/m ∈ (0, 1]; T = double or ceres::Jet.
template <typename T>
T EnergyRestitution(const T& e_cn, double normal_mass_ratio) {
  using std::sqrt;
  return sqrt(T(1.0) - (T(1.0) - e_cn * e_cn) * normal_mass_ratio);
}

}  // namespace impactlab::calibration
