// Rigid-body impulsive impact of a planar body against a fixed wall with Coulomb friction, by Routh's method
// in the normal-impulse plane (docs/theory.md §8 "Rigid impulsive reference"; Stronge, Impact Mechanics 2000).
//
// Contact-point velocity u = v + ω ẑ×r (r = contact point − centre), impulse P = P_t t + P_n n, with n the
// wall normal into the body and t any unit tangent. Then u(P) = u⁻ + W P with
//   W_tt = 1/m + (r×t)²/I,  W_tn = W_nt = (r×t)(r×n)/I,  W_nn = 1/m + (r×n)²/I     (× = planar cross product).
// u is piecewise linear in the accumulated normal impulse P_n:
//   slip (u_t ≠ 0):  dP_t/dP_n = −μ sgn(u_t);
//   u_t reaches 0:   stick if |W_tn| ≤ μ W_tt (dP_t/dP_n = −W_tn/W_tt), else slip reverses, s = sgn(W_tn);
//   du_t/dP_n = W_tt P_t' + W_tn,  du_n/dP_n = W_nn + W_tn P_t' (> 0 required, else jam → InvalidParameter).
// Compression ends at u_n = 0 (P_c, work W_c = ∫ u_n dP_n < 0). Termination:
//   Newton  u_n = −e u_n⁻;   Poisson  P_n = (1 + e) P_c;   Stronge  ∫_{P_c}^{P_f} u_n dP_n = e² |W_c|.
// Final state: v⁺ = v⁻ + P/m, ω⁺ = ω⁻ + r×P / I.
#pragma once

#include <Eigen/Core>
#include <string>

namespace impactlab {

enum class RestitutionHypothesis { kNewton, kPoisson, kStronge };

/// "newton" | "poisson" | "stronge" → hypothesis (InvalidParameter naming `key` otherwise).
RestitutionHypothesis ParseRestitutionHypothesis(const std::string& key, const std::string& value);

struct RouthImpactInput {
  double mass = 1.0;     ///< [kg]
  double inertia = 1.0;  ///< [kg m²]
  Eigen::Vector2d normal = Eigen::Vector2d::UnitY();   ///< wall normal into the body (unit)
  Eigen::Vector2d lever = Eigen::Vector2d::Zero();     ///< r = contact point − centre [m]
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();  ///< v⁻ [m/s]
  double omega = 0.0;                                  ///< ω⁻ [rad/s], counter-clockwise
  double friction = 0.0;                               ///< μ ≥ 0
  double restitution = 1.0;                            ///< e ∈ [0, 1]
  RestitutionHypothesis hypothesis = RestitutionHypothesis::kStronge;
};

struct RouthImpactResult {
  Eigen::Vector2d velocity;   ///< v⁺
  double omega = 0.0;         ///< ω⁺
  double normal_impulse = 0.0;       ///< P_n [N s]
  double tangential_impulse = 0.0;   ///< P_t along t = ẑ × n [N s]
  double compression_impulse = 0.0;  ///< P_c
  double normal_velocity_before = 0.0, normal_velocity_after = 0.0;  ///< u_n⁻, u_n⁺ at the contact point
  double kinetic_energy_ratio = 1.0;  ///< K⁺/K⁻
  bool stuck = false;     ///< slip stopped (stick phase occurred)
  bool reversed = false;  ///< slip reversed
  int segments = 0;
};

/// Throws InvalidParameter for u_n⁻ ≥ 0 (not approaching), bad parameters, or jam (du_n/dP_n ≤ 0).
RouthImpactResult SolveRouthImpact(const RouthImpactInput& input);

}  // namespace impactlab
