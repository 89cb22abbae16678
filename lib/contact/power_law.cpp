#include "contact/power_law.h"

#include <cmath>

#include "contact/hertz_powers.h"
#include "core/checks.h"

namespace impactlab {

PowerLaw::PowerLaw(double k, double p) : k_(RequirePositive("k", k)), p_(RequireAtLeast("p", p, 1.0)) {}

// Hertz (p = 3/2): δ^{5/2} and δ^{3/2} from the square root, correctly rounded (contact/hertz_powers.h), where
// std::pow is not always; and cheaper than a pow call (docs/performance.md, "Hertz powers without pow").
double PowerLaw::Potential(double delta) const {
  if (!(delta > 0.0)) return 0.0;
  return k_ * (p_ == 1.5 ? PowFiveHalves(delta) : std::pow(delta, p_ + 1.0)) / (p_ + 1.0);
}
double PowerLaw::Force(double delta) const {
  if (!(delta > 0.0)) return 0.0;
  return k_ * (p_ == 1.5 ? PowThreeHalves(delta) : std::pow(delta, p_));
}
// δ^(p−1) for p = 3/2 (Hertz) is √δ: std::sqrt is correctly rounded (IEEE 754), std::pow(δ, 0.5) only to < 1 ulp,
// so the square root is never less accurate, and it costs a few cycles instead of a pow call.
double PowerLaw::Stiffness(double delta) const {
  if (delta < 0.0) return 0.0;
  if (p_ == 1.0) return k_;
  if (!(delta > 0.0)) return 0.0;
  return p_ * k_ * (p_ == 1.5 ? std::sqrt(delta) : std::pow(delta, p_ - 1.0));
}
double PowerLaw::EffectiveStiffness(double delta) const {
  if (delta < 0.0) return 0.0;
  if (p_ == 1.0) return k_;
  if (!(delta > 0.0)) return 0.0;
  return 0.5 * (p_ + 1.0) * k_ * (p_ == 1.5 ? std::sqrt(delta) : std::pow(delta, p_ - 1.0));
}

HertzLaw HertzLaw::FromMaterial(double effective_modulus, double effective_radius) {
  RequirePositive("E_star", effective_modulus);
  RequirePositive("R_star", effective_radius);
  return HertzLaw(4.0 / 3.0 * effective_modulus * std::sqrt(effective_radius));
}

}  // namespace impactlab
