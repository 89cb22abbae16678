// FengPowerLawSolution: exact phase-space solution of the power-law Tsuji-damped contact oscillator
// [Seed001 (Feng, arXiv:2603.27764, Theorems 1-2); docs/theory.md §5, §4, §12.8; docs/exact-solution.md].
//
//   m δ̈ + α √(m k) δ^((p−1)/2) δ̇ + k δ^p = 0,   δ(0) = 0,  δ̇(0) = v₀ > 0,   p ≥ 1, α ≥ 0, m, k > 0
//
// δ [m] overlap (> 0 in contact), δ̇ [m/s] its rate (> 0 while loading). SI units; k in N/m^p.
// The force is the unclipped law F = kδ^p + C(δ)δ̇ (attractive just before separation, docs/theory.md §12.1).
//
// Map [Seed001 Theorem 1]. q = 2/(p+1), β = 1 − q = (p−1)/(p+1), A = ((p+1)/2)^(1/(p+1)), δ = A x^q, so that
// W(δ) = k δ^(p+1)/(p+1) = ½ k x². With Ω₀ = √(k/m) and ζ = α/√(2(p+1)) (Feng's α_eff) the phase portrait
// obeys exactly v dv/dx + 2ζΩ₀ v + Ω₀² x = 0 (v = δ̇), i.e. the linear oscillator x'' + 2ζΩ₀x' + Ω₀²x = 0
// in a pseudo-time s with v = dx/ds and dt/ds = dδ/dx = A q x^(q−1).
// We use the dimensionless pseudo-time τ = Ω₀ s and write x = (v₀/Ω₀) X(τ), v = v₀ X'(τ) with
//   X'' + 2ζX' + X = 0, X(0) = 0, X'(0) = 1:
//   ζ < 1 (rebound):    X = e^{−λφ} sin φ / ω,  φ = ωτ ∈ [0, π],  ω = √(1−ζ²), λ = ζ/ω
//   ζ ≥ 1 (over-damped): X = e^{(σ−ζ)τ} (1 − e^{−2στ})/(2σ),  σ = √(ζ²−1)   (X = τ e^{−τ} for ζ = 1)
// Physical time: t(τ) = (A q/Ω₀)(v₀/Ω₀)^{−β} K(τ),  K(τ) = ∫₀^τ X(u)^{−β} du, and for ζ < 1
//   K(τ) = ω^{β−1} J(φ),  J(φ) = ∫₀^φ e^{βλψ} (sin ψ)^{−β} dψ   [docs/theory.md §5].
//
// Closed forms: e = exp(−πλ) (ζ < 1; 0 and no rebound for ζ ≥ 1); maximum compression where X' = 0,
//   τ* = arccos(ζ)/ω (ζ<1), atanh(σ/ζ)/σ (ζ>1), 1 (ζ=1);  X(τ*) = e^{−ζτ*};  δ_max = A (v₀ X(τ*)/Ω₀)^q;
//   W(δ_max)/E₀ = X(τ*)² = e^{−2ζτ*} (= e^{2 arccos(ζ)/π} for ζ < 1), E₀ = ½ m v₀²;
//   undamped t_c0 = (2δ_max/v₀) √π Γ(1 + 1/(p+1)) / Γ(½ + 1/(p+1))   (boost::math::tgamma).
// Loading dissipates E₀ − W(δ_max); unloading W(δ_max) − ½ m (e v₀)² (ζ < 1) or W(δ_max) (ζ ≥ 1: the body
// creeps back to δ = 0 as t → ∞, all energy is dissipated, t_c = +∞ and `rebounds()` is false).
//
// Quadrature (one per quantity, Boost.Math tanh_sinh). The integrand of J is integrable but singular as
// ψ^{−β} at 0 and (π−ψ)^{−β} at π. Following docs/theory.md §5 we split at π/2 and remove both singularities by
//   ψ = w^{1/q} on [0, π/2]:      J_head(φ) = (1/q) ∫₀^{φ^q} (ψ/sin ψ)^β e^{βλψ} dw,
//   ψ = π − w^{1/q} on [π/2, π]:  J(φ) = J(π) − (1/q) ∫₀^{(π−φ)^q} (χ/sin χ)^β e^{βλ(π−χ)} dw,  χ = π − ψ,
// whose integrands are bounded (the ψ^{−β} factor cancels the Jacobian exactly); tanh_sinh then absorbs
// the remaining algebraic non-smoothness in w (ψ = w^{(p+1)/2} is not smooth at w = 0 for non-integer
// (p+1)/2). The over-damped K(τ) uses the same substitution u = w^{1/q} on [0, min(τ, 1)] and a plain
// Gauss-Kronrod rule beyond. p = 1 (β = 0) is evaluated in closed form (J = φ).
// The factor e^{βλφ} (resp. e^{βλπ}) is taken out of each integral, so ζ → 1⁻ (λ → ∞) overflows t_c to +inf
// instead of failing. Inverse map t → τ: solved in the substituted variable w (where dt/dw is finite and
// non-zero at both ends) by safeguarded Newton (boost::math::tools::newton_raphson_iterate) inside the known
// bracket. Trajectory() marches: 20-point Gauss-Legendre panels between consecutive samples (used only when
// a panel is no longer than its distance to w = 0, so the integrand is analytic around it).
// Over-damped states that are not on an entry trajectory: lib/exact/overdamped_contact_segment.h.
#pragma once

