#include "contact/restitution_calibration.h"

#include <cmath>
#include <numbers>

#include "core/checks.h"

namespace impactlab {

double DampingRatioFromRestitution(double e) {
  RequireInLeftOpen("e", e, 0.0, 1.0);
  const double l = std::log(e);
  return -l / std::sqrt(std::numbers::pi * std::numbers::pi + l * l);
}

double RestitutionFromDampingRatio(double xi) {
  RequireNonNegative("xi", xi);
  if (xi >= 1.0) return 0.0;
  return std::exp(-std::numbers::pi * xi / std::sqrt(1.0 - xi * xi));
}

double TsujiAlphaFromRestitution(double e, double p) {
  RequireAtLeast("p", p, 1.0);
  return std::sqrt(2.0 * (p + 1.0)) * DampingRatioFromRestitution(e);
}

double RestitutionFromTsujiAlpha(double alpha, double p) {
  RequireAtLeast("p", p, 1.0);
  RequireNonNegative("alpha", alpha);
  return RestitutionFromDampingRatio(alpha / std::sqrt(2.0 * (p + 1.0)));
}

double Seed001SummaryAlpha(double e, double p) {
  RequireAtLeast("p", p, 1.0);
  return p / (2.0 * (p + 1.0)) * DampingRatioFromRestitution(e);
}

}  // namespace impactlab
