// BilateralLinearSpring: a linear spring acting in tension and compression, W(δ) = ½ k δ² for ALL δ
// (not a contact law: no unilateral cut at δ = 0). It gives smooth reference problems (the harmonic
// oscillator) for convergence-order measurements of schemes that are written in terms of contact terms
// [Hairer, Lubich & Wanner 2006, §I.1]. k [N/m] > 0.
#pragma once

#include "contact/normal_contact_law.h"
#include "core/checks.h"

namespace impactlab {

class BilateralLinearSpring final : public NormalContactLaw {
 public:
  explicit BilateralLinearSpring(double k) : k_(RequirePositive("k", k)) {}
  std::string name() const override { return "bilateral_linear_spring"; }
  std::string reference() const override { return "W = k delta^2 / 2 for all delta (smooth reference)"; }
  double Potential(double delta) const override { return 0.5 * k_ * delta * delta; }
  double Force(double delta) const override { return k_ * delta; }
  double Stiffness(double) const override { return k_; }
  double EffectiveStiffness(double) const override { return k_; }
  double coefficient() const override { return k_; }
  double exponent() const override { return 1.0; }

 private:
  double k_;
};

}  // namespace impactlab
