#include "dynamics/impulsive_restitution.h"

#include <Eigen/Dense>
#include <cmath>

#include "core/checks.h"
#include "dynamics/contact_mass.h"

namespace impactlab {

ImpulsiveImpactResult SolveImpulsiveWallImpact(const ImpulsiveImpactInput& in) {
  RequirePositive("mass", in.mass);
  RequireInClosed("e_cn", in.e_cn, 0.0, 1.0);
  const Eigen::Vector3d& n = in.normal;
  const Eigen::Vector3d& r = in.lever;
  ImpulsiveImpactResult out;
  out.m_n_star = ProjectedNormalMass(InverseEffectiveMassBodyWall({in.mass, in.inertia, r}), n);
  out.v_cn_before = n.dot(in.velocity + in.angular_velocity.cross(r));
  if (!(out.v_cn_before < 0.0)) throw InvalidParameter("v_cn", out.v_cn_before, "< 0 (approaching contact)");
  out.impulse = -(1.0 + in.e_cn) * out.m_n_star * out.v_cn_before;
  out.velocity = in.velocity + (out.impulse / in.mass) * n;
  out.angular_velocity = in.angular_velocity + out.impulse * in.inertia.ldlt().solve(r.cross(n));
  out.v_cn_after = n.dot(out.velocity + out.angular_velocity.cross(r));
  auto kinetic = [&](const Eigen::Vector3d& v, const Eigen::Vector3d& w) {
    return 0.5 * in.mass * v.squaredNorm() + 0.5 * w.dot(in.inertia * w);
  };
  out.kinetic_before = kinetic(in.velocity, in.angular_velocity);
  out.kinetic_after = kinetic(out.velocity, out.angular_velocity);
  out.e_E = std::sqrt(out.kinetic_after / out.kinetic_before);
  return out;
}

}  // namespace impactlab
