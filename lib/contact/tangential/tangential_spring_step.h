// The two step kinds every Hertz–Mindlin tangential law of impactlab reduces to [docs/theory.md §6]:
//
//  Integral spring (history = spring displacement δ_t, 3 entries):
//     δ_t ← rotate(δ_t);   F′ = −k_new δ_t;   F_tr = −k_new (δ_t + Δs);   cap;   δ_t ← −F_t / k_new
//     U = ½ k |δ_t|²   (Tsuji 1992 [Seed002 eqs. 16–19]; Di Renzo–Di Maio; Cundall–Strack with constant k)
//  Incremental spring (history = spring force F_t, 3 entries):
//     F_t ← rotate(F_t);   F′ = λ F_t;   F_tr = F′ − k_inc Δs;   cap;   F_t ← capped
//     U = |F_t|²/(2 k_t(δ_n))   (Oda–Iwashita λ = 1, k_inc = k_t(δ_n,prev) [Seed002 eqs. 14–15];
//                                Thornton 2013 λ = √(δ_n/δ_n,prev) when ΔF_n < 0, k_inc = k_t(δ_n) [eqs. 8–11])
// Both then call FinishTangentialStep (cap, spring reset, energy split; tangential_law.h).
//
// Slip → stick inside the step (tangential_law.h; docs/theory.md §6, "Switches inside a step"): when the
// kinematics carry the committed state's rates (start.step > 0), the committed spring is on the cone
// (k_prev |δ_t| resp. |F_t| ≥ (1 − 10⁻⁹) μ F_n,prev > 0) and e is its slip direction, the excess of the stuck
// trial over the cone along e and its rate at the start are
//   integral:     m₁ = e·Δs − (ρ₁ − ρ₀),  ρ = μ F_n/k (the cone in δ_t),
//                 G = h (e·v_s − ρ̇₀),      ρ̇₀ = μ (Ḟ_n k_prev − F_n,prev k̇_prev)/k_prev²      [m]
//   incremental:  m₁ = −e·F_tr − μ F_n,
//                 G = h (λ̇₀ |F′₀| + k_prev e·v_s − μ Ḟ_n)                                      [N]
// (e = δ_t/|δ_t| resp. −F_t/|F_t|; k̇_prev = dk_t/dt and λ̇₀ = dλ/dt at the committed state, given by the law),
// and the trial is corrected by λ* = SwitchSlip(G, m₁): F_tr ← F_tr + k_new λ* e resp. F_tr + λ* e.
#pragma once

#include "contact/tangential/tangential_law.h"

namespace impactlab {

/// Integral spring step with stiffnesses k_prev = k(δ_n,prev) and k_new = k(δ_n) [N/m]; k_prev_rate = dk/dt at the
/// committed state [N/(m·s)] (0 for a constant stiffness; used only with kin.start, above).
TangentialResponse IntegralSpringStep(const TangentialKinematics& kin, std::span<const double> z_prev,
                                      std::span<double> z_next, double k_prev, double k_new, double mu,
                                      double k_prev_rate = 0.0);

/// Incremental spring step: predicted force λ·F_prev, increment stiffness k_inc, storage stiffnesses
/// k_prev (for U_prev) and k_new (for U_new) [N/m]; lambda_rate = dλ/dt at the committed state [1/s] (used only
/// with kin.start, above).
TangentialResponse IncrementalSpringStep(const TangentialKinematics& kin, std::span<const double> z_prev,
                                         std::span<double> z_next, double lambda, double k_inc, double k_prev,
                                         double k_new, double mu, double lambda_rate = 0.0);

/// |F|²/(2k), 0 when k = 0.
inline double SpringEnergyFromForce(const Eigen::Vector3d& force, double k) {
  return k > 0.0 ? force.squaredNorm() / (2.0 * k) : 0.0;
}

}  // namespace impactlab
