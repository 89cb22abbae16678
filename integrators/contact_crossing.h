// ContactCrossing: locating a contact onset / release inside a step and evaluating forces as one-sided
// limits at it — the machinery shared by the event-split schemes velocity_verlet_event
// (integrators/event_split_velocity_verlet.h) and rk4_event (integrators/event_split_runge_kutta4.h)
// [docs/theory.md §12.3, §7 "Contact onset and expected order"].
//
// Crossing location. A scheme supplies the overlap of contact i at the end of its own sub-step of length τ,
//   f_i(τ) = δ_i(x(τ)),  τ ∈ [0, r]     (x(τ): the scheme's update from the sub-step start, r the remaining
//                                         part of the step; δ > 0 in contact, MechanicalSystem::ContactOverlaps)
// (event_at reads one contact with MechanicalSystem::ContactOverlapOf, O(1) on the multi-body models; the sides at
// the sub-step ends come from the touching contacts, Sides below).
// For every contact whose side at τ = r differs from its current side, the root of f_i is bracketed and solved
// with Boost.Math toms748_solve (Alefeld, Potra & Shi 1995) to |Δτ| ≤ 1e-15·h; the earliest root over the
// contacts is the crossing. The left end of the bracket is τ = 0, or — when the sub-step starts on the
// crossing of that same contact (δ = 0 to root tolerance) — the point kOneSidedFraction·h into the sub-step;
// a contact whose bracket does not change sign there (grazing) is not split.
// The search is over event functions in general: a scheme may append further functions to the overlaps (e.g.
// the switch functions g_j of MechanicalSystem::SwitchFunctions, side "g > 0"); index i then names an event,
// and the same bracket rules apply to it.
//
// One-sided evaluation. A damper with C(0) ≠ 0 (linear dashpot, ECC adaptive damping) jumps at δ = 0, so
// forces evaluated at a crossing must be the one-sided limit of the side the sub-step lies on.
//   OneSided:   the state displaced along the drift, q ± ε N(q) v with ε = kOneSidedFraction·h = 1e-9·h
//               (×10 up to 1e-5·h if round-off needs it), the sign chosen so that δ_i is on the wanted side.
//               Bias O(ε). Used at the located crossing state itself.
//   PinnedSide: for a state that may sit a finite distance on the wrong side (an RK stage near the end of a
//               sub-step that ends on the crossing is O(τ³) from the located state): the state is first
//               projected onto δ_i = 0 along its own drift, q + σ N(q) v with σ from Newton's method on
//               δ_i(q + σ N(q) v) = 0, then OneSided. The force there is the one-sided limit at the
//               projection, a continuous function of the state, with an O(|σ|) bias on the smooth side's force.
//               A state already on the wanted side is returned unchanged.
#pragma once

#include <functional>
#include <vector>

#include <Eigen/Core>

#include "state/mechanical_state.h"
#include "system/mechanical_system.h"

namespace impactlab {

class ContactCrossing {
 public:
  static constexpr double kOneSidedFraction = 1e-9;  ///< ε/h of the one-sided force evaluation

  struct Crossing {
    int contact = -1;  ///< the event (a contact index for overlaps); -1: no crossing inside the remaining interval
    double tau = 0.0;  ///< sub-step length to the crossing [s]
  };
  /// Event function i at the end of the scheme's sub-step of length τ (f_i(τ) above; δ_i for a contact).
  using EventAt = std::function<double(int event, double tau)>;

  /// side[i] = (δ_i > 0) at `s` for every contact i < num_contacts() (entries beyond are left as they are), from the
  /// touching contacts (MechanicalSystem::TouchingContacts): O(N) on a model with a broad phase.
  void Sides(const MechanicalSystem& system, const MechanicalState& s, std::vector<char>& side);

  /// Earliest crossing in (0, remaining]: `side[i]` the current side of event i (1 = f_i > 0, in contact),
  /// `end_in[i]` its side at τ = remaining, `starts_on[i]` = 1 for the events whose root the sub-step starts on
  /// (the bracket then begins kOneSidedFraction·h into it), h the full step (tolerances are relative to it).
  Crossing LocateEarliest(const std::vector<char>& side, const std::vector<char>& end_in,
                          const std::vector<char>& starts_on, double remaining, double h, const EventAt& event_at);

  /// `s` displaced along q̇ by ±ε (contact i read alone, MechanicalSystem::ContactOverlapOf) so that contact i is
  /// in contact (in = true) or separated; a copy of `s` itself when no displacement up to 1e-5·h achieves it. The
  /// reference is valid until the next call.
  const MechanicalState& OneSided(const MechanicalSystem& system, const MechanicalState& s, int contact, bool in,
                                  double h);
  /// `s` itself when contact i is strictly on side `in` (δ > 0, resp. δ < 0), else its projection onto δ_i = 0
  /// along q̇ followed by OneSided (see the header comment); `s` unchanged when the projection fails (δ̇_i = 0, or |σ| > h). The
  /// reference is valid until the next call.
  const MechanicalState& PinnedSide(const MechanicalSystem& system, const MechanicalState& s, int contact, bool in,
                                    double h);

 private:
  std::vector<MechanicalSystem::ContactReading> touching_;
  MechanicalState displaced_, projected_;
  Eigen::VectorXd qd_, pinned_qd_;
};

}  // namespace impactlab
