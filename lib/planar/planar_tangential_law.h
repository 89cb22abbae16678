// PlanarTangentialLaw: a tangential law of the shared library (lib/contact/tangential: Cundall–Strack and the five
// Mindlin laws) on the contacts of the planar rigid-body models, in place of Seed003's linear spring K_T
// [Mindlin 1949; Mindlin & Deresiewicz 1953; Seed002 §2, eqs. 2–19; docs/theory.md §6; docs/efda.md §9].
//
// What the law is fed, per contact slot. A 2-D lamina contact has no Hertz contact area; the modelling choice is
// Mindlin & Deresiewicz's sphere relation a = √(R* δ) with the lamina's in-plane curvatures, i.e. the contact of two
// spheres with the radii of curvature the two boundaries have at the contact point:
//   frame          the contact's own frame (T, ẑ, N): the law sees n = e_z and Δs = (Δs_T, 0, 0), with Δs_T = G_T·Δq
//                  the tangential increment of the common contact point (planar_discrete_contacts.h); its force
//                  F_t = (F, 0, 0) acts on body B along +T and on A along −T. In the plane the tangent is one
//                  direction that turns with N, so a history along T is the 3-D laws' history rotated into the
//                  current tangent plane (as Seed003's scalar spring g_T);
//   overlap        δ₁ of the planar gap at the end of the step, δ₀ at its start (the first-touch fraction of Δs,
//                  the incremental laws' ΔF_n and k_t(δ_prev) come from them);
//   normal force   the elastic penalty force K_N⟨δ⟩ (cap μ K_N δ₁; the sphere contacts cap with W'(δ) the same way,
//                  contact/contact_law.h), so the cap is never tensile and does not include the dashpot;
//   R*             the effective radius of the two boundary curvatures at the contact point (planar_gap.h), taken
//                  at first touch and kept in z for the whole contact: k_t = 8 G* √(R* δ) = 8 G* a (the step,
//                  the freezing of R* and why: contact/radius_bound_tangential_law.h);
//   G*, μ          G* [Pa] from the scenario (key G_star, no default: the penalty model has no material modulus),
//                  μ the model's friction coefficient.
// No tangential dashpot (the laws have none; ξ_T must be 0).
//
// History layout of MechanicalState::z with S contact slots and a law of n_h history entries:
//   z[s (1 + n_h)]                 R* of slot s [m] (0: the slot carries no contact)
//   z[s (1 + n_h) + 1 … + n_h]      the law's history of slot s
//   z[S (1 + n_h)]                 W_f, friction work since t = 0 [J] (the laws' cap removal and the spring energy
//                                  released when a contact opens)
//   z[S (1 + n_h) + 1]             W_g, energy the laws created since t = 0 [J], signed (docs/theory.md §6)
// so that E + D_dashpots + W_f − W_g stays constant for the energy-consistent schemes (state/energy_terms.h).
#pragma once

#include <Eigen/Core>
#include <string>

#include "contact/radius_bound_tangential_law.h"

namespace impactlab {

/// One step of one slot's tangential law.
struct PlanarTangentialStep {
  bool active = false;          ///< δ₁ > 0: the law acted in this step
  bool sliding = false;         ///< the Coulomb cap was active
  double force = 0.0;           ///< f̄_t on body B along +T [N] (AlgorithmicTangentialForce, contact/contact_law.h)
  double friction_work = 0.0;   ///< W_f of the law's step [J]
  double release_energy = 0.0;  ///< spring energy released at opening [J]
  double generated_work = 0.0;  ///< W_g of the law's step [J], signed
};

class PlanarTangentialLaw {
 public:
  /// `name` as registered; `make` must accept every R* > 0.
  PlanarTangentialLaw(std::string name, TangentialLawForRadius make);

  const std::string& name() const { return law_.name(); }
  double friction_coefficient() const { return law_.friction_coefficient(); }
  int law_history_size() const { return law_.history_size(); }
  int stride() const { return 1 + law_.history_size(); }
  /// Size of z for `num_slots` slots.
  int HistorySize(int num_slots) const { return num_slots * stride() + 2; }
  int FrictionWorkIndex(int num_slots) const { return num_slots * stride(); }
  int GeneratedWorkIndex(int num_slots) const { return num_slots * stride() + 1; }
  std::shared_ptr<const TangentialLaw> LawFor(double effective_radius) const { return law_.LawFor(effective_radius); }

  /// Stored energy U_t of `slot` at overlap δ [J] (0 when the slot carries no contact or δ ≤ 0).
  double StoredEnergy(int slot, double delta, const Eigen::VectorXd& z) const;
  /// Spring force on body B along +T of the committed history at overlap δ, capped at μ K_N δ [N] (the
  /// continuous force of the explicit and ODE schemes, lagged by one step like Seed003's spring in the model).
  double SpringForce(int slot, double delta, double normal_stiffness, const Eigen::VectorXd& z) const;
  /// One step of `slot` from z0 to z1 (only the slot's entries of z1 are written; z1 must not alias z0): gaps δ₀,
  /// δ₁ at the step ends, tangential increment Δs_T [m], `radius_at_touch` the R* of this step's geometry (used when
  /// the contact starts), K_N the penalty stiffness. δ₁ ≤ 0: no force, the spring's energy is released, the slot
  /// cleared.
  PlanarTangentialStep Step(int slot, double delta0, double delta1, double ds, double radius_at_touch,
                            double normal_stiffness, const Eigen::VectorXd& z0, Eigen::VectorXd& z1) const;

 private:
  std::span<const double> History(int slot, const Eigen::VectorXd& z) const {
    return {z.data() + slot * stride() + 1, static_cast<size_t>(law_.history_size())};
  }

  RadiusBoundTangentialLaw law_;
};

}  // namespace impactlab
