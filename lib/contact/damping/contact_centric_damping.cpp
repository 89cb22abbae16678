#include "contact/damping/contact_centric_damping.h"

#include <cmath>

#include "contact/restitution_calibration.h"
#include "core/checks.h"

namespace impactlab {

DampingMassMode ParseDampingMassMode(const std::string& name) {
  if (name == "adaptive") return DampingMassMode::kAdaptive;
  if (name == "fixed_reduced_mass") return DampingMassMode::kFixedReducedMass;
  if (name == "fixed_initial_mass") return DampingMassMode::kFixedInitialMass;
  throw InvalidParameter("damping", "\"" + name + "\"", "one of: adaptive, fixed_reduced_mass, fixed_initial_mass");
}

std::string ToString(DampingMassMode mode) {
  switch (mode) {
    case DampingMassMode::kAdaptive: return "adaptive";
    case DampingMassMode::kFixedReducedMass: return "fixed_reduced_mass";
    case DampingMassMode::kFixedInitialMass: return "fixed_initial_mass";
  }
  return "?";
}

ContactCentricDamping::ContactCentricDamping(double e_cn, DampingMassMode mode, double fixed_mass)
    : xi_(DampingRatioFromRestitution(RequireInLeftOpen("e_cn", e_cn, 0.0, 1.0))),
      mode_(mode),
      fixed_mass_(RequirePositive("fixed_mass", fixed_mass)) {}

double ContactCentricDamping::Coefficient(double m_n_star, double k_eff) const {
  const double mass = mode_ == DampingMassMode::kAdaptive ? m_n_star : fixed_mass_;
  return 2.0 * xi_ * std::sqrt(mass * k_eff);
}

}  // namespace impactlab
