// RigidBodySystem: the optional extension of MechanicalSystem that the rotation scheme needs for ONE rigid body
// that translates, rotates and touches something (integrators/rigid_body_contact_step.h; docs/rotation.md §6), as
// RigidRotationSystem is for the torque-free top and ConstantMassSystem for the midpoint family.
//
//   q = (x_G [3], unit quaternion (w, x, y, z) [4])   centre of mass, body → world rotation R(q)
//   v = (v_G [3], Ω [3])                              world velocity [m/s], body-frame angular velocity [rad/s]
//   m v̇_G = F_c(x_G, R) + F_d,    I Ω̇ = (I Ω) × Ω + τ_c(x_G, R) + τ_d,    I = diag(I₁, I₂, I₃)
//   F_c = −∂V/∂x_G,   τ_c = −∂V/∂φ   (body frame: R → R(1 + φ̂)),   V(x_G, R) the potential energy [J]
//   (F_d, τ_d) = the non-conservative force [N] and body torque [N·m] at (x_G, R, v_G, Ω)
//
// The potential V must be the model's PotentialEnergy and (F_c, τ_c) its exact gradient (the scheme's energy
// balance is exact only for the pair it is given); E = ½ m|v_G|² + ½ Ωᵀ I Ω + V. PotentialEnergy(state) must
// be ConservativeLoad(x_G, R(q/|q|)).potential with q/|q| as Eigen's Quaterniond::normalized() computes it: the
// scheme evaluates V at the end of a step from the stored quaternion read back that way, so that the ΔV of
// successive steps telescope to round-off (docs/rotation.md §6, "A round-off finding"). Integrators reach this by
// dynamic_cast and know nothing else of the model [docs/architecture.md, "The seams"].
#pragma once

#include <Eigen/Core>

#include "system/mechanical_system.h"

namespace impactlab {

/// Conservative load at one configuration: V and its (negative) gradient.
struct RigidBodyLoad {
  double potential = 0.0;                                  ///< V [J]
  Eigen::Vector3d force = Eigen::Vector3d::Zero();         ///< F_c = −∂V/∂x_G, world frame [N]
  Eigen::Vector3d torque_body = Eigen::Vector3d::Zero();   ///< τ_c = −∂V/∂φ, body frame [N·m]
};

/// Non-conservative load (dampers, friction) at one configuration and velocity.
struct RigidBodyDissipativeLoad {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();         ///< F_d, world frame [N]
  Eigen::Vector3d torque_body = Eigen::Vector3d::Zero();   ///< τ_d, body frame [N·m]
};

class RigidBodySystem : public MechanicalSystem {
 public:
  /// m [kg] > 0.
  virtual double Mass() const = 0;
  /// Principal moments (I₁, I₂, I₃) [kg·m²], all > 0.
  virtual Eigen::Vector3d PrincipalMoments() const = 0;
  /// V, F_c, τ_c at centre x_G [m] and rotation R (orthogonal, body → world).
  virtual RigidBodyLoad ConservativeLoad(const Eigen::Vector3d& centre, const Eigen::Matrix3d& rotation) const = 0;
  /// F_d, τ_d at (x_G, R) with world velocity v_G [m/s] and body angular velocity Ω [rad/s].
  virtual RigidBodyDissipativeLoad DissipativeLoad(const Eigen::Vector3d& centre, const Eigen::Matrix3d& rotation,
                                                   const Eigen::Vector3d& velocity,
                                                   const Eigen::Vector3d& omega_body) const = 0;
};

}  // namespace impactlab
