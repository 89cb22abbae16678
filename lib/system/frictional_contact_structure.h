// FrictionalContactStructure: the optional declaration of a model's contacts as rigid frictional contacts — a gap
// function and the Jacobian of the contact-point kinematics — which nonsmooth schemes (Moreau–Jean with the
// Newton–Coulomb impact–friction law, integrators/siconos/) need [Moreau 1988, "Unilateral contact and dry
// friction in finite freedom dynamics"; Jean 1999, CMAME 177; Acary & Brogliato 2008, "Numerical Methods for
// Nonsmooth Dynamical Systems", §3.2 and §10.1].
//
// The model's generalized velocity v must be q̇ (q̇ = v) and its mass matrix constant and diagonal:
//   M v̇ = f + Σ_α H_α(q)ᵀ r_α,     M = diag(m),  f constant (ConstantForce; zero by default)
// Contact α is declared at any q by
//   g_α(q)   the gap [m], > 0 separated (= −δ_α of system/mechanical_system.h's sign convention)
//   H_α(q)   3 × n: rows (n, t₁, t₂) map v to the local relative velocity u_α = (u_n, u_t1, u_t2) of the
//            contact points (body B's point relative to body A's), with ġ_α = u_n, (t₁, t₂) an orthonormal basis
//            of the tangent plane, lever arms included (e.g. a sphere of radius R on a wall with normal n:
//            u_t = P_t(v + ω × (−R n)), so the tangential rows carry −R (n × t)ᵀ on ω)
//   r_α = (r_n, r_t1, r_t2) the contact force (impulse) on body B in that frame, in the Coulomb cone
//            ‖r_t‖ ≤ μ_α r_n (FrictionCoefficient).
// For a sphere the rotation can be carried as three linear dofs θ with θ̇ = ω because its inertia is isotropic
// (I ω̇ = τ, no gyroscopic term; models/sphere_wall_impact.h): M = diag(m, m, m, I, I, I) per sphere.
// NormalJacobianRate gives Ḣ_n(q, v) (the time derivative of the normal row), which the acceleration-level problem
// of an event-driven scheme needs (g̈ = H_n v̇ + Ḣ_n v).
//
// Models with this structure carry no other forces but f: the compliant laws (normal, damping, tangential) are what
// the rigid contacts replace, and CalibratedRestitution gives the e those laws were calibrated to, which Newton's
// impact law takes when the scenario names no e, so both families describe the same physics. A model that can declare
// its contacts only up to a size says so in CheckFrictionalDeclaration (an InvalidParameter naming the parameter,
// its value and the valid range). This header is C++17 (the Siconos adapter includes it).
#pragma once

#include <Eigen/Core>
#include <optional>

namespace impactlab {

class FrictionalContactStructure {
 public:
  virtual ~FrictionalContactStructure() = default;

  /// Number of declared frictional contacts.
  virtual int num_frictional_contacts() const = 0;
  /// diag(M) [kg, kg m²], size n = q.size().
  virtual Eigen::VectorXd FrictionalMassDiagonal() const = 0;
  /// f [N, N m] (constant); zero by default.
  virtual Eigen::VectorXd ConstantForce() const { return Eigen::VectorXd::Zero(FrictionalMassDiagonal().size()); }
  /// μ_α ≥ 0 of contact α (0: frictionless).
  virtual double FrictionCoefficient(int contact) const = 0;
  /// g_α(q) [m] and H_α(q) (3 × n, rows n, t₁, t₂).
  virtual void DeclareFrictionalContact(int contact, const Eigen::VectorXd& q, double& gap,
                                        Eigen::MatrixXd& jacobian) const = 0;
  /// Ḣ_n(q, v) (1 × n as a vector of size n): d/dt of the normal row of H_α along v.
  virtual Eigen::VectorXd NormalJacobianRate(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& v) const = 0;
  /// Throws InvalidParameter (parameter, value, valid range) when the declaration cannot be used as it is, e.g. a
  /// model that declares its contacts only up to a size; returns otherwise (the default: always usable).
  virtual void CheckFrictionalDeclaration() const {}
  /// The normal restitution e the model's compliant laws are calibrated to (its scenario key e_n), if it has one:
  /// Newton's impact law takes it when the scenario sets neither e nor e_n.
  virtual std::optional<double> CalibratedRestitution() const { return std::nullopt; }
};

}  // namespace impactlab
