// PlanarDiscreteContacts: the two-configuration contact forces of the planar penalty models (ellipse_box,
// ellipses_multi) over one step q₀ → q₁, shared by EFDA (integrators/efda.h, fixed-point solver) and by the
// midpoint-family schemes (Newton, through PlanarEllipses' DiscreteContactSystem) [Bravo & Pérez-Aparicio
// (Seed003) eqs. 5–8, 17; Gonzalez 1996; docs/efda.md; docs/theory.md §7, §8]:
//
//   f_c = −F_N ḡ_N − F_T G_T   on the two bodies of each contact (generalized, with the external force added)
//   energy-consistent forms (gap quotient, invariant, Cartesian):
//     F_N = [V_N(δ₁) − V_N(δ₀)]/(δ₁ − δ₀) + c_N Δδ/h,  V_N = ½ K_N ⟨δ⟩²,
//     ḡ_N = ∇δ(q_{n+½}) + r d  (Gonzalez correction restricted to momentum-neutral directions, ḡ_N·Δq = Δδ)
//   midpoint form (implicit midpoint rule): F_N = K_N ⟨δ(q_{n+½})⟩ + c_N ∇δ·Δq/h along ḡ_N = ∇δ(q_{n+½})
//   tangential (all forms; spring g_T in z): stick g₁ = g₀ + Δs, F_T = K_T (g₀ + g₁)/2 + c_T Δs/h while
//     |F_T| ≤ μ|F_N|; slip F_T = ±μ|F_N| (Seed003 eq. 7), spring returned onto the cone: K_T g₁ = F_T, and
//     the slip work W = F_T Δs − ½K_T(g₁² − g₀²) booked exactly (≥ 0: slip starts only when K_T(2g₀+Δs)/2
//     exceeds the cone).
// Per contact and step (quotient forms), to round-off:  Δ(K + V_N + V_T) = −(dashpot work) − W_slip.
// A contact that opens (δ₁ ≤ 0) releases its spring energy ½K_T g², booked as dissipated ("release").
//
// With a tangential law of the shared library (PlanarContactSystem::tangential_law(), planar_tangential_law.h) the
// normal part is unchanged and the spring branch is replaced by the law's step, as on the sphere contacts
// (contact/contact_law.h): the law's return mapping from the committed history with Δs = G_T·Δq (cap μ K_N δ₁),
// f̄_t = ½(F_prev + F_t) along G_T (the first-touch fraction included), no tangential force on the step where the
// contact opens (its stored energy is released). Then, per contact and step (quotient forms), to round-off:
//   Δ(K + V_N + U_t) = −(dashpot work) − W_f + W_g,
// W_f the law's friction work (plus released springs), W_g the energy the law creates (reported, signed). Both are
// accumulated in z (the law's layout), not in MechanicalState::dissipated, which takes the dashpot work only.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "contact/contact_law.h"
#include "planar/planar_contact_system.h"

namespace impactlab {

/// Energy bookkeeping of one step (for tests, studies and the ledger).
struct PlanarStepReport {
  double normal_dashpot_work = 0.0;      ///< Σ c_N Δδ²/Δt [J]
  double tangential_dashpot_work = 0.0;  ///< Σ c_T Δs²/Δt over sticking contacts [J]
  double slip_work = 0.0;                ///< Σ F_T Δs − ΔV_T over slipping contacts [J] (Coulomb work)
  double release_energy = 0.0;           ///< Σ ½ K_T g² of springs dropped at contact opening [J]
  double generated_work = 0.0;           ///< Σ W_g of the tangential laws [J], signed (0 for the spring K_T)
  /// True with a tangential law: slip and release work go to z (W_f), only the dashpots to `dissipated`.
  bool friction_in_history = false;
  int active_contacts = 0;
  int sticking_contacts = 0;
  int slipping_contacts = 0;
  /// Contacts whose momentum-neutral Gonzalez correction was skipped (near-rigid relative motion, d·Δq ≈ 0);
  /// their energy identity then holds only to the skipped residual.
  int correction_skipped = 0;
  int iterations = 0;
  /// All work the step dissipated: ΔE = −total() + generated_work.
  double total() const { return normal_dashpot_work + tangential_dashpot_work + slip_work + release_energy; }
  /// The part that MechanicalState::dissipated takes (all of it for the spring K_T; the dashpots with a law).
  double state_dissipated() const {
    return friction_in_history ? normal_dashpot_work + tangential_dashpot_work : total();
  }
};

/// One slot's algorithmic force on the coordinates of its bodies (3 for a wall slot, 6 for a pair; n = 0 when the
/// slot is apart at both ends of the step), without the external force.
struct PlanarSlotForce {
  int n = 0;
  int dof[6] = {0};                   ///< global coordinates (body A's three first for a pair)
  Eigen::Matrix<double, 6, 1> force;  ///< generalized force on them (entries beyond n unused)
};

/// Slot s's part of EvaluatePlanarDiscreteContacts (qm = (q₀ + q₁)/2 on its bodies): its force into `out`, its
/// spring or law history into z1 (which must hold z0's values on the slot's entries), its work added to `rep`.
/// It reads q₀, q₁ and qm only on the slot's bodies.
void PlanarSlotStep(const PlanarContactSystem& system, int s, const Eigen::VectorXd& q0, const Eigen::VectorXd& q1,
                    const Eigen::VectorXd& qm, const Eigen::VectorXd& z0, double h, DiscreteGradientForm form,
                    Eigen::VectorXd& z1, PlanarStepReport& rep, PlanarSlotForce& out);

/// Generalized force f (external included: M Δv = h f), new springs z₁ and the step's report, for the contact
/// `slots` (a superset of the slots active at q₀ or q₁, PlanarContactSystem::CandidateSlots). With a tangential law,
/// z₁ also carries the updated totals W_f and W_g.
void EvaluatePlanarDiscreteContacts(const PlanarContactSystem& system, const std::vector<int>& slots,
                                    const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, const Eigen::VectorXd& z0,
                                    double h, DiscreteGradientForm form, Eigen::VectorXd& f, Eigen::VectorXd& z1,
                                    PlanarStepReport& report);

}  // namespace impactlab
