#include "references/rigid_sphere_impact_theory.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/checks.h"

namespace impactlab {

double RigidBetaOfPsi(double psi, double beta0) { return std::min(-1.0 + psi, beta0); }
double RigidTangentialRestitutionOfPsi(double psi, double beta0) {
  return 1.0 - 2.0 / 7.0 * (1.0 + RigidBetaOfPsi(psi, beta0));
}

RigidSphereImpactResult RigidSphereImpact(const RigidSphereImpactInput& in) {
  RequirePositive("normal_speed", in.normal_speed);
  RequireFinite("tangential_velocity", in.tangential_velocity);
  RequireFinite("omega_y", in.omega_y);
  RequirePositive("radius", in.radius);
  RequireNonNegative("mu", in.mu);
  RequireInClosed("e_n", in.e_n, 0.0, 1.0);
  RequireInClosed("beta0", in.beta0, -1.0, 1.0);
  RigidSphereImpactResult r;
  const double vs = in.tangential_velocity - in.radius * in.omega_y;
  r.psi = vs != 0.0 ? 3.5 * in.mu * (1.0 + in.e_n) * in.normal_speed / std::abs(vs)
                    : std::numeric_limits<double>::infinity();
  r.beta = RigidBetaOfPsi(r.psi, in.beta0);
  r.sticking = r.psi >= 1.0 + in.beta0;
  r.tangential_velocity = in.tangential_velocity - 2.0 / 7.0 * (1.0 + r.beta) * vs;
  r.omega_y = in.omega_y + 5.0 / 7.0 * (1.0 + r.beta) * vs / in.radius;
  if (in.tangential_velocity != 0.0) r.e_t = r.tangential_velocity / in.tangential_velocity;
  return r;
}

}  // namespace impactlab
