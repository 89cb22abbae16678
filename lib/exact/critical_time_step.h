// Critical time step of explicit central-difference / velocity-Verlet schemes for the power-law contact
// F = k δ^p [docs/theory.md §4; Seed000 eq. 15; Seed001 §3D; Belytschko (damped bound)].
//
//   Δt_crit = 2/ω_max,  ω_max² = k_eff(δ_max)/m,  k_eff = (p+1)/2 · k δ^(p−1)   (Feng's effective stiffness)
//   with the undamped δ_max = [(p+1) m v₀²/(2k)]^(1/(p+1)):   Δt_crit = 4 δ_max / ((p+1) v₀)  ∝ v₀^(−(p−1)/(p+1))
//   tangent-stiffness variant (K = W'' = p k δ^(p−1)):       Δt_crit,tan = Δt_crit · √((p+1)/(2p))
//   with Tsuji damping: the local damping ratio C/(2√(m k_eff)) equals ζ = α/√(2(p+1)) at every δ, so
//   Belytschko's bound gives Δt_crit,damped = Δt_crit · (√(1+ζ²) − ζ).
// [A] Which stiffness Feng's "lower bound" uses is unverified (docs/theory.md §11.3); both are reported.
#pragma once

namespace impactlab {

struct CriticalTimeStep {
  double delta_max_undamped = 0.0;  ///< [m]
  double effective = 0.0;           ///< Δt_crit with k_eff [s]
  double tangent = 0.0;             ///< Δt_crit with W'' [s]
  double effective_damped = 0.0;    ///< Belytschko's damped bound with k_eff [s] (= effective if α = 0)
  double tangent_damped = 0.0;      ///< the same damping factor applied to the tangent bound [s]
  double steps_per_contact = 0.0;   ///< undamped t_c0 / Δt_crit = (p+1)/2 I_p
};

/// Throws InvalidParameter unless m, k, v0 > 0, p ≥ 1, α ≥ 0.
CriticalTimeStep PowerLawCriticalTimeStep(double mass, double stiffness, double exponent, double impact_velocity,
                                          double alpha = 0.0);

/// Estimate for a frictional Hertz–Mindlin sphere contact (sphere–wall or sphere–sphere; the models' stability
/// guard, docs/reliability.md): the damped tangent bound of the normal Hertz contact F = k δ^{3/2} with the
/// (reduced) mass m*, approach speed v and Tsuji damping for e_n [docs/theory.md §4], and, when
/// `tangential_compliance` w > 0, the Mindlin spring k_t = 8 G* √(R* δ_max) at the undamped peak overlap acting
/// on w = Σ (1/m_i + R_i²/I_i): Δt = min(Δt_n, 2/√(k_t w)). Pass w = 0 for a frictionless contact.
double HertzMindlinCriticalTimeStep(double reduced_mass, double hertz_coefficient, double approach_speed, double e_n,
                                    double shear_modulus_star, double radius_star, double tangential_compliance);

}  // namespace impactlab
