// PairPotentialStructure: the optional description of a model's potential as a sum of contact terms, which
// energy–momentum conserving schemes need (they difference W and Φ in the gap δ, not in q) [docs/theory.md §7].
//
//   V(q) = Σ_k W_k(δ_k(q)) + bᵀq            (b: constant generalized force potential, e.g. gravity m g)
//   f_nc = −Σ_k C_k(δ_k) ∇δ_k (∇δ_k · v)     (normal dashpots acting along the gap gradient)
//
// Two kinds of contact term (δ > 0 in contact, sign convention of system/mechanical_system.h):
//   wall term:  δ = offset + Σ_j g_j q_j                      (affine in q: flat wall, translation only)
//   pair term:  δ = R_a + R_b − |x_b − x_a|,  x_b − x_a = q[first_b ..+dim) − q[first_a ..+dim) + o_ab
//               (sphere–sphere / disk–disk / bead–bead; the invariant is C = |x_b − x_a|²). The constant
//               offset o_ab = X_b − X_a lets models use displacements q = x − X from reference positions X,
//               so that δ keeps its relative accuracy in long chains (|x| ≫ δ would cost ε|x|/δ).
// Each term carries its elastic law W and damping law C (Φ = ∫C). Models that implement this interface
// also implement ConstantMassSystem; the helpers below give them V, ∇V, ∇²V and C(q) consistent with it,
// so the conserving schemes and the generic implicit schemes see the same mechanics.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "contact/damping/damping_law.h"
#include "contact/normal_contact_law.h"
#include "system/sparse_assembly.h"

