#include "contact/tangential/tangential_spring_step.h"

#include <algorithm>

namespace impactlab {

namespace {
Eigen::Vector3d Load(std::span<const double> z) { return Eigen::Vector3d(z[0], z[1], z[2]); }
void Store(const Eigen::Vector3d& v, std::span<double> z) {
  z[0] = v[0];
  z[1] = v[1];
  z[2] = v[2];
}

// Relative tolerance of "the committed spring is on the cone": the cap sets |F| = μF_n to round-off.
constexpr double kOnCone = 1e-9;

// The switch can be located: the rates are known, the contact was active at the committed state and its cone
// was open.
bool SwitchLocatable(const TangentialKinematics& kin, double mu) {
  return kin.start.step > 0.0 && kin.delta_n_prev > 0.0 && mu > 0.0 && kin.normal_force_prev > 0.0;
}
}  // namespace

TangentialResponse IntegralSpringStep(const TangentialKinematics& kin, std::span<const double> z_prev,
                                      std::span<double> z_next, double k_prev, double k_new, double mu,
                                      double k_prev_rate) {
  const Eigen::Vector3d delta_prev = Load(z_prev);
  const Eigen::Vector3d delta = RotateIntoTangentPlane(delta_prev, kin.normal);
  const Eigen::Vector3d trial = -k_new * (delta + kin.displacement_increment);
  const double stored_prev = 0.5 * k_prev * delta_prev.squaredNorm();
  Eigen::Vector3d correction = Eigen::Vector3d::Zero();
  const double rho0 = delta.norm();
  if (SwitchLocatable(kin, mu) && k_prev > 0.0 && k_new > 0.0 && rho0 > 0.0 &&
      k_prev * rho0 >= (1.0 - kOnCone) * mu * kin.normal_force_prev) {
    const Eigen::Vector3d e = delta / rho0;
    const double rho1 = mu * std::max(kin.normal_force, 0.0) / k_new;
    const double rho_rate =
        mu * (kin.start.normal_force_rate * k_prev - kin.normal_force_prev * k_prev_rate) / (k_prev * k_prev);
    const double end_excess = e.dot(kin.displacement_increment) - (rho1 - rho0);
    const double start_excess = kin.start.step * (e.dot(kin.start.slip_velocity) - rho_rate);
    correction = (k_new * SwitchSlip(start_excess, end_excess)) * e;
  }
  TangentialResponse r = FinishTangentialStep(-k_prev * delta, trial, k_new, stored_prev, mu, kin.normal_force,
                                              kin.displacement_increment, correction);
  Store(k_new > 0.0 ? Eigen::Vector3d(-r.force / k_new) : Eigen::Vector3d::Zero(), z_next);
  return r;
}

TangentialResponse IncrementalSpringStep(const TangentialKinematics& kin, std::span<const double> z_prev,
                                         std::span<double> z_next, double lambda, double k_inc, double k_prev,
                                         double k_new, double mu, double lambda_rate) {
  const Eigen::Vector3d force_prev = Load(z_prev);
  const Eigen::Vector3d rotated = RotateIntoTangentPlane(force_prev, kin.normal);
  const Eigen::Vector3d trial = lambda * rotated - k_inc * kin.displacement_increment;
  const double stored_prev = SpringEnergyFromForce(force_prev, k_prev);
  Eigen::Vector3d correction = Eigen::Vector3d::Zero();
  const double f0 = rotated.norm();
  if (SwitchLocatable(kin, mu) && f0 > 0.0 && f0 >= (1.0 - kOnCone) * mu * kin.normal_force_prev) {
    const Eigen::Vector3d e = -rotated / f0;
    const double end_excess = -e.dot(trial) - mu * std::max(kin.normal_force, 0.0);
    const double start_excess = kin.start.step * (lambda_rate * f0 + k_prev * e.dot(kin.start.slip_velocity) -
                                                  mu * kin.start.normal_force_rate);
    correction = SwitchSlip(start_excess, end_excess) * e;
  }
  TangentialResponse r = FinishTangentialStep(rotated, trial, k_new, stored_prev, mu, kin.normal_force,
                                              kin.displacement_increment, correction);
  Store(r.force, z_next);
  return r;
}

}  // namespace impactlab
