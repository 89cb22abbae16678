// Rigid-body oblique impact of a solid sphere (I = 2/5 m R², no initial spin) on a fixed wall with Coulomb
// friction μ and normal restitution e_n, Poisson/Newton (identical here) [docs/theory.md §6 "Gross-slip rigid
// limit"; Seed002 Walton–Braun scaling; verified by the Routh solver of docs/theory.md §8]:
//
//   x = 7/2 μ (1 + e_n) |cot γ|
//   gross slip (x < 1):  e_t = 1 − μ(1 + e_n)|cot γ|,   β = −1 + 7/2 μ(1 + e_n)|cot γ|
//   stick      (x ≥ 1):  e_t = 5/7,                      β = 0
//
// γ is the impact angle of Seed002 (180° = normal impact, 90° = grazing), so |cot γ| = |v_n/v_t|.
// e_t uses the tangential centre-of-mass velocity, β = −v_s⁺/v_s⁻ the contact-point slip velocity
// [docs/theory.md §1]. Both branches agree at x = 1 (continuous, with a kink). Templated for ceres::Jet.
// Note: in gross slip (e_t, β) depend on μ(1 + e_n) only; μ and e_n are separately identifiable only with
// measured e_n (see sphere_friction_fit.h).
#pragma once

#include <cmath>
#include <numbers>

namespace impactlab::calibration {

template <typename T>
struct SphereTangentialRestitution {
  T e_t;
  T beta;
  bool sticks;
};

/// |cot γ| for γ in degrees; γ → 180° (normal impact) gives +∞ (stick).
inline double AbsCotImpactAngle(double gamma_deg) {
  const double g = gamma_deg * std::numbers::pi / 180.0;
  return std::abs(std::cos(g) / std::sin(g));
}

template <typename T>
SphereTangentialRestitution<T> RigidSphereTangentialRestitution(const T& mu, const T& e_n, double abs_cot_gamma) {
  const T s = mu * (T(1.0) + e_n) * abs_cot_gamma;
  if (!std::isfinite(abs_cot_gamma) || 3.5 * s >= T(1.0)) return {T(5.0 / 7.0), T(0.0), true};
  return {T(1.0) - s, T(-1.0) + 3.5 * s, false};
}

}  // namespace impactlab::calibration
