// ParticleAssembly: frictionless spheres / disks / beads (translation only, constant diagonal mass) that
// interact through pair contact terms, the common mechanics of bead_chain, two_body_impact and
// disk_cloud. Each body b has position x_b = X_b + u_b [m]: a fixed reference position X_b and the
// displacement u_b = q[dim·b .. dim·b + dim) (the generalized coordinate), velocity v_b = u̇_b [m/s].
// Displacement coordinates keep δ = R_a + R_b − |X_b − X_a + u_b − u_a| accurate to ~ε·R instead of
// ~ε·|x| (a 10⁴-bead chain would otherwise lose 4 digits of δ, and of the energy, to round-off).
//
//   δ_ab = R_a + R_b − |x_b − x_a|   (> 0 in contact),  δ̇_ab = −(x_b − x_a)·(v_b − v_a)/|x_b − x_a|
//   V = Σ_ab W(δ_ab),   f_nc = −Σ_ab C(δ_ab) n n ᵀ (v_b − v_a) on b (and the opposite on a)
//   P = Σ m_b v_b            (linear momentum; scale Σ m_b |v_b| because P may vanish)
//   L = Σ m_b (x_b − x_G) × v_b  about the centre of mass x_G (dim = 2, 3; scale Σ m_b |x_b − x_G| |v_b|)
// The contact list (pairs that may touch) is fixed at construction. Isolated system: no walls, no gravity.
// Broad phase: when the list is long (more than 4 terms per body, e.g. disk_cloud's all pairs), V, ∇V, ∇²V
// and C(q) sum only over the terms whose bodies are within max(R_a + R_b)(1 + 1e-6) of each other, found by a
// cell list (lib/geometry/cell_list.h) in O(N) per evaluation, read from a neighbour list with a skin of 5 % of the
// cutoff that is rebuilt only when a body has moved half of it (lib/geometry/verlet_list.h: exactly the cell
// list's pairs), in ascending term order: bitwise the same sums
// as the full loop (terms with δ ≤ 0 add nothing). The simulation driver's contact readings (TouchingContacts,
// ContactOverlapOf) use the same broad phase. The dense per-contact interface (ContactOverlaps, num_contacts,
// ContactTerms for the conserving schemes) still covers every term of the list.
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
  double Potential(const Eigen::VectorXd& q) const override;
  void PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const override;
  Eigen::SparseMatrix<double> PotentialHessian(const Eigen::VectorXd& q) const override;
  Eigen::SparseMatrix<double> DampingMatrix(const Eigen::VectorXd& q) const override;
  void WriteMassDiagonal(Eigen::Ref<Eigen::VectorXd> m) const override;
  /// Without heap allocation when the broad phase is off (bead_chain, two_body); with it, the cell list allocates.
  void AppendPotentialHessianEntries(const Eigen::VectorXd& q, SparseEntries& entries) const override;
  void AppendDampingMatrixEntries(const Eigen::VectorXd& q, SparseEntries& entries) const override;
  void AppendDampingForceGradientEntries(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                         SparseEntries& entries) const override;
  std::size_t MaxSparseEntries() const override { return max_sparse_entries_; }

  /// Whether V, ∇V, ∇²V and C(q) use the cell-list broad phase (on by default when the contact list has more
  /// than 4 terms per body). Off gives the full loop over every term: the pre-cell-list path, kept for the
  /// bitwise-identity test and the benchmark (both paths give bitwise the same results).
  bool broad_phase() const { return broad_phase_; }
  void set_broad_phase(bool on) { broad_phase_ = on; }
  /// Indices of the terms whose bodies are within the broad-phase cutoff at q, ascending (for tests); every
  /// term with δ > 0 is among them. Falls back to every term when a coordinate is not finite.
  std::vector<int> CandidateTerms(const Eigen::VectorXd& q) const;
  /// The same into `active` (cleared first); with per-thread storage for the cell list, no allocation once sized.
  void CandidateTerms(const Eigen::VectorXd& q, std::vector<int>& active) const;
  /// CandidateTerms(q0) ∪ CandidateTerms(q1), ascending (nullptr, i.e. every term, with the broad phase off):
  /// the conserving schemes' discrete gradient then also skips the far pairs, bitwise identically.
  const std::vector<int>* CandidateTermsBetween(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) const override;
  bool velocity_dependent_forces() const override { return damped_; }
  /// q̇ = v, no normalisation, no history; no dissipation when undamped (system/default_hooks.h).
  DefaultHooks default_hooks() const override { return {true, true, true, !damped_}; }

  int num_contacts() const override { return static_cast<int>(terms_.size()); }
  /// min(R_a, R_b) of the pair (nullopt for a wall term).
  std::optional<double> ContactSize(int contact) const override;
  /// Undamped Δt_crit estimate 2/ω̂ with the Gershgorin bound ω̂² = max_b Σ_t K_t (1/m_b + 1/√(m_b m_c)) over
  /// the kissing-number (2, 6, 12 for dim 1, 2, 3) stiffest terms t of body b; K_t = p k δ_t^(p−1), the tangent
  /// stiffness at the undamped peak overlap of a pair approaching at the largest relative speed in s
  /// (docs/reliability.md). Gershgorin: an upper bound on ω for linear springs, so a conservative Δt; equal to
  /// 2√(m*/k) for an equal-mass linear pair and to √(m/k) (the N → ∞ limit) for an equal-mass linear chain.
  std::optional<double> CriticalTimeStep(const MechanicalState& s) const override;
  void ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                       std::span<double> overlap_rate) const override;
  /// The reading of term `contact` alone (the entries of ContactOverlaps, bitwise), O(1).
  ContactReading ContactOverlapOf(const MechanicalState& s, int contact) const override;
  /// The terms with δ ≥ 0 among the broad phase's candidates at s (ascending), O(N) with the broad phase on.
  void TouchingContacts(const MechanicalState& s, std::vector<ContactReading>& out) const override;

  std::optional<Eigen::Vector3d> LinearMomentum(const MechanicalState& s) const override;
  std::optional<Eigen::Vector3d> AngularMomentum(const MechanicalState& s) const override;
  std::optional<double> LinearMomentumScale(const MechanicalState& s) const override;
  std::optional<double> AngularMomentumScale(const MechanicalState& s) const override;

  const std::vector<ContactTerm>& ContactTerms() const override { return terms_; }
  const DampedNormalLaw& law() const { return law_; }

 protected:
  /// dim ∈ {1, 2, 3}; masses [kg] and radii [m] > 0 per body; reference positions X (dim·n entries [m]);
  /// `pairs` (a, b) with a ≠ b.
  ParticleAssembly(int dim, std::vector<double> masses, std::vector<double> radii, Eigen::VectorXd reference,
                   const std::vector<std::pair<int, int>>& pairs, DampedNormalLaw law);
  /// Coordinates q = x − X for absolute positions x.
  Eigen::VectorXd DisplacementsOf(const Eigen::VectorXd& positions) const { return positions - reference_; }
  const std::vector<double>& masses() const { return mass_; }
  const std::vector<double>& radii() const { return radius_; }

 private:
  Eigen::Vector3d Position(const Eigen::VectorXd& q, int b) const;  ///< x_b = X_b + u_b, padded to 3D
  ContactReading TermReading(const MechanicalState& s, size_t k) const;  ///< δ, δ̇ of term k
  Eigen::Vector3d Velocity(const Eigen::VectorXd& v, int b) const;
  int dim_;
  std::vector<double> mass_, radius_;
  Eigen::VectorXd reference_;
  DampedNormalLaw law_;
  bool damped_ = false;  ///< law_.damping is not "none" (cached: asked every step)
  std::vector<ContactTerm> terms_;
  bool broad_phase_ = false;
  std::size_t max_sparse_entries_ = 0;  ///< StructureMaxSparseEntries of the fixed contact list
  double cutoff_ = 0.0;  ///< broad-phase range: max (R_a + R_b) · (1 + 1e-6)
  /// partners_[a]: (b, term index) for every term on bodies {a, b} with a < b, sorted.
  std::vector<std::vector<std::pair<int, int>>> partners_;
};

}  // namespace impactlab
