// RigidRotationSystem: the optional extension of MechanicalSystem that the rotation schemes for a single rigid
// body need (integrators/lie_poisson_midpoint.h), as ConstantMassSystem is for the midpoint family.
//
//   q = unit quaternion (w, x, y, z) [4]   body → world rotation R(q)
//   v = Ω [3]                              body-frame angular velocity [rad/s]
//   q̇ = ½ q ⊗ (0, Ω),   I Ω̇ = (I Ω) × Ω + τ_body,   I = diag(I₁, I₂, I₃) principal moments [kg·m²]
//
// A model that is a RigidRotationSystem promises that its Acceleration is Euler's free equation (τ_body = 0) and
// that it has no contacts, potential or damping (docs/rotation.md §3). A body that also translates and carries a
// contact potential and dampers (ellipsoid_wall_3d) is a RigidBodySystem instead (system/rigid_body_system.h).
#pragma once

#include <Eigen/Core>

#include "system/mechanical_system.h"

namespace impactlab {

class RigidRotationSystem : public MechanicalSystem {
 public:
  /// Principal moments (I₁, I₂, I₃) [kg·m²], all > 0, in the body frame the quaternion maps to the world.
  virtual Eigen::Vector3d PrincipalMoments() const = 0;
};

}  // namespace impactlab
