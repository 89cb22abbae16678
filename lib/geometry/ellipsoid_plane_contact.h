// EllipsoidPlaneContact: exact intersection geometry of a rigid ellipsoid with a half-space (a flat wall),
// for any orientation [docs/theory.md §2.1; Seed000 eqs. (13), (29)–(32) and its Appendix (Schur complement)].
//
// Ellipsoid  (x − x_G)ᵀ Q (x − x_G) ≤ 1,  Q = R diag(a⁻², b⁻², c⁻²) Rᵀ,  Σ = Q⁻¹ = R diag(a², b², c²) Rᵀ
// Wall       n·(x − x_w) ≤ 0, unit normal n pointing OUT of the wall into the particle side.
//
//   d = n·(x_G − x_w)          height of the centre above the wall [m]
//   h = √(nᵀ Σ n)              support function: half-width of the ellipsoid along n [m]
//   δ = h − d                  overlap (penetration depth) [m], δ > 0 in contact;  t = δ/h ∈ [0, 2]
//   V_c = π abc/3 · t²(3 − t)  cap volume below the wall [m³]
//   S_n = dV_c/dδ = π abc/h · t(2 − t)       area of the flat section in the wall plane [m²]
//   x̄  = x_G − (d/h²) Σ n      centroid of that section (and of the unit-ball-cap image) [m]
//   x_s = x_G − Σ n / h        support (deepest) point; x̄ = x_s at δ = 0
//   ρ_G = abc/h²               Gaussian radius of curvature at the support point [m]
//
// Schur-complement form (wall frame, n = e₃): Q = [[Q_tt, q], [qᵀ, Q_nn]], s = Q_nn − qᵀQ_tt⁻¹q = 1/h²;
// the section at height −d is the ellipse (u − u₀)ᵀ Q_tt (u − u₀) ≤ 1 − s d², u₀ = Q_tt⁻¹ q d, with area
// π(1 − s d²)/√det Q_tt = S_n; the planar lever of Seed000 eq. (13) is r_x = Q₁₃ d / Q₁₁.
//
// Outside contact (δ ≤ 0) V_c = S_n = 0; at full immersion (t ≥ 2) V_c is the whole volume and S_n = 0.
#pragma once

#include <Eigen/Core>

namespace impactlab {

struct EllipsoidShape {
  Eigen::Vector3d semi_axes{1.0, 1.0, 1.0};  ///< (a, b, c) [m] > 0, along the body axes
  void Validate() const;                      ///< throws InvalidParameter("semi_axes", ...)
};

struct PlaneWall {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();    ///< x_w, any point of the wall plane [m]
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  ///< n, unit, into the particle side
};

struct EllipsoidPlaneGeometry {
  double d = 0.0;        ///< centre height above the wall [m]
  double h = 0.0;        ///< √(nᵀΣn) [m]
  double delta = 0.0;    ///< overlap δ = h − d [m] (negative when separated)
  double t = 0.0;        ///< δ/h clamped to [0, 2]
  double cap_volume = 0.0;   ///< V_c [m³]
  double section_area = 0.0; ///< S_n [m²]
  Eigen::Vector3d section_centroid = Eigen::Vector3d::Zero();  ///< x̄ [m]
  Eigen::Vector3d support_point = Eigen::Vector3d::Zero();     ///< x_s [m]
  double gaussian_radius = 0.0;  ///< ρ_G = abc/h² [m]
  Eigen::Matrix3d sigma = Eigen::Matrix3d::Identity();  ///< Σ (world frame) [m²]
  bool in_contact() const { return delta > 0.0; }
};

/// Exact geometry for centre x_G, rotation R (body → world) and the given wall.
EllipsoidPlaneGeometry EvaluateEllipsoidPlane(const EllipsoidShape& shape, const Eigen::Vector3d& centre,
                                              const Eigen::Matrix3d& rotation, const PlaneWall& wall);

/// Section of the ellipsoid by the wall plane via the Schur complement of Q in the wall frame.
struct SchurSection {
  double schur = 0.0;          ///< s = Q_nn − qᵀQ_tt⁻¹q = 1/h² [m⁻²]
  double area = 0.0;           ///< π(1 − s d²)/√det Q_tt (0 if the plane misses the body) [m²]
  Eigen::Vector3d centroid_offset = Eigen::Vector3d::Zero();  ///< x̄ − x_G in world coordinates [m]
};
SchurSection EllipsoidPlaneSchurSection(const EllipsoidShape& shape, const Eigen::Vector3d& centre,
                                        const Eigen::Matrix3d& rotation, const PlaneWall& wall);

/// Regular (0/0-free) form of Feng's k_eff = K_n S_n²/(2V_c) [Seed000 eq. (32); docs/theory.md §12.2]:
///   k_eff = 3π K_n abc/(2h²) · (2 − t)²/(3 − t),  → 2π K_n ρ_G at t = 0.  Valid for t ∈ [0, 2].
double EccEffectiveStiffness(double K_n, double abc, double h, double t);

/// Rotation by `angle` [rad] about the unit axis (right-handed).
Eigen::Matrix3d AxisAngleRotation(const Eigen::Vector3d& axis, double angle);

}  // namespace impactlab
