#include "contact/tangential/mindlin_deresiewicz.h"

#include <algorithm>
#include <cmath>

#include "contact/tangential/tangential_spring_step.h"
#include "core/checks.h"

namespace impactlab {

namespace {
enum Branch { kNone = 0, kLoading = 1, kUnloading = 2, kReloading = 3 };
}

MindlinDeresiewiczLaw::MindlinDeresiewiczLaw(MindlinStiffness stiffness, double mu)
    : k_t_(stiffness), mu_(RequireNonNegative("mu", mu)) {
  k_t_.Validate();
}

double MindlinDeresiewiczLaw::StoredEnergy(std::span<const double> z, double delta_n) const {
  return SpringEnergyFromForce(Eigen::Vector3d(z[0], z[1], z[2]), k_t_(delta_n));
}
Eigen::Vector3d MindlinDeresiewiczLaw::SpringForce(std::span<const double> z, double) const {
  return Eigen::Vector3d(z[0], z[1], z[2]);
}

TangentialResponse MindlinDeresiewiczLaw::Evaluate(const TangentialKinematics& kin, std::span<const double> z_prev,
                                                   std::span<double> z_next) const {
  const Eigen::Vector3d force_prev(z_prev[0], z_prev[1], z_prev[2]);
  Eigen::Vector3d axis = RotateIntoTangentPlane(Eigen::Vector3d(z_prev[3], z_prev[4], z_prev[5]), kin.normal);
  double reversal = z_prev[6];
  int branch = static_cast<int>(z_prev[7]);
  const Eigen::Vector3d& ds = kin.displacement_increment;
  if (branch == kNone && ds.norm() > 0.0) {
    axis = ds.normalized();
    branch = kLoading;
  }
  const Eigen::Vector3d f_rot = RotateIntoTangentPlane(force_prev, kin.normal);
  const double tau = -f_rot.dot(axis);  // resistance along the axis (F_t = −τ e)
  const double x = branch == kNone ? 0.0 : ds.dot(axis);
  const double fn = std::max(kin.normal_force, 0.0);
  const double dfn = kin.delta_n_prev > 0.0 ? kin.normal_force - kin.normal_force_prev : 0.0;
  const double k = k_t_(kin.delta_n);
  // Branch switches at displacement reversals (reversal force = τ at the switch).
  if ((branch == kLoading || branch == kReloading) && x < 0.0) {
    branch = kUnloading;
    reversal = tau;
  } else if (branch == kUnloading && x > 0.0) {
    branch = kReloading;
    reversal = tau;
  }
  // Reversal forces follow the normal load [docs/theory.md §6, L].
  if (branch == kUnloading) reversal += mu_ * dfn;
  if (branch == kReloading) reversal -= mu_ * dfn;

  double tau_new = tau;
  if (branch != kNone && fn > 0.0 && mu_ > 0.0) {
    double theta3 = 1.0;
    if (branch == kLoading) theta3 = 1.0 - (tau + mu_ * dfn) / (mu_ * fn);
    if (branch == kUnloading) theta3 = 1.0 - (reversal - tau + 2.0 * mu_ * dfn) / (2.0 * mu_ * fn);
    if (branch == kReloading) theta3 = 1.0 - (tau - reversal + 2.0 * mu_ * dfn) / (2.0 * mu_ * fn);
    double theta = theta3 > 0.0 ? std::cbrt(theta3) : 0.0;
    if (dfn > 0.0 && k > 0.0 && std::abs(x) < mu_ * dfn / k) theta = 1.0;  // "point B"
    const double sign = branch == kUnloading ? -1.0 : 1.0;
    tau_new = tau + k * theta * x + sign * mu_ * (1.0 - theta) * dfn;
  } else if (branch != kNone) {
    tau_new = tau + k * x;  // μ = 0 or no load: the cap below sets τ = 0
  }
  TangentialResponse r;
  const double cap = mu_ * fn;
  r.sliding = std::abs(tau_new) > cap;
  if (cap > 0.0) r.cap_margin = 1.0 - std::abs(tau_new) / cap;
  tau_new = std::clamp(tau_new, -cap, cap);
  r.force = -tau_new * axis;
  r.previous_force = f_rot;
  r.stored_energy = SpringEnergyFromForce(r.force, k);
  r.work_in = -0.5 * (f_rot + r.force).dot(ds);
  r.generated_work = 0.0;
  r.friction_work = SpringEnergyFromForce(force_prev, k_t_(kin.delta_n_prev)) + r.work_in - r.stored_energy;
  for (int i = 0; i < 3; ++i) {
    z_next[i] = r.force[i];
    z_next[3 + i] = axis[i];
  }
  z_next[6] = reversal;
  z_next[7] = branch;
  return r;
}

}  // namespace impactlab
