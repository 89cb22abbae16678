#include "references/rigid_sphere_pair_impact_theory.h"

#include <cmath>
#include <limits>

#include "core/checks.h"
#include "core/errors.h"

namespace impactlab {

RigidSpherePairResult RigidSpherePairImpact(const RigidSpherePairInput& in) {
  RequirePositive("m1", in.m1);
  RequirePositive("m2", in.m2);
  RequirePositive("R1", in.R1);
  RequirePositive("R2", in.R2);
  RequirePositive("normal_speed", in.normal_speed);
  RequireNonNegative("mu", in.mu);
  if (!(in.e_n >= 0.0 && in.e_n <= 1.0)) throw InvalidParameter("e_n", in.e_n, "[0, 1]");
  const double I1 = 0.4 * in.m1 * in.R1 * in.R1, I2 = 0.4 * in.m2 * in.R2 * in.R2;
  const double m_star = in.m1 * in.m2 / (in.m1 + in.m2);
  const double m_t = 1.0 / (1.0 / in.m1 + 1.0 / in.m2 + in.R1 * in.R1 / I1 + in.R2 * in.R2 / I2);
  const double p_n = m_star * (1.0 + in.e_n) * in.normal_speed;
  RigidSpherePairResult r;
  r.slip_before = in.v2x - in.v1x - in.R1 * in.w1y - in.R2 * in.w2y;
  const double vs = r.slip_before;
  r.psi = vs != 0.0 ? in.mu * p_n / (m_t * std::abs(vs)) : std::numeric_limits<double>::infinity();
  r.sticking = r.psi >= 1.0;
  r.impulse = r.sticking ? -m_t * vs : -in.mu * p_n * (vs > 0.0 ? 1.0 : -1.0);
  r.v1x = in.v1x - r.impulse / in.m1;
  r.v2x = in.v2x + r.impulse / in.m2;
  r.w1y = in.w1y - in.R1 * r.impulse / I1;
  r.w2y = in.w2y - in.R2 * r.impulse / I2;
  r.slip_after = r.v2x - r.v1x - in.R1 * r.w1y - in.R2 * r.w2y;
  return r;
}

}  // namespace impactlab
