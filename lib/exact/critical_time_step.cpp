#include "exact/critical_time_step.h"

#include <algorithm>
#include <cmath>

#include "contact/restitution_calibration.h"
#include "core/checks.h"
#include "exact/feng_power_law_solution.h"

namespace impactlab {

CriticalTimeStep PowerLawCriticalTimeStep(double mass, double stiffness, double exponent, double impact_velocity,
                                          double alpha) {
  FengPowerLawParameters par;
  par.mass = mass;
  par.stiffness = stiffness;
  par.exponent = exponent;
  par.impact_velocity = impact_velocity;
  par.alpha = 0.0;
  const FengPowerLawSolution undamped(par);  // validates m, k, p, v0
  RequireNonNegative("alpha", alpha);
  const double p = exponent;
  CriticalTimeStep out;
  out.delta_max_undamped = undamped.max_overlap();
  out.effective = 4.0 * out.delta_max_undamped / ((p + 1.0) * impact_velocity);
  out.tangent = out.effective * std::sqrt((p + 1.0) / (2.0 * p));
  const double zeta = alpha / std::sqrt(2.0 * (p + 1.0));
  out.effective_damped = out.effective * (std::sqrt(1.0 + zeta * zeta) - zeta);
  out.tangent_damped = out.tangent * (std::sqrt(1.0 + zeta * zeta) - zeta);
  out.steps_per_contact = undamped.undamped_contact_time() / out.effective;
  return out;
}

double HertzMindlinCriticalTimeStep(double reduced_mass, double hertz_coefficient, double approach_speed, double e_n,
                                    double shear_modulus_star, double radius_star, double tangential_compliance) {
  const double alpha = e_n < 1.0 ? TsujiAlphaFromRestitution(e_n, 1.5) : 0.0;
  const CriticalTimeStep c = PowerLawCriticalTimeStep(reduced_mass, hertz_coefficient, 1.5, approach_speed, alpha);
  double dt = c.tangent_damped;
  if (tangential_compliance > 0.0) {
    const double k_t = 8.0 * shear_modulus_star * std::sqrt(radius_star * c.delta_max_undamped);
    dt = std::min(dt, 2.0 / std::sqrt(k_t * tangential_compliance));
  }
  return dt;
}

}  // namespace impactlab
