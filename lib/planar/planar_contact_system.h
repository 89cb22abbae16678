// PlanarContactSystem: the model structure a planar contact integrator (EFDA, integrators/efda.h) needs and
// a model implements next to MechanicalSystem. The integrator knows nothing about the specific model.
//
// Layout contract (all planar models):
//   q = (x_0, y_0, θ_0, x_1, y_1, θ_1, ...)  [m, m, rad],  v = q̇ = (v_x, v_y, ω) per body,
//   constant mass matrix M = diag(m_0, m_0, I_0, m_1, ...),
//   z[slot] = g_T of contact slot `slot` [m]: the elastic tangential spring (history, docs/theory.md §6), or, when
//   the model carries a tangential law of the shared library instead (tangential_law() ≠ null), that law's
//   layout (planar_tangential_law.h).
// A contact slot is one body pair or body–wall pair that may touch; slots are enumerated once by the model.
// Energy: E = ½ vᵀ M v + Σ_slots (½ K_N ⟨δ⟩² + ½ K_T g_T²) + V_ext(q), V_ext linear in q (gravity), so
// the external generalized force is constant (with a tangential law, U_t of the law replaces ½ K_T g_T²).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "planar/planar_gap.h"
#include "planar/planar_penalty.h"
#include "planar/planar_tangential_law.h"

namespace impactlab {

class PlanarContactSystem {
 public:
  virtual ~PlanarContactSystem() = default;

  virtual int num_bodies() const = 0;
  virtual double body_mass(int body) const = 0;     ///< m [kg]
  virtual double body_inertia(int body) const = 0;  ///< I [kg m²] about the centre of mass
  /// A length [m] that scales rotations to lengths (e.g. the bounding radius); used as a metric weight.
  virtual double body_length_scale(int body) const = 0;

  virtual int num_contact_slots() const = 0;
  /// Broad phase: every slot whose bodies may touch at configuration q_a or q_b (a superset of the slots
  /// with δ > 0 at either configuration). Output sorted ascending, without duplicates.
  virtual void CandidateSlots(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b,
                              std::vector<int>& slots) const = 0;
  /// Narrow phase: exact gap geometry of `slot` at configuration q (planar_gap.h conventions).
  virtual PlanarGap Gap(int slot, const Eigen::VectorXd& q) const = 0;
  /// Mass of the heavier participant of `slot` (for the dashpots of planar_penalty.h).
  virtual double slot_larger_mass(int slot) const = 0;

  virtual const PlanarPenalty& penalty() const = 0;
  /// The tangential law of the shared library the contacts carry instead of the penalty's spring K_T (and its
  /// dashpot), or null for Seed003's spring.
  virtual const PlanarTangentialLaw* tangential_law() const { return nullptr; }
  /// Size of MechanicalState::z: one spring per slot, or the tangential law's layout.
  int history_size() const {
    const PlanarTangentialLaw* law = tangential_law();
    return law ? law->HistorySize(num_contact_slots()) : num_contact_slots();
  }
  /// Constant external generalized force −∇V_ext (e.g. gravity), size 3 num_bodies().
  virtual Eigen::VectorXd ExternalForce() const = 0;
  /// The same into f (resized when its size differs): the allocation-free form the implicit steps use (default: a
  /// copy of ExternalForce()).
  virtual void WriteExternalForce(Eigen::VectorXd& f) const { f = ExternalForce(); }
};

}  // namespace impactlab
