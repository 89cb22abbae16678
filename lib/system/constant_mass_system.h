// ConstantMassSystem: the extra structure implicit and energy–momentum conserving schemes need.
//
//   M v̇ = −∇V(q) + f_nc(q, v) + f_ext(t),    q̇ = v,    M = diag(m) constant
//
// (point masses, planar rigid bodies (x, y, θ), 1D oscillators). 3D rotations do not have a constant mass
// matrix in rotation coordinates and do not implement this interface [docs/theory.md §7, "3D rotations"].
// Implicit schemes reach it by dynamic_cast and reject systems that do not provide it with a clear error.
//
// f_nc must be linear in v, f_nc = −C(q) v (dashpots), so that implicit schemes can solve for it in closed
// form; DampingMatrix returns C(q) ⪰ 0 (sparse) and DampingForce applies it.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "system/mechanical_system.h"
#include "system/sparse_assembly.h"

namespace impactlab {

class ConstantMassSystem : public MechanicalSystem {
 public:
  /// Diagonal of the constant mass matrix M [kg or kg·m²].
  virtual Eigen::VectorXd MassDiagonal() const = 0;
  /// V(q) [J] at positions q (history-free part of the potential).
  virtual double Potential(const Eigen::VectorXd& q) const = 0;
  /// ∇V(q) [N or N·m].
  virtual void PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> gradient) const = 0;
  /// ∇²V(q), sparse (chains and clouds have banded / sparse Hessians). Default: central finite
  /// differences of the gradient (dense pattern; override for large systems).
  virtual Eigen::SparseMatrix<double> PotentialHessian(const Eigen::VectorXd& q) const;
  /// Viscous damping matrix C(q) ⪰ 0 (sparse) so that f_nc = −C(q) v. Default: no damping.
  virtual Eigen::SparseMatrix<double> DampingMatrix(const Eigen::VectorXd& q) const;
  /// External (applied) generalized force f_ext(t), e.g. gravity. Default: none.
  virtual void ExternalForce(double t, Eigen::Ref<Eigen::VectorXd> f) const {
    (void)t;
    f.setZero();
  }

  // Allocation-free forms of the above for the implicit schemes (issue 19: no heap allocation inside a step).
  // The defaults call the allocating versions; a model overrides them to assemble into the caller's storage.

  /// Writes the mass diagonal into m (sized like q). Default: m = MassDiagonal().
  virtual void WriteMassDiagonal(Eigen::Ref<Eigen::VectorXd> m) const { m = MassDiagonal(); }
  /// Appends triplets whose setFromTriplets is PotentialHessian(q), value for value. Default: the stored entries of
  /// PotentialHessian(q).
  virtual void AppendPotentialHessianEntries(const Eigen::VectorXd& q, SparseEntries& entries) const;
  /// Appends triplets whose setFromTriplets is DampingMatrix(q), value for value. Default: the stored entries of
  /// DampingMatrix(q).
  virtual void AppendDampingMatrixEntries(const Eigen::VectorXd& q, SparseEntries& entries) const;
  /// Appends the triplets of ∂(C(q) w)/∂q at fixed w [N/m]: how the damping force C(q) w changes with the
  /// configuration. Implicit schemes that evaluate C at a configuration moving with their unknown (implicit midpoint,
  /// gonzalez_dg: C(q_{n+½}); the Newmark family: C(d_{n+1})) add it to their Newton Jacobians, which are then exact
  /// on damped steps. Default: nothing appended (the term is left out of the Jacobian and Newton converges linearly
  /// where the damping changes with q); the pair-potential models override it with the closed form
  /// (AppendStructureDampingForceGradientEntries), ellipsoid_wall with a central difference.
  virtual void AppendDampingForceGradientEntries(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                                 SparseEntries& entries) const {
    (void)q;
    (void)w;
    (void)entries;
  }
  /// An upper bound on the entries any Append function appends (0: unknown); implicit schemes reserve their
  /// Jacobian storage with it, so that contacts closing later in a run do not allocate inside a step.
  virtual std::size_t MaxSparseEntries() const { return 0; }

  // MechanicalSystem defaults derived from the structure above.
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override;
  double KineticEnergy(const MechanicalState& s) const override;
  double PotentialEnergy(const MechanicalState& s) const override { return Potential(s.q); }
  double DissipationPower(const MechanicalState& s) const override;
};

}  // namespace impactlab
