// Mindlin's no-slip tangential stiffness of a Hertz contact [Mindlin 1949; Seed002 §2, eqs. 11, 15, 19]:
//   k_t(δ_n) = 8 G* √(R δ_n) = 8 G* a      [N/m],  a = √(R δ_n) the contact radius
//   1/G* = (2 − ν₁)/G₁ + (2 − ν₂)/G₂,  G_i = E_i / (2(1 + ν_i))      [docs/theory.md §6]
// (Seed002 writes k_t^c = 8 G* √R and k_t = k_t^c √δ_n.) k_t(δ_n) = 0 for δ_n ≤ 0.
#pragma once

#include <cmath>

namespace impactlab {

struct MindlinStiffness {
  double shear_modulus = 0.0;  ///< G* [Pa] > 0
  double radius = 0.0;         ///< R [m] > 0 (effective radius; the sphere's radius against a wall)

  /// Throws InvalidParameter naming the field unless both are positive and finite.
  void Validate() const;
  double operator()(double delta_n) const {
    return delta_n > 0.0 ? 8.0 * shear_modulus * std::sqrt(radius * delta_n) : 0.0;
  }
  /// dk_t/dt = k_t(δ_n) δ̇_n/(2 δ_n) [N/(m·s)] at overlap δ_n and rate δ̇_n (0 for δ_n ≤ 0).
  double Rate(double delta_n, double delta_n_rate) const {
    return delta_n > 0.0 ? (*this)(delta_n) * delta_n_rate / (2.0 * delta_n) : 0.0;
  }
};

}  // namespace impactlab
