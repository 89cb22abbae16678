// Rigid-body (impulsive) theory of an oblique sphere–wall impact with Coulomb friction: gross sliding and
// sticking [Walton & Braun 1986/1992; Maw, Barber & Fawcett 1976; Seed002 §1, §4; docs/theory.md §6 "Gross-slip
// rigid limit"].
//
// Solid sphere, I = 2/5 m R². With the normal impulse P_n = m (1 + e_n) v_n (Poisson = Newton here), the
// slip velocity of the contact point changes by Δv_s = (7/2) P_t/m. Walton's three-parameter model:
//   ψ = (7/2) μ (1 + e_n) |v_n| / |v_s|        (no initial spin: v_s = v_t, ψ = 7/2 (1+e_n) μ |cot γ|)
//   gross sliding  (ψ < 1 + β₀):   β = −1 + ψ
//   sticking       (ψ ≥ 1 + β₀):   β = β₀       (β₀ = 0 for rigid sticking; > 0 with tangential elasticity)
//   v_s⁺ = −β v_s⁻,   P_t = −(2/7) m (1 + β) v_s⁻,   v_t⁺ = v_t⁻ − (2/7)(1 + β) v_s⁻,
//   ω_y⁺ = ω_y⁻ + (5/7)(1 + β) v_s⁻ / R   (planar, impactlab frame: v_s = v_x − R ω_y, r = −R e_z)
// Without initial spin: e_t = v_t⁺/v_t⁻ = 1 − (2/7)(1 + β), so in gross sliding e_t = 1 − μ(1+e_n)|cot γ|.
#pragma once

#include <optional>

namespace impactlab {

struct RigidSphereImpactInput {
  double normal_speed = 0.0;       ///< |v_n| before impact [m/s] > 0
  double tangential_velocity = 0.0;  ///< v_x⁻ (centre) [m/s]
  double omega_y = 0.0;            ///< ω_y⁻ [rad/s]
  double radius = 1.0;             ///< R [m] > 0
  double mu = 0.0;                 ///< friction coefficient ≥ 0
  double e_n = 1.0;                ///< normal restitution in [0, 1]
  double beta0 = 0.0;              ///< sticking tangential restitution in [−1, 1]
};

struct RigidSphereImpactResult {
  double psi = 0.0;                 ///< ψ (infinite when v_s = 0)
  bool sticking = false;
  double beta = 0.0;                ///< −v_s⁺/v_s⁻
  double tangential_velocity = 0.0; ///< v_x⁺ [m/s]
  double omega_y = 0.0;             ///< ω_y⁺ [rad/s]
  std::optional<double> e_t;        ///< v_x⁺/v_x⁻ (nullopt when v_x⁻ = 0)
};

/// Throws InvalidParameter for out-of-range input.
RigidSphereImpactResult RigidSphereImpact(const RigidSphereImpactInput& input);

/// Gross-sliding / sticking curves without initial spin as functions of ψ: β(ψ) = min(−1 + ψ, β₀),
/// e_t(ψ) = 1 − (2/7)(1 + β(ψ)).
double RigidBetaOfPsi(double psi, double beta0 = 0.0);
double RigidTangentialRestitutionOfPsi(double psi, double beta0 = 0.0);

}  // namespace impactlab
