// Rigid-body (impulsive) theory of a planar impact of two solid spheres with Coulomb friction: gross slip
// and (rigid, β₀ = 0) stick [Walton & Braun 1986; docs/theory.md §6 "Gross-slip rigid limit", the sphere–wall
// version in rigid_sphere_impact_theory.h; Chung & Ooi 2011 Tests 7–8].
//
// Frame of models/sphere_pair_impact.h: n = e_z from sphere 1 to sphere 2, tangential direction e_x, spins
// about e_y. Slip velocity (sphere 2's contact point relative to sphere 1's) v_s = v₂ₓ − v₁ₓ − R₁ω₁ᵧ − R₂ω₂ᵧ.
// Normal impulse on sphere 2: P_n = m*(1 + e_n) v_n (v_n the approach speed, m* = m₁m₂/(m₁+m₂)).
// Tangential impulse J on sphere 2 (−J on sphere 1):
//   Δv₂ₓ = J/m₂, Δv₁ₓ = −J/m₁, Δω₁ᵧ = −R₁J/I₁, Δω₂ᵧ = −R₂J/I₂  ⇒  Δv_s = J/m_t,
//   1/m_t = 1/m₁ + 1/m₂ + R₁²/I₁ + R₂²/I₂ = (7/2)(1/m₁ + 1/m₂) for solid spheres (Iᵢ = 2/5 mᵢRᵢ²).
//   ψ = μ P_n / (m_t |v_s⁻|) = (7/2) μ (1 + e_n) v_n / |v_s⁻|
//   gross slip (ψ < 1): J = −μ P_n sign(v_s⁻)   (v_s⁺ = (1 − ψ) v_s⁻)
//   stick     (ψ ≥ 1): J = −m_t v_s⁻            (v_s⁺ = 0)
#pragma once

namespace impactlab {

struct RigidSpherePairInput {
  double m1 = 1.0, m2 = 1.0;   ///< [kg] > 0
  double R1 = 1.0, R2 = 1.0;   ///< [m] > 0
  double normal_speed = 0.0;   ///< approach speed v_n > 0 [m/s]
  double v1x = 0.0, v2x = 0.0; ///< tangential centre velocities before [m/s]
  double w1y = 0.0, w2y = 0.0; ///< spins before [rad/s]
  double mu = 0.0;             ///< ≥ 0
  double e_n = 1.0;            ///< in [0, 1]
};

struct RigidSpherePairResult {
  double psi = 0.0;            ///< infinite when v_s⁻ = 0
  bool sticking = false;
  double impulse = 0.0;        ///< J on sphere 2 [N s]
  double v1x = 0.0, v2x = 0.0, w1y = 0.0, w2y = 0.0;  ///< after
  double slip_before = 0.0, slip_after = 0.0;          ///< v_s [m/s]
};

/// Throws InvalidParameter for out-of-range input.
RigidSpherePairResult RigidSpherePairImpact(const RigidSpherePairInput& input);

}  // namespace impactlab
