#include "contact/tangential/tangential_spring_step.h"

namespace impactlab {

namespace {
Eigen::Vector3d Load(std::span<const double> z) { return Eigen::Vector3d(z[0], z[1], z[2]); }
void Store(const Eigen::Vector3d& v, std::span<double> z) {
  z[0] = v[0];
  z[1] = v[1];
  z[2] = v[2];
}
}  // namespace

TangentialResponse IntegralSpringStep(const TangentialKinematics& kin, std::span<const double> z_prev,
                                      std::span<double> z_next, double k_prev, double k_new, double mu) {
  const Eigen::Vector3d delta_prev = Load(z_prev);
  const Eigen::Vector3d delta = RotateIntoTangentPlane(delta_prev, kin.normal);
  const Eigen::Vector3d trial = -k_new * (delta + kin.displacement_increment);
  const double stored_prev = 0.5 * k_prev * delta_prev.squaredNorm();
  TangentialResponse r = FinishTangentialStep(-k_prev * delta, trial, k_new, stored_prev, mu, kin.normal_force,
                                              kin.displacement_increment);
  Store(k_new > 0.0 ? Eigen::Vector3d(-r.force / k_new) : Eigen::Vector3d::Zero(), z_next);
  return r;
}

TangentialResponse IncrementalSpringStep(const TangentialKinematics& kin, std::span<const double> z_prev,
                                         std::span<double> z_next, double lambda, double k_inc, double k_prev,
                                         double k_new, double mu) {
  const Eigen::Vector3d force_prev = Load(z_prev);
  const Eigen::Vector3d rotated = RotateIntoTangentPlane(force_prev, kin.normal);
  const Eigen::Vector3d trial = lambda * rotated - k_inc * kin.displacement_increment;
  const double stored_prev = SpringEnergyFromForce(force_prev, k_prev);
  TangentialResponse r =
      FinishTangentialStep(rotated, trial, k_new, stored_prev, mu, kin.normal_force, kin.displacement_increment);
  Store(r.force, z_next);
  return r;
}

}  // namespace impactlab
