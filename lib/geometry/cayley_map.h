// CayleyMap: the Cayley map so(3) → SO(3) and its body-frame (right-trivialised) derivative, as the rotation
// scheme with contact uses them (integrators/rigid_body_contact_step.h; docs/rotation.md §6).
//
//   cay(θ̂) = (1 − θ̂/2)⁻¹ (1 + θ̂/2)                  rotation by 2 atan(|θ|/2) about θ/|θ|
//          ⇔ unit quaternion p(θ) = (1, θ/2)/√(1 + |θ|²/4)
//   cay(θ)ᵀ ∂cay(θ)/∂θ · δ = (dcay(θ) δ)^,   dcay(θ) = (1 − θ̂/2)/(1 + |θ|²/4)
//
// Derivation of dcay (docs/rotation.md §6): with A = θ̂, d cay = (1 − A/2)⁻¹ dA (1 − A/2)⁻¹, so
// cay⁻¹ d cay = M dA Mᵀ with M = (1 + A/2)⁻¹; M x̂ Mᵀ = det(M) (M⁻ᵀ x)^, det(1 + A/2) = 1 + |θ|²/4 and
// M⁻ᵀ = 1 − A/2. [The Cayley map as a coordinate map on a Lie group and its trivialised derivative: Iserles,
// Munthe-Kaas, Nørsett & Zanna 2000, Acta Numerica 9 (iserles2000); the derivation above is written out in
// docs/rotation.md §6.] Tested against central finite differences (tests/geometry/cayley_map_test.cpp).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace impactlab {

inline Eigen::Matrix3d SkewMatrix(const Eigen::Vector3d& x) {
  Eigen::Matrix3d m;
  m << 0.0, -x.z(), x.y(), x.z(), 0.0, -x.x(), -x.y(), x.x(), 0.0;
  return m;
}

/// p(θ) = (1, θ/2)/√(1 + |θ|²/4): the unit quaternion of cay(θ̂).
inline Eigen::Quaterniond CayleyQuaternion(const Eigen::Vector3d& theta) {
  const Eigen::Vector3d a = 0.5 * theta;
  const double norm = std::sqrt(1.0 + a.squaredNorm());
  return Eigen::Quaterniond(1.0 / norm, a.x() / norm, a.y() / norm, a.z() / norm);
}

/// θ with p(θ) = ±p: the Cayley coordinate of the rotation of unit quaternion p = (w, v), θ = 2 v / w (the sign of p
/// chosen with w > 0; rotations by less than π). Used for the rotation between two configurations
/// (models/ellipsoid_wall_impact_3d.h, the slip increment of the explicit schemes).
inline Eigen::Vector3d CayleyCoordinate(const Eigen::Quaterniond& p) {
  const double w = p.w() >= 0.0 ? p.w() : -p.w();
  const Eigen::Vector3d v = p.w() >= 0.0 ? Eigen::Vector3d(p.vec()) : Eigen::Vector3d(-p.vec());
  return (2.0 / w) * v;
}

/// cay(θ̂) = (1 − θ̂/2)⁻¹ (1 + θ̂/2), evaluated in closed form: 1 + (θ̂ + θ̂²/2)/(1 + |θ|²/4).
inline Eigen::Matrix3d CayleyRotation(const Eigen::Vector3d& theta) {
  const Eigen::Matrix3d a = SkewMatrix(theta);
  return Eigen::Matrix3d::Identity() + (a + 0.5 * a * a) / (1.0 + 0.25 * theta.squaredNorm());
}

/// dcay(θ) = (1 − θ̂/2)/(1 + |θ|²/4): cay(θ)ᵀ ∂cay(θ)/∂θ · δ = (dcay(θ) δ)^ (body-frame increment).
inline Eigen::Matrix3d CayleyBodyDerivative(const Eigen::Vector3d& theta) {
  return (Eigen::Matrix3d::Identity() - 0.5 * SkewMatrix(theta)) / (1.0 + 0.25 * theta.squaredNorm());
}

}  // namespace impactlab
