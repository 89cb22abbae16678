// EventSplitRungeKutta4 (`rk4_event`): the classical fourth-order Runge–Kutta method whose step is split at
// every contact onset / release located inside it [docs/theory.md §12.3, §7 "Contact onset and expected order"].
//
// One sub-step of length τ from y₀ = [q, v, z, D] (the first-order form, integrators/first_order_form.h) is
// Boost.Odeint's runge_kutta4 (Kutta 1901; Hairer, Nørsett & Wanner, Solving ODEs I, 1993, Table II.1.2):
//   k₁ = F(y₀),  k₂ = F(y₀ + τ/2 k₁),  k₃ = F(y₀ + τ/2 k₂),  k₄ = F(y₀ + τ k₃),
//   y(τ) = y₀ + τ/6 (k₁ + 2k₂ + 2k₃ + k₄),
// every stage seeing the history UpdateHistory(sub-step start, stage), the history committed at the end of
// every sub-step.
//
// Splitting. From the sub-step start, a trial sub-step over the remaining length r is taken. If the overlap
// sign of some contact i differs between its current side and the trial end, the crossing
//   f_i(τ) = δ_i(y(τ)) = 0,   y(τ) the RK4 sub-step of length τ from the sub-step start,
// is located with Boost.Math toms748_solve to 1e-15·h (ContactCrossing::LocateEarliest,
// integrators/contact_crossing.h, shared with velocity_verlet_event); the earliest crossing τ* over the
// contacts is taken as a sub-step, the side of contact i flipped, and the remainder r − τ* handled the same way
// (at most kMaxSplits = 8 splits per step; then the rest of the step is one plain sub-step). Only the end
// state of a sub-step is checked: a contact that enters and leaves within one trial sub-step is not split.
//
// One-sided stages. A damper with C(0) ≠ 0 (linear dashpot, ECC adaptive damping) jumps at δ = 0. Inside a
// sub-step that ends on a crossing of contact i, the last stage y₀ + τ k₃ lies O(τ³) from the located state and
// may sit on the far side; a sub-step that starts on a crossing has its first stage on δ_i = 0 to root
// tolerance. So in every sub-step the contacts it starts or ends on are PINNED to the side the sub-step lies
// on: a stage on the other side is evaluated at its projection onto δ_i = 0 along its drift, displaced by
// ε = 1e-9·h into the pinned side (ContactCrossing::PinnedSide), the one-sided limit of the force. The
// position rate N(q) v is taken at the stage itself; acceleration, history rate and dissipation power at the
// pinned state. The pinned sub-step is then RK4 on a right-hand side that is smooth up to the projection's
// O(τ³) displacement of one stage, a local error O(τ⁴) per crossing, O(h⁴) over the finite number of
// crossings. The same pinned right-hand side is used inside the root function, so f_i is continuous in τ.
//
// Without a crossing inside the step (and no crossing at its start) the step is the plain rk4 step, bit for bit
// (tests/integrators/event_split_runge_kutta4_test.cpp).
//
// Traits: order 4 for laws smooth on each side of δ = 0 (linear spring–dashpot: measured by the test above).
// The split removes the jump; it does not make a law smooth at δ = 0 from the contact side: on a power law
// F ∝ δ^p (Hertz p = 3/2) a fixed step stays limited to min(4, p + 1) (docs/exact-solution.md §5). Located
// contact crossings are returned as LocatedEvent (the crossing state, end of the sub-step).
//
// Switches. The model's switch functions g_j (MechanicalSystem::SwitchFunctions, e.g. the stick → slip switch of
// a tangential spring, g = 1 − |F_tr|/(μ F_n) with the history committed from the sub-step start) are further
// event functions, g_j − kSwitchRoundOff: a change from + to − at the trial end is located like a crossing and
// ends the sub-step; nothing is pinned (the force is continuous at a kink), the switch is not reported as a
// LocatedEvent, and each switch function is split at most once per step. Removing the kink's O(h²) local error
// gives the Hertz onset order 2.5 on sphere_wall_thornton (tests/integrators/stick_slip_switch_test.cpp).
#pragma once

#include <memory>
#include <vector>

#include "integrators/contact_crossing.h"
#include "integrators/integrator.h"

namespace impactlab {

class EventSplitRungeKutta4 final : public Integrator {
 public:
  static constexpr int kMaxSplits = 8;  ///< crossings handled per step
  /// A switch function counts as crossed when it falls below this (round-off of a relative cap margin).
  static constexpr double kSwitchRoundOff = 1e-12;

  EventSplitRungeKutta4();
  ~EventSplitRungeKutta4() override;
  std::string name() const override { return "rk4_event"; }
  IntegratorTraits traits() const override;

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;
  struct Workspace;  // the odeint stepper and buffers, kept across steps
  std::unique_ptr<Workspace> work_;
};

}  // namespace impactlab
