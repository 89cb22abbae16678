// OverdampedContactSegment: the exact over-damped (ζ ≥ 1) power-law Tsuji contact through an ARBITRARY
// in-contact state (δ₀ > 0, δ̇₀), for states that do not lie on an entry trajectory from δ = 0 (those are
// handled by FengPowerLawSolution::BacktraceState). Same map as lib/exact/feng_power_law_solution.h
// [Seed001; docs/theory.md §5]: x = √(2/(p+1)) δ^((p+1)/2), v = δ̇ = dx/ds, x'' + 2ζΩ₀x' + Ω₀²x = 0.
//
// In τ = Ω₀ s, x = x₀ ξ(τ), R = δ̇₀/(Ω₀x₀), r₁ = σ − ζ (slow), r₂ = −σ − ζ (fast), σ = √(ζ²−1):
//   ζ > 1:  ξ = A₁ e^{r₁τ} + A₂ e^{r₂τ},  A₁ = (R − r₂)/(r₁ − r₂),  A₂ = (r₁ − R)/(r₁ − r₂)
//   ζ = 1:  ξ = (1 + (R + 1)τ) e^{−τ}
// The segment leaves the wall (ξ = 0 at finite τ_z) iff A₁ < 0 (R < r₂; ζ = 1: R < −1):
//   τ_z = ln((r₁ − R)/(r₂ − R))/(r₁ − r₂)   (ζ = 1: τ_z = −1/(R + 1)),  then δ̇_exit = x₀ Ω₀ ξ'(τ_z) < 0.
// Physical time t(τ) = (A q/Ω₀) x₀^{−β} ∫₀^τ ξ^{−β} du; near τ_z the integrand is singular as (τ_z − u)^{−β}
// and is integrated in w with τ_z − u = w^{1/q} (the Jacobian cancels the singularity), and ξ is evaluated
// from τ_z − u directly (ξ = −A₂ e^{r₂u} expm1(−(r₁−r₂)(τ_z−u))) to avoid cancellation.
#pragma once

#include "exact/feng_power_law_solution.h"

namespace impactlab {

class OverdampedContactSegment {
 public:
  /// Throws InvalidParameter unless m, k > 0, p ≥ 1, ζ = α/√(2(p+1)) ≥ 1, δ₀ > 0, δ̇₀ finite.
  OverdampedContactSegment(double mass, double stiffness, double exponent, double alpha, double delta0,
                           double delta_dot0);
  bool exits() const { return exits_; }
  /// Time from the initial state to separation [s] (+infinity if it never separates).
  double time_to_exit() const;
  /// δ̇ at separation [m/s] (< 0), 0 if it never separates.
  double exit_velocity() const;
  /// (t, δ, δ̇) a time dt ≥ 0 after the initial state, dt ≤ time_to_exit().
  PowerLawContactState StateAfter(double dt) const;

 private:
  double Xi(double tau) const;        ///< ξ(τ)
  double XiDot(double tau) const;     ///< ξ'(τ)
  double XiNearExit(double d) const;  ///< ξ(τ_z − d), accurate for small d
  double Integral(double tau) const;  ///< ∫₀^τ ξ^{−β}
  double TimeScale() const;

  double m_, k_, p_, q_, beta_, a_, omega0_, zeta_, sigma_, x0_, r_, r1_, r2_, a1_ = 0.0, a2_ = 0.0;
  bool exits_ = false;
  double tau_exit_;
};

}  // namespace impactlab