namespace impactlab {

struct ContactTerm {
  enum class Kind { kWall, kPair };
  Kind kind = Kind::kWall;
  // wall term: δ = wall_offset + Σ wall_gradient[j].second · q[wall_gradient[j].first]
  std::vector<std::pair<Eigen::Index, double>> wall_gradient;
  double wall_offset = 0.0;
  // pair term: δ = radius_sum − |q.segment(first_b, dim) − q.segment(first_a, dim) + pair_offset|
  Eigen::Index first_a = 0, first_b = 0;
  Eigen::VectorXd pair_offset;  ///< o_ab (size dim), or empty for 0
  int dim = 1;
  double radius_sum = 0.0;
  std::shared_ptr<const NormalContactLaw> elastic;
  std::shared_ptr<const DampingLaw> damping;  ///< never null (NoDamping for undamped terms)
};

class PairPotentialStructure {
 public:
  virtual ~PairPotentialStructure() = default;
  /// All contact terms (a fixed list for the whole run; terms with δ ≤ 0 contribute nothing).
  virtual const std::vector<ContactTerm>& ContactTerms() const = 0;
  /// b in V_lin = bᵀq [N]; an empty vector means b = 0.
  virtual Eigen::VectorXd LinearPotentialCoefficients() const { return {}; }
  /// The same b without a copy (the sums below and the conserving schemes read it once per evaluation). Default:
  /// LinearPotentialCoefficients() held in per-thread storage (a copy per call); override with a member to make
  /// the evaluations allocation-free.
  virtual const Eigen::VectorXd& LinearPotentialCoefficientsRef() const;
  /// Optional broad phase for the discrete gradient between two configurations
  /// (integrators/contact_term_discrete_force.h): ascending indices into ContactTerms() of every term that
  /// can contribute there (for a pair term: δ > 0 at q0 or at q1), or nullptr (the default) for all terms. The list
  /// lives in the structure's per-thread storage: valid on the calling thread until its next call.
  virtual const std::vector<int>* CandidateTermsBetween(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) const {
    (void)q0;
    (void)q1;
    return nullptr;
  }
};

/// x_b − x_a of a pair term at q (offset included).
Eigen::VectorXd PairSeparation(const ContactTerm& term, const Eigen::VectorXd& q);
/// δ = R_a + R_b − |x_b − x_a| of a pair term, evaluated without the cancellation R − |d|:
///   δ = (R² − |o|² − 2 o·u − |u|²) / (R + |d|),  u = q_b − q_a, d = o + u
/// (R² − |o|² = 0 exactly for a touching reference), so δ keeps relative accuracy ~ε even when δ ≪ R.
double PairGap(const ContactTerm& term, Eigen::Ref<const Eigen::VectorXd> q);
/// δ = wall_offset + Σ_j g_j q_j of a wall term at q (any Eigen vector; inline for the implicit schemes' hot loop).
template <class Vector>
inline double WallGap(const ContactTerm& term, const Vector& q) {
  double d = term.wall_offset;
  for (const auto& [j, g] : term.wall_gradient) d += g * q[j];
  return d;
}
/// δ of one term at q (WallGap or PairGap).
double ContactOverlap(const ContactTerm& term, Eigen::Ref<const Eigen::VectorXd> q);

// The four sums below run over all terms, or, with `subset`, over the terms subset[0], subset[1], ... (indices
// into s.ContactTerms(), ascending) in that order. Terms with δ ≤ 0 add nothing (not even a +0.0), so a broad
// phase whose ascending subset holds every term with δ > 0 gives bitwise the same result as the full sum
// (ParticleAssembly's cell list, lib/geometry/cell_list.h).

/// V(q) = Σ W_k(δ_k) + bᵀq.
double StructurePotential(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                          const std::vector<int>* subset = nullptr);
/// ∇V(q) (written into `gradient`, which must have q's size).
void StructurePotentialGradient(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                                Eigen::Ref<Eigen::VectorXd> gradient, const std::vector<int>* subset = nullptr);
/// ∇²V(q), sparse: W'' ∇δ∇δᵀ + W' ∇²δ per term.
Eigen::SparseMatrix<double> StructurePotentialHessian(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                                                      const std::vector<int>* subset = nullptr);
/// C(q) = Σ C_k(δ_k) ∇δ_k ∇δ_kᵀ ⪰ 0, sparse.
Eigen::SparseMatrix<double> StructureDampingMatrix(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                                                   const std::vector<int>* subset = nullptr);
/// The triplets of StructurePotentialHessian / StructureDampingMatrix (same values, same order), appended to
/// `entries` without heap allocation when it has capacity (stack-sized dim ≤ 3 blocks).
void AppendStructurePotentialHessianEntries(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                                            SparseEntries& entries, const std::vector<int>* subset = nullptr);
void AppendStructureDampingMatrixEntries(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                                         SparseEntries& entries, const std::vector<int>* subset = nullptr);
/// The triplets of ∂(C(q) w)/∂q at fixed w (the damping force's change with the configuration; w a velocity):
///   Σ_k C_k'(δ_k)(∇δ_k·w) ∇δ_k∇δ_kᵀ + C_k(δ_k)[∇δ_k (∇²δ_k w)ᵀ + (∇δ_k·w) ∇²δ_k],
/// not symmetric in general. The implicit schemes that evaluate C at a configuration moving with their unknown add
/// it to their Newton Jacobians (ConstantMassSystem::AppendDampingForceGradientEntries).
void AppendStructureDampingForceGradientEntries(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                                                const Eigen::VectorXd& w, SparseEntries& entries,
                                                const std::vector<int>* subset = nullptr);
/// Upper bound on the entries any Append function above (and the conserving schemes' discrete-force Jacobian,
/// integrators/contact_term_discrete_force.h) appends: Σ_k 4 dim² (pair) or |g|² (wall) over all contact terms.
std::size_t StructureMaxSparseEntries(const PairPotentialStructure& s);
/// Throws InvalidParameter when a term is malformed (null law, index out of range, dim < 1).
void ValidateContactTerms(const PairPotentialStructure& s, Eigen::Index num_coordinates);

// Calls add(i, j, value) for the dim×dim block pattern [[K, −K], [−K, K]] on (a, b).
template <class Matrix, class Add>
inline void AddPairBlock(const ContactTerm& t, const Matrix& k, Add&& add) {
  for (int r = 0; r < t.dim; ++r)
    for (int c = 0; c < t.dim; ++c) {
      const double v = k(r, c);
      if (v == 0.0) continue;
      add(t.first_a + r, t.first_a + c, v);
      add(t.first_b + r, t.first_b + c, v);
      add(t.first_a + r, t.first_b + c, -v);
      add(t.first_b + r, t.first_a + c, -v);
    }
}

}  // namespace impactlab
