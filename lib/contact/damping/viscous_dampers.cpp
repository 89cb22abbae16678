#include "contact/damping/viscous_dampers.h"

#include <cmath>

#include "contact/hertz_powers.h"
#include "core/checks.h"

namespace impactlab {

LinearViscousDamping::LinearViscousDamping(double c) : c_(RequireNonNegative("damping_coefficient", c)) {}

TsujiDamping::TsujiDamping(double alpha, double mass, double k, double p)
    : alpha_(RequireNonNegative("alpha", alpha)),
      scale_(alpha * std::sqrt(RequirePositive("m", mass) * RequirePositive("k", k))),
      p_(RequireAtLeast("p", p, 1.0)) {}

// Hertz (p = 3/2): δ^{1/4} correctly rounded from two square roots and a Newton correction (contact/hertz_powers.h).
double TsujiDamping::Coefficient(double delta) const {
  if (delta <= 0.0) return 0.0;
  if (p_ == 1.0) return scale_;
  return scale_ * (p_ == 1.5 ? PowQuarter(delta) : std::pow(delta, 0.5 * (p_ - 1.0)));
}
// C' = α √(mk) (p−1)/2 δ^((p−3)/2); for Hertz (p = 3/2) α √(mk) δ^{1/4} / (4 δ).
double TsujiDamping::CoefficientDerivative(double delta) const {
  if (!(delta > 0.0) || p_ == 1.0) return 0.0;
  if (p_ == 1.5) return 0.25 * scale_ * PowQuarter(delta) / delta;
  return 0.5 * (p_ - 1.0) * scale_ * std::pow(delta, 0.5 * (p_ - 3.0));
}
double TsujiDamping::DissipationPotential(double delta) const {
  // Φ = 2 α √(mk)/(p+1) δ^((p+1)/2)  [docs/theory.md §7]; δ^{5/4} correctly rounded for Hertz (p = 3/2).
  if (!(delta > 0.0)) return 0.0;
  return 2.0 * scale_ / (p_ + 1.0) * (p_ == 1.5 ? PowFiveQuarters(delta) : std::pow(delta, 0.5 * (p_ + 1.0)));
}

UniversalDamping::UniversalDamping(double xi, double mass, std::shared_ptr<const NormalContactLaw> elastic)
    : xi_(xi), mass_(RequirePositive("m", mass)), elastic_(std::move(elastic)) {
  if (!(xi >= 0.0 && xi < 1.0)) throw InvalidParameter("xi", xi, "[0, 1)");
}
double UniversalDamping::Coefficient(double delta) const {
  // C = 2 ξ √(m k_eff(δ)), the regular form of ξ √(2m) W'/√W (no 0/0 at onset) [docs/theory.md §12.2].
  return delta > 0.0 ? 2.0 * xi_ * std::sqrt(mass_ * elastic_->EffectiveStiffness(delta)) : 0.0;
}
double UniversalDamping::CoefficientDerivative(double delta) const {
  // C ∝ √k_eff with k_eff = W'²/(2W), so C'/C = k_eff'/(2 k_eff) = (W'' − k_eff)/W' (0 for the linear law, where
  // W'' = k_eff = k; (p − 1)/(2δ) for a power law).
  if (!(delta > 0.0)) return 0.0;
  const double force = elastic_->Force(delta);
  if (!(force > 0.0)) return 0.0;
  return Coefficient(delta) * (elastic_->Stiffness(delta) - elastic_->EffectiveStiffness(delta)) / force;
}
double UniversalDamping::DissipationPotential(double delta) const {
  // Φ = ∫ ξ √(2m) W'/√W dδ = 2 ξ √(2m) √W(δ).
  return delta > 0.0 ? 2.0 * xi_ * std::sqrt(2.0 * mass_ * elastic_->Potential(delta)) : 0.0;
}

KuwabaraKonoDamping::KuwabaraKonoDamping(double gamma) : gamma_(RequireNonNegative("gamma", gamma)) {}
double KuwabaraKonoDamping::Coefficient(double delta) const {
  return delta > 0.0 ? gamma_ * std::sqrt(delta) : 0.0;
}
double KuwabaraKonoDamping::CoefficientDerivative(double delta) const {
  return delta > 0.0 ? 0.5 * gamma_ / std::sqrt(delta) : 0.0;
}
double KuwabaraKonoDamping::DissipationPotential(double delta) const {
  return delta > 0.0 ? 2.0 / 3.0 * gamma_ * delta * std::sqrt(delta) : 0.0;
}

}  // namespace impactlab