#include <limits>
#include <vector>

namespace impactlab {

struct FengPowerLawParameters {
  double mass = 1.0;             ///< m [kg] > 0
  double stiffness = 1.0;        ///< k [N/m^p] > 0
  double exponent = 1.5;         ///< p ≥ 1
  double alpha = 0.0;            ///< Tsuji α ≥ 0 (dimensionless)
  double impact_velocity = 1.0;  ///< v₀ [m/s] > 0
  /// Throws InvalidParameter naming m, k, p, alpha or v0.
  void Validate() const;
};

/// One point of the contact trajectory.
struct PowerLawContactState {
  double t = 0.0;          ///< [s] since first touch
  double delta = 0.0;      ///< δ [m]
  double delta_dot = 0.0;  ///< δ̇ [m/s]
};

class FengPowerLawSolution {
 public:
  explicit FengPowerLawSolution(FengPowerLawParameters parameters);
  /// α from the target restitution e ∈ (0, 1] by α = √(2(p+1)) ξ_L(e) (contact/restitution_calibration.h).
  static FengPowerLawSolution FromRestitution(double mass, double stiffness, double exponent, double e,
                                              double impact_velocity);

  /// The same oscillator hit at another speed. J(φ) depends on (p, α) only, so its cached quadratures
  /// (J(π/2), J(π)) are kept: only the time scale changes (t ∝ v₀^{−β}).
  FengPowerLawSolution WithImpactVelocity(double impact_velocity) const;

  const FengPowerLawParameters& parameters() const { return p_; }
  double zeta() const { return zeta_; }          ///< ζ = α/√(2(p+1))
  double omega0() const { return omega0_; }      ///< Ω₀ = √(k/m) [units of 1/s for p = 1]
  bool rebounds() const { return zeta_ < 1.0; }  ///< false for ζ ≥ 1 (over-damped, t_c = ∞)

  // --- closed forms ------------------------------------------------------------------------------------
  double restitution() const;        ///< e = exp(−πλ); 0 when !rebounds()
  double max_overlap() const;        ///< δ_max [m]
  double exit_velocity() const;      ///< δ̇ at separation = −e v₀ [m/s] (0 when !rebounds())
  double undamped_contact_time() const;  ///< t_c0 of the α = 0 oscillator with the same m, k, p, v₀ [s]
  double initial_energy() const;     ///< E₀ = ½ m v₀² [J]
  double energy_dissipated_loading() const;    ///< E₀ − W(δ_max) [J]
  double energy_dissipated_unloading() const;  ///< W(δ_max) − ½ m (e v₀)² [J] (W(δ_max) if over-damped)

  // --- one quadrature each ---------------------------------------------------------------------------
  double time_of_max_overlap() const;  ///< t_max [s]
  double contact_time() const;         ///< t_c [s]; +infinity when !rebounds()

