// PlanarPenalty: the enhanced penalty contact law of EFDA (Seed003 §3, §5, eqs. 7, 8, 17, 18), shared by the
// EFDA integrator and by the planar models (so explicit / ODE baselines see the same law).
//
//   normal:      V_N = ½ K_N ⟨δ⟩²,  F_N = K_N δ + c_N δ̇          (F_N > 0 repulsive, never clipped, §12.1)
//   tangential:  V_T = ½ K_T g_T²,   F_T = K_T g_T + c_T ġ_T      (stick; g_T = elastic tangential spring)
//   Coulomb:     |F_T| ≤ μ |F_N|; slip: F_T = Ψ μ |F_N|, Ψ = ±1 the slip direction (Seed003 eq. 7)
//   dashpots:    c_X = 2 ξ_X √(K_X m), m the larger mass of the two bodies (Seed003 eq. 18, read with the
//                square root, docs/theory.md §8 item 18; the wall counts as the lighter body).
// Units: K [N/m], ξ [-], μ [-].
#pragma once

#include <cmath>

#include "core/checks.h"

namespace impactlab {

struct PlanarPenalty {
  double normal_stiffness = 1e6;        ///< K_N [N/m] > 0
  double tangential_stiffness = 1e6;    ///< K_T [N/m] > 0
  double normal_damping_ratio = 0.0;    ///< ξ_N ≥ 0
  double tangential_damping_ratio = 0.0;  ///< ξ_T ≥ 0
  double friction_coefficient = 0.0;    ///< μ ≥ 0

  void Validate() const {
    RequirePositive("K_N", normal_stiffness);
    RequirePositive("K_T", tangential_stiffness);
    RequireNonNegative("xi_N", normal_damping_ratio);
    RequireNonNegative("xi_T", tangential_damping_ratio);
    RequireNonNegative("mu", friction_coefficient);
  }
  /// c_N = 2 ξ_N √(K_N m) [N s/m].
  double NormalDashpot(double larger_mass) const {
    return 2.0 * normal_damping_ratio * std::sqrt(normal_stiffness * larger_mass);
  }
  /// c_T = 2 ξ_T √(K_T m) [N s/m].
  double TangentialDashpot(double larger_mass) const {
    return 2.0 * tangential_damping_ratio * std::sqrt(tangential_stiffness * larger_mass);
  }
};

}  // namespace impactlab
