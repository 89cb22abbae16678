// PowerLaw: F = k δ^p for any p ≥ 1 (p = 1 linear spring, p = 3/2 Hertz, p = 2 cone-like).
//   W = k δ^(p+1)/(p+1),  dF/dδ = p k δ^(p−1),  k_eff = (p+1)/2 · k δ^(p−1)  [docs/theory.md §2; Seed001]
#pragma once

#include "contact/normal_contact_law.h"

namespace impactlab {

class PowerLaw : public NormalContactLaw {
 public:
  /// Throws InvalidParameter unless k > 0 and p ≥ 1.
  PowerLaw(double k, double p);
  std::string name() const override { return "power_law"; }
  std::string reference() const override { return "F = k δ^p, Seed001 eq. (1); docs/theory.md §2"; }
  double Potential(double delta) const override;
  double Force(double delta) const override;
  double Stiffness(double delta) const override;
  double EffectiveStiffness(double delta) const override;
  double coefficient() const override { return k_; }
  double exponent() const override { return p_; }

 private:
  double k_;
  double p_;
};

/// Linear spring F = k δ (the p = 1 member, named separately for registries and reports).
class LinearLaw final : public PowerLaw {
 public:
  explicit LinearLaw(double k) : PowerLaw(k, 1.0) {}
  std::string name() const override { return "linear"; }
  std::string reference() const override { return "F = k δ (linear spring), docs/theory.md §2"; }
};

/// Hertz law F = K_H δ^{3/2}, K_H = (4/3) E* √R* [Seed002, eqs. (1), (18)].
class HertzLaw final : public PowerLaw {
 public:
  /// From a plain coefficient K_H [N/m^1.5].
  explicit HertzLaw(double k_hertz) : PowerLaw(k_hertz, 1.5) {}
  /// From effective modulus E* [Pa] and effective radius R* [m]: K_H = 4/3 E* √R*.
  static HertzLaw FromMaterial(double effective_modulus, double effective_radius);
  std::string name() const override { return "hertz"; }
  std::string reference() const override { return "F = 4/3 E* sqrt(R*) δ^1.5, Seed002 eq. (18)"; }
};

}  // namespace impactlab