  // --- trajectory (pseudo-time τ = Ω₀ s; φ = ωτ for ζ < 1) --------------------------------------------
  // A point of the contact is carried as τ together with its complement τ_exit − τ, each computed from the
  // side where it is small: near separation (φ → π) the quantities depend on π − φ, which would be lost to
  // round-off if only φ were stored (δ ∝ (π − φ)^q, so an absolute error 1e-16 in φ would become a
  // relative error of order one in δ at t_c − 1e-7 t_c for p = 3).
  struct Phase {
    double tau = 0.0;          ///< τ ∈ [0, τ_exit]
    double tau_to_exit = 0.0;  ///< τ_exit − τ (+infinity when over-damped)
  };
  /// τ at separation (π/ω), +infinity when over-damped.
  double pseudo_time_at_exit() const;
  /// τ at maximum compression.
  double pseudo_time_at_max_overlap() const { return tau_max_; }
  /// The phase at pseudo-time τ (complement computed as τ_exit − τ).
  Phase PhaseAtPseudoTime(double tau) const;
  /// Physical time since first touch t(τ) [s].
  double TimeAtPhase(const Phase& phase) const;
  /// Time left until separation, t_c − t(τ) [s], without cancellation; +infinity when over-damped.
  double TimeToExit(const Phase& phase) const;
  /// The phase at time t ∈ [0, t_c] (inverse of TimeAtPhase).
  Phase PhaseAtTime(double t) const;
  /// The phase with t_c − t = time_to_exit ≥ 0 (rebounding contacts only).
  Phase PhaseAtTimeToExit(double time_to_exit) const;
  /// Advances `phase` by dt ≥ 0 along a rebounding contact (ζ < 1). `time_to_exit` receives t_c − t(phase)
  /// of the starting phase. Returns false, leaving `phase` unchanged, when separation comes first
  /// (dt ≥ time_to_exit). Costs one tanh_sinh quadrature plus a few 20-point Gauss-Legendre panels (the
  /// panel from the start phase is used while it is no longer than its distance to the singular end).
  bool AdvancePhase(Phase& phase, double dt, double& time_to_exit) const;
  /// (t, δ, δ̇) at a phase (t costs one quadrature).
  PowerLawContactState StateAtPhase(const Phase& phase) const;
  /// δ, δ̇ at a phase in closed form (t is left 0: no quadrature).
  PowerLawContactState KinematicsAtPhase(const Phase& phase) const;
  /// Convenience: t(τ) and τ(t).
  double TimeAtPseudoTime(double tau) const { return TimeAtPhase(PhaseAtPseudoTime(tau)); }
  double PseudoTimeAtTime(double t) const { return PhaseAtTime(t).tau; }
  /// (t, δ, δ̇) at any t ≥ 0. After separation (t > t_c) the body flies off freely: δ = −e v₀ (t − t_c).
  PowerLawContactState StateAtTime(double t) const;
  /// `samples` ≥ 2 equally spaced times on [0, t_end] (t_end = t_c, or 10 t_max if over-damped).
  std::vector<PowerLawContactState> Trajectory(int samples) const;

  /// Elastic energy W(δ) = k δ^(p+1)/(p+1) [J] (0 for δ ≤ 0).
  double ElasticEnergy(double delta) const;

  /// Linear-oscillator state (x, x') → (v₀', τ₀) of the contact trajectory through it: the impact speed
  /// v₀' > 0 of the solution that passes (δ, δ̇) at pseudo-time τ₀ (back-tracing along the phase portrait).
  /// Requires δ ≥ 0 and (δ, δ̇) to lie on an entry trajectory (always for ζ < 1; for ζ ≥ 1 iff
  /// δ̇/(Ω₀x) > σ − ζ, i.e. the state has not passed the slow eigen-direction). Returns false otherwise.
  struct Backtrace {
    double impact_velocity = 0.0;  ///< v₀' [m/s]
    Phase phase;                   ///< τ₀ and τ_exit − τ₀
  };
  static bool BacktraceState(double mass, double stiffness, double exponent, double alpha, double delta,
                             double delta_dot, Backtrace& out);

 private:
  double TimeScale() const;      ///< (A q/Ω₀)(v₀/Ω₀)^{−β}
  double K(double tau) const;    ///< ∫₀^τ X^{−β} (over-damped, or β = 0)
  double JHead(double phi) const;  ///< ∫₀^φ, φ ≤ π/2
  double JTail(double chi) const;  ///< ∫_{π−χ}^π, χ ≤ π/2
  double TimeUnitJ() const;      ///< T ω^{β−1}: t = TimeUnitJ() · J(φ) for ζ < 1
  double HeadIntegrand(double w) const;  ///< dJ/dw on the head, φ = w^{1/q}
  double TailIntegrand(double w) const;  ///< −dJ/dw on the tail, π − φ = w^{1/q}
  double JHalf() const;
  double JPi() const;
  double OverdampedX(double tau) const;
  double OverdampedXDot(double tau) const;

  FengPowerLawParameters p_;
  double q_, beta_, a_, omega0_, zeta_, omega_ = 0.0, lambda_ = 0.0, sigma_ = 0.0;
  double tau_max_ = 0.0;
  // J(π/2), J(π) for ζ < 1, computed on first use (so the closed forms e, δ_max cost no quadrature).
  mutable double j_half_ = std::numeric_limits<double>::quiet_NaN();
  mutable double j_pi_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace impactlab
