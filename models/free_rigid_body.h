// FreeRigidBody: a torque-free rigid body in 3-D (no contact, no gravity), the exact test of the rotation schemes
// (issue 15; docs/rotation.md). Only the rotation is modelled; the centre of mass moves uniformly and is left out.
//
//   q = unit quaternion (w, x, y, z), body → world rotation R(q)     v = Ω (body frame) [rad/s]
//   q̇ = ½ q ⊗ (0, Ω)                                               (PositionRate)
//   I Ω̇ = (I Ω) × Ω,  I = diag(I₁, I₂, I₃)                          (Euler's equations, Landau & Lifshitz,
//                                                                     Mechanics §36, eq. 36.5)
//   E = ½ Ωᵀ I Ω (kinetic only),  L = R I Ω (spatial angular momentum, constant)
//
// Valid input: I₁, I₂, I₃ > 0 and every I_i ≤ I_j + I_k (the triangle inequality of a real mass distribution;
// equality is a flat lamina); Ω₀ finite; the quaternion non-zero and finite (it is normalized on input).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "system/rigid_rotation_system.h"

namespace impactlab {

struct FreeRigidBodyParameters {
  Eigen::Vector3d inertia{1.0, 2.0, 3.0};          ///< principal moments (I₁, I₂, I₃) [kg·m²]
  Eigen::Vector3d angular_velocity{0.1, 1.0, 0.0};  ///< Ω₀ in the body frame [rad/s]
  Eigen::Vector4d quaternion{1.0, 0.0, 0.0, 0.0};  ///< initial orientation (w, x, y, z), any non-zero length
  /// Throws InvalidParameter naming the parameter, its value and the valid range.
  void Validate() const;
};

class FreeRigidBody final : public RigidRotationSystem {
 public:
  explicit FreeRigidBody(FreeRigidBodyParameters parameters);

  std::string name() const override { return "free_rigid_body"; }
  MechanicalState InitialState() const override;
  void PositionRate(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> q_dot) const override;
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override;
  bool velocity_dependent_forces() const override { return true; }  // the gyroscopic term
  void NormalizeCoordinates(MechanicalState& s) const override;
  /// No history and no dissipation; q̇ and the normalisation are its own (system/default_hooks.h).
  DefaultHooks default_hooks() const override { return {false, false, true, true}; }
  double KineticEnergy(const MechanicalState& s) const override;
  double PotentialEnergy(const MechanicalState&) const override { return 0.0; }
  std::optional<Eigen::Vector3d> AngularMomentum(const MechanicalState& s) const override;
  std::vector<std::string> ObservableNames() const override;
  void Observe(const MechanicalState& s, std::vector<double>& values) const override;

  Eigen::Vector3d PrincipalMoments() const override { return p_.inertia; }
  const FreeRigidBodyParameters& parameters() const { return p_; }

 private:
  FreeRigidBodyParameters p_;
};

}  // namespace impactlab
