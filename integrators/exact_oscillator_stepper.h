// ExactOscillatorStepper ("exact"): advances the 1-DOF power-law Tsuji contact oscillator by its exact
// solution [Seed001; docs/theory.md §5; lib/exact/feng_power_law_solution.h], for any step h and any state.
//
//   free flight (δ < 0, or δ = 0 with δ̇ ≤ 0):  δ(t+h) = δ + δ̇ h   (no gravity)
//   in contact (δ > 0, or δ = 0 with δ̇ > 0):    back-trace the state along the exact phase portrait to the
//       entry trajectory through it (impact speed v₀', pseudo-time τ₀, t₀ = t(τ₀)), then read the exact
//       solution at t₀ + h; if t₀ + h ≥ t_c(v₀') the body leaves at δ̇ = −e v₀' and flies on freely.
// Entry inside a step (δ reaches 0 after y/|v|), exit inside a step and re-entry are all handled; entry and
// exit are reported as LocatedEvent with their exact states. Dense output (Interpolate) is exact too.
// Dissipated work D advances by the exact energy drop E(t) − E(t+h) (no other forces act).
// statistics().rhs_evaluations counts evaluations of the exact solution (one per in-contact phase of a step).
//
// The system must implement PowerLawOscillatorStructure (models/contact_oscillator does); otherwise, or when
// the laws are not power law + Tsuji-form damping, or g ≠ 0, Step throws InvalidParameter("integrator", ...)
// naming the reason (construction never fails, so the registry can list it). Over-damped states that are not on an entry
// trajectory (only reachable from hand-made initial states) follow their own exact segment
// (lib/exact/overdamped_contact_segment.h), which may leave the wall.
#pragma once

#include <optional>

#include "exact/feng_power_law_solution.h"
#include "integrators/integrator.h"

namespace impactlab {

class ExactOscillatorStepper final : public Integrator {
 public:
  ExactOscillatorStepper() = default;
  std::string name() const override { return "exact"; }
  IntegratorTraits traits() const override;
  void Reset() override {
    last_start_.reset();
    base_.reset();
  }
  /// Exact state at t inside the last accepted step.
  std::optional<MechanicalState> Interpolate(const MechanicalSystem& system, double t) const override;

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;
  std::optional<MechanicalState> last_start_;
  // Cached solution of the current oscillator (its J(π/2), J(π) depend on p, α only); mutable because the
  // exact dense output reuses it.
  mutable std::optional<FengPowerLawSolution> base_;
  double last_end_t_ = 0.0;
};

}  // namespace impactlab
