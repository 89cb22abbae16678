#include "contact/tangential/tangential_law.h"

#include <algorithm>
#include <cmath>

namespace impactlab {

Eigen::Vector3d RotateIntoTangentPlane(const Eigen::Vector3d& v, const Eigen::Vector3d& normal) {
  const double magnitude = v.norm();
  const Eigen::Vector3d tangential = v - v.dot(normal) * normal;
  const double t_norm = tangential.norm();
  if (magnitude == 0.0 || t_norm == 0.0) return Eigen::Vector3d::Zero();
  return tangential * (magnitude / t_norm);
}

double SwitchSlip(double start_excess_rate_times_step, double end_excess) {
  const double g = start_excess_rate_times_step;
  if (!(g > 0.0) || !(end_excess < 0.5 * g)) return 0.0;
  return g * g / (4.0 * (g - end_excess));  // g − m₁ > g/2 > 0
}

TangentialResponse FinishTangentialStep(const Eigen::Vector3d& previous, const Eigen::Vector3d& trial,
                                        double k_store, double stored_prev, double mu, double normal_force,
                                        const Eigen::Vector3d& displacement_increment,
                                        const Eigen::Vector3d& switch_correction) {
  TangentialResponse r;
  r.previous_force = previous;
  const double cap = mu * std::max(normal_force, 0.0);
  // The stick trial after a located switch (bitwise the trial when there is none).
  const bool located = (switch_correction.array() != 0.0).any();
  const Eigen::Vector3d mapped = located ? Eigen::Vector3d(trial + switch_correction) : trial;
  const double mapped_norm = mapped.norm();
  r.force = mapped;
  if (cap > 0.0) r.cap_margin = 1.0 - mapped_norm / cap;
  if (mapped_norm > cap) {
    r.sliding = true;
    r.force = mapped_norm > 0.0 ? Eigen::Vector3d(mapped * (cap / mapped_norm)) : Eigen::Vector3d::Zero();
  }
  const auto energy = [k_store](const Eigen::Vector3d& f) { return k_store > 0.0 ? f.squaredNorm() / (2.0 * k_store) : 0.0; };
  const double trial_energy = energy(trial);
  r.stored_energy = energy(r.force);
  // Elastic (uncapped) update: its energy mismatch is what the law generates.
  r.generated_work = trial_energy - stored_prev + 0.5 * (previous + trial).dot(displacement_increment);
  // Work of the force actually applied (capped), trapezoidal over the step; friction closes the balance.
  r.work_in = -0.5 * (previous + r.force).dot(displacement_increment);
  r.friction_work = stored_prev + r.work_in + r.generated_work - r.stored_energy;
  return r;
}

TangentialResponse EvaluateTangentialStep(const TangentialLaw& law, TangentialKinematics& k,
                                          Eigen::Vector3d displacement_increment, double delta_prev,
                                          double normal_force_prev, std::span<const double> z_prev,
                                          std::span<double> z_next) {
  if (delta_prev > 0.0) {
    k.delta_n_prev = delta_prev;
    k.normal_force_prev = normal_force_prev;
  } else {
    displacement_increment *= k.delta_n / (k.delta_n - delta_prev);
  }
  k.displacement_increment = displacement_increment;
  return law.Evaluate(k, z_prev, z_next);
}

TangentialResponse CommittedTangentialResponse(const TangentialLaw& law, std::span<const double> z, double delta_n) {
  TangentialResponse r;
  r.force = law.SpringForce(z, delta_n);
  r.previous_force = r.force;
  r.stored_energy = law.StoredEnergy(z, delta_n);
  return r;
}

}  // namespace impactlab
