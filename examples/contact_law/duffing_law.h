// DuffingLaw: a stiffening elastic contact, F(δ) = k δ + k₃ δ³ for δ > 0 (a linear spring hardened by a
// cubic term, the restoring force of Duffing's oscillator [Duffing 1918; Kovacic & Brennan 2011, eq. 1.1]
// cut off at δ = 0 so that it acts only in compression).
//
//   W(δ) = ½ k δ² + ¼ k₃ δ⁴,   F = W′ = k δ + k₃ δ³,   K = F′ = k + 3 k₃ δ²,
//   k_eff = W′² / (2W) = (k + k₃δ²)² / (k + ½ k₃ δ²)   (regular at δ → 0: k_eff(0) = k)
//
// k [N/m] > 0, k₃ [N/m³] ≥ 0. As a power law it reports (k, 1): the linear part, which the Tsuji damping
// calibration uses. Written against impactlab's NormalContactLaw (contact/normal_contact_law.h) only.
#pragma once

#include "contact/normal_contact_law.h"
#include "core/checks.h"

class DuffingLaw final : public impactlab::NormalContactLaw {
 public:
  DuffingLaw(double k, double k3) : k_(impactlab::RequirePositive("k", k)), k3_(impactlab::RequireNonNegative("k3", k3)) {}
  std::string name() const override { return "duffing"; }
  std::string reference() const override { return "F = k delta + k3 delta^3 (Duffing 1918)"; }
  double Potential(double d) const override { return d <= 0 ? 0.0 : 0.5 * k_ * d * d + 0.25 * k3_ * d * d * d * d; }
  double Force(double d) const override { return d <= 0 ? 0.0 : k_ * d + k3_ * d * d * d; }
  double Stiffness(double d) const override { return d < 0 ? 0.0 : k_ + 3.0 * k3_ * d * d; }
  double EffectiveStiffness(double d) const override {
    const double x = d > 0 ? d * d : 0.0;
    return (k_ + k3_ * x) * (k_ + k3_ * x) / (k_ + 0.5 * k3_ * x);
  }
  double coefficient() const override { return k_; }
  double exponent() const override { return 1.0; }

 private:
  double k_, k3_;
};
