// ParticleAssembly: frictionless spheres / disks / beads (translation only, constant diagonal mass) that
// interact through pair contact terms, the common mechanics of bead_chain, two_body_impact and
// disk_cloud. Each body b has `dim` coordinates x_b = q[dim·b .. dim·b + dim) [m] and velocities v_b [m/s].
//
//   δ_ab = R_a + R_b − |x_b − x_a|   (> 0 in contact),  δ̇_ab = −(x_b − x_a)·(v_b − v_a)/|x_b − x_a|
//   V = Σ_ab W(δ_ab),   f_nc = −Σ_ab C(δ_ab) n n ᵀ (v_b − v_a) on b (and the opposite on a)
//   P = Σ m_b v_b            (linear momentum; scale Σ m_b |v_b| because P may vanish)
//   L = Σ m_b (x_b − x_G) × v_b  about the centre of mass x_G (dim = 2, 3; scale Σ m_b |x_b − x_G| |v_b|)
// The contact list (pairs that may touch) is fixed at construction. Isolated system: no walls, no gravity.
#pragma once

#include <memory>
#include <vector>

#include "contact/damped_normal_law.h"
#include "system/constant_mass_system.h"
#include "system/pair_potential_structure.h"

namespace impactlab {

class ParticleAssembly : public ConstantMassSystem, public PairPotentialStructure {
 public:
  int dimension() const { return dim_; }
  int num_bodies() const { return static_cast<int>(mass_.size()); }

  Eigen::VectorXd MassDiagonal() const override;
  double Potential(const Eigen::VectorXd& q) const override { return StructurePotential(*this, q); }
  void PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const override {
    StructurePotentialGradient(*this, q, g);
  }
  Eigen::SparseMatrix<double> PotentialHessian(const Eigen::VectorXd& q) const override {
    return StructurePotentialHessian(*this, q);
  }
  Eigen::SparseMatrix<double> DampingMatrix(const Eigen::VectorXd& q) const override {
    return StructureDampingMatrix(*this, q);
  }
  bool velocity_dependent_forces() const override { return law_.damping->name() != "none"; }

  int num_contacts() const override { return static_cast<int>(terms_.size()); }
  void ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                       std::span<double> overlap_rate) const override;

  std::optional<Eigen::Vector3d> LinearMomentum(const MechanicalState& s) const override;
  std::optional<Eigen::Vector3d> AngularMomentum(const MechanicalState& s) const override;
  std::optional<double> LinearMomentumScale(const MechanicalState& s) const override;
  std::optional<double> AngularMomentumScale(const MechanicalState& s) const override;

  const std::vector<ContactTerm>& ContactTerms() const override { return terms_; }
  const DampedNormalLaw& law() const { return law_; }

 protected:
  /// dim ∈ {1, 2, 3}; masses [kg] and radii [m] > 0 per body; `pairs` (a, b) with a ≠ b.
  ParticleAssembly(int dim, std::vector<double> masses, std::vector<double> radii,
                   const std::vector<std::pair<int, int>>& pairs, DampedNormalLaw law);
  const std::vector<double>& masses() const { return mass_; }
  const std::vector<double>& radii() const { return radius_; }

 private:
  Eigen::Vector3d Position(const Eigen::VectorXd& q, int b) const;
  int dim_;
  std::vector<double> mass_, radius_;
  DampedNormalLaw law_;
  std::vector<ContactTerm> terms_;
};

}  // namespace impactlab
