// GeneralizedAlphaParameters: the one parameter set (α_m, α_f, β, γ) of the Newmark / HHT-α /
// generalized-α family, with named constructors [Chung & Hulbert 1993, J. Appl. Mech. 60:371; Hilber,
// Hughes & Taylor 1977; Newmark 1959; docs/theory.md §9]:
//
//   FromSpectralRadius(ρ∞):  α_m = (2ρ∞ − 1)/(ρ∞ + 1), α_f = ρ∞/(ρ∞ + 1),
//                            γ = ½ − α_m + α_f, β = ¼ (1 − α_m + α_f)²            (ρ∞ ∈ [0, 1])
//   Hht(α_H):                α_m = 0, α_f = −α_H, β = (1 − α_H)²/4, γ = ½ − α_H   (α_H ∈ [−⅓, 0])
//   Newmark(β, γ):           α_m = α_f = 0                                         (β ∈ (0, ½], γ ∈ [½, 1])
//   Trapezoidal():           Newmark(¼, ½)
// Sign convention: weighted quantities x_{n+1−α} = (1 − α) x_{n+1} + α x_n (Chung–Hulbert).
#pragma once

namespace impactlab {

struct GeneralizedAlphaParameters {
  double alpha_m = 0.0;
  double alpha_f = 0.0;
  double beta = 0.25;
  double gamma = 0.5;

  static GeneralizedAlphaParameters FromSpectralRadius(double rho_inf);
  static GeneralizedAlphaParameters Hht(double alpha_hht);
  static GeneralizedAlphaParameters Newmark(double beta, double gamma);
  static GeneralizedAlphaParameters Trapezoidal() { return Newmark(0.25, 0.5); }
  /// Well-posedness (not linear unconditional stability): β ∈ (0, 1], γ ∈ [½, 1.5], α_m ∈ [−1, ½],
  /// α_f ∈ [0, ½]; throws InvalidParameter naming the field otherwise.
  void Validate() const;
};

}  // namespace impactlab
