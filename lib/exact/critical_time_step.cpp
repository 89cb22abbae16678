#include "exact/critical_time_step.h"

#include <cmath>

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
  out.steps_per_contact = undamped.undamped_contact_time() / out.effective;
  return out;
}

}  // namespace impactlab
