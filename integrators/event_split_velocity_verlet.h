// EventSplitVelocityVerlet: velocity Verlet whose step is split at every contact onset / release located
// inside it [docs/theory.md §12.3, §7 "Contact onset and expected order"].
//
// One sub-step of size τ from (q₀, v₀, a₀) is exactly the velocity_verlet update:
//   v_½ = v₀ + τ/2 a₀,  q₁ = q₀ + τ N(q₀) v_½ (= q₀ + τ v₀ + τ²/2 a₀ when q̇ = v),
//   v₁ = v_½ + τ/2 a(q₁, v₁)                   velocity-dependent forces IMPLICIT in the end velocity
//                                             (fixed point to 1e-15 relative), as in velocity_verlet
//   D₁ = D₀ + τ/2 (P₀ + P₁)                   dissipated work, trapezoidal per sub-step.
//
// Splitting. Before a sub-step of the remaining length r, the drift polynomial
//   q(τ) = q₀ + τ N(q₀)(v₀ + τ/2 a₀),  τ ∈ (0, r]
// is checked for a sign change of any overlap δ_i (MechanicalSystem::ContactOverlaps on that interpolated
// state; δ > 0 in contact). The earliest crossing τ* is located with Boost.Math toms748_solve (to 1e-15·h;
// ContactCrossing::LocateEarliest, integrators/contact_crossing.h, shared with rk4_event), a Verlet sub-step
// of τ* is taken, and the remainder r − τ* is handled the same way (at most kMaxSplits = 8 splits per step;
// after that the rest of the step is one plain Verlet sub-step).
//
// One-sided forces at a crossing (the documented choice). The elastic force vanishes at δ = 0, but a damper
// with C(0) ≠ 0 (linear dashpot, ECC adaptive damping) jumps there, and the overlap at the located state is
// only zero to root tolerance. So at a crossing of contact i the acceleration (and dissipation power) is the
// ONE-SIDED LIMIT of the side the sub-step is on: the end-of-sub-step value uses the side before the
// crossing (in contact for an exit, free for an entry), the start value of the next sub-step the side
// after it (in contact after an entry, free after an exit). The limit is evaluated at the crossing state
// displaced along the drift, q ± ε N(q) v with ε = 1e-9·h (h the full step), sign chosen so that δ_i lies
// on the wanted side (ε grows ×10 up to 1e-5·h if round-off needs it; ContactCrossing::OneSided). The bias
// is O(ε), i.e. ~1e-9 relative, far below the O(h²) truncation error.
//
// Traits: order 2 (measured by tests/integrators/event_split_velocity_verlet_test.cpp); NOT symplectic
// (sub-steps of state-dependent length break symplecticity). Located crossings are returned as
// LocatedEvent (the crossing state, end of the sub-step).
#pragma once

#include <vector>

#include "integrators/contact_crossing.h"
#include "integrators/integrator.h"

namespace impactlab {

class EventSplitVelocityVerlet final : public Integrator {
 public:
  static constexpr int kMaxSplits = 8;                ///< crossings handled per step

  std::string name() const override { return "velocity_verlet_event"; }
  IntegratorTraits traits() const override;
  void Reset() override { cache_valid_ = false; }

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;

  /// State on the drift polynomial from (start, a_start) at τ (q only; v = v₀ + τ a₀; z, D of the start).
  void Drift(const MechanicalSystem& system, const MechanicalState& start, const Eigen::VectorXd& a_start,
             double tau, MechanicalState& out);

  bool cache_valid_ = false;
  MechanicalState cached_state_;
  Eigen::VectorXd cached_a_;
  // Work storage (members so that a step allocates nothing once sizes are known).
  ContactCrossing crossing_;  ///< overlaps, crossing location, one-sided states
  MechanicalState sub_start_, probe_;
  Eigen::VectorXd a0_, a1_, v_half_, q_dot_, v_new_;
  std::vector<char> side_;  ///< current side of each contact (1 = in contact) along the step
};

}  // namespace impactlab
