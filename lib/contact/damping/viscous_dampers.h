// The viscous damping laws of the power-law family (one small value type each, all behind DampingLaw).
//
//   NoDamping:            C = 0.
//   LinearViscousDamping: C = c (constant dashpot). With F = kδ and c = 2 ξ_L(e) √(m k) it gives e exactly
//                         [Schäfer et al. 1996; docs/theory.md §3]; with Hertz it gives velocity-dependent e.
//   TsujiDamping:         C = α √(m k) δ^((p−1)/2), generalized Tsuji [Seed001; Seed000 eq. (25)];
//                         α = √(2(p+1)) ξ_L(e) gives e exactly for every v₀ (docs/calibration.md).
//   UniversalDamping:     C = ξ √(2m) W'(δ)/√W(δ) = 2 ξ √(m k_eff(δ)) [Seed000 eqs. (22), (28)];
//                         maps any monotone W to a linear damped oscillator with damping ratio ξ.
//   KuwabaraKonoDamping:  C = γ δ^(1/2) (viscoelastic Hertz) [Kuwabara & Kono 1987; Brilliantov 1996];
//                         e depends on v₀: 1 − e ≈ 1.1534 (γ/k)(k/m)^(2/5) v₀^(1/5) [docs/theory.md §3].
// Each also gives C'(δ) = dC/dδ in closed form (viscous_dampers.cpp, next to C).
#pragma once

#include <memory>

#include "contact/damping/damping_law.h"
#include "contact/normal_contact_law.h"

namespace impactlab {

class NoDamping final : public DampingLaw {
 public:
  std::string name() const override { return "none"; }
  std::string reference() const override { return "C = 0 (undamped)"; }
  double Coefficient(double) const override { return 0.0; }
  double CoefficientDerivative(double) const override { return 0.0; }
  double DissipationPotential(double) const override { return 0.0; }
  bool velocity_dependent_restitution() const override { return false; }
};

class LinearViscousDamping final : public DampingLaw {
 public:
  /// c [N·s/m] ≥ 0.
  explicit LinearViscousDamping(double c);
  std::string name() const override { return "linear_viscous"; }
  std::string reference() const override { return "C = c, c = 2 xi_L(e) sqrt(m k) [docs/theory.md §3]"; }
  double Coefficient(double delta) const override { return delta > 0.0 ? c_ : 0.0; }
  double CoefficientDerivative(double) const override { return 0.0; }
  double DissipationPotential(double delta) const override { return delta > 0.0 ? c_ * delta : 0.0; }
  bool velocity_dependent_restitution() const override { return false; }  // for p = 1
  double c() const { return c_; }

 private:
  double c_;
};

class TsujiDamping final : public DampingLaw {
 public:
  /// α ≥ 0 (dimensionless), m > 0 [kg], k > 0, p ≥ 1 from the elastic power law.
  TsujiDamping(double alpha, double mass, double k, double p);
  std::string name() const override { return "tsuji"; }
  std::string reference() const override {
    return "C = alpha sqrt(m k) delta^((p-1)/2), Seed001; Seed000 eq. (25)";
  }
  double Coefficient(double delta) const override;
  double CoefficientDerivative(double delta) const override;
  double DissipationPotential(double delta) const override;
  bool velocity_dependent_restitution() const override { return false; }
  double alpha() const { return alpha_; }

 private:
  double alpha_, scale_, p_;
};

class UniversalDamping final : public DampingLaw {
 public:
  /// ξ ∈ [0, 1), m > 0 [kg]; the elastic law must outlive this object.
  UniversalDamping(double xi, double mass, std::shared_ptr<const NormalContactLaw> elastic);
  std::string name() const override { return "universal"; }
  std::string reference() const override { return "C = xi sqrt(2m) W'/sqrt(W), Seed000 eq. (22)"; }
  double Coefficient(double delta) const override;
  double CoefficientDerivative(double delta) const override;
  double DissipationPotential(double delta) const override;
  bool velocity_dependent_restitution() const override { return false; }

 private:
  double xi_, mass_;
  std::shared_ptr<const NormalContactLaw> elastic_;
};

class KuwabaraKonoDamping final : public DampingLaw {
 public:
  /// γ ≥ 0 [N·s/m^1.5].
  explicit KuwabaraKonoDamping(double gamma);
  std::string name() const override { return "kuwabara_kono"; }
  std::string reference() const override { return "C = gamma delta^(1/2), Kuwabara & Kono 1987"; }
  double Coefficient(double delta) const override;
  double CoefficientDerivative(double delta) const override;
  double DissipationPotential(double delta) const override;
  bool velocity_dependent_restitution() const override { return true; }
  double gamma() const { return gamma_; }

 private:
  double gamma_;
};

}  // namespace impactlab
