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
#pragma once

#include "contact/tangential/tangential_law.h"

namespace impactlab {

/// Integral spring step with stiffnesses k_prev = k(δ_n,prev) and k_new = k(δ_n) [N/m].
TangentialResponse IntegralSpringStep(const TangentialKinematics& kin, std::span<const double> z_prev,
                                      std::span<double> z_next, double k_prev, double k_new, double mu);

/// Incremental spring step: predicted force λ·F_prev, increment stiffness k_inc, storage stiffnesses
/// k_prev (for U_prev) and k_new (for U_new) [N/m].
TangentialResponse IncrementalSpringStep(const TangentialKinematics& kin, std::span<const double> z_prev,
                                         std::span<double> z_next, double lambda, double k_inc, double k_prev,
                                         double k_new, double mu);

/// |F|²/(2k), 0 when k = 0.
inline double SpringEnergyFromForce(const Eigen::Vector3d& force, double k) {
  return k > 0.0 ? force.squaredNorm() / (2.0 * k) : 0.0;
}

}  // namespace impactlab
