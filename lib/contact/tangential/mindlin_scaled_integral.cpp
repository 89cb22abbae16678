#include "contact/tangential/mindlin_scaled_integral.h"

#include "contact/tangential/tangential_spring_step.h"
#include "core/checks.h"

namespace impactlab {

MindlinScaledIntegralLaw::MindlinScaledIntegralLaw(MindlinStiffness stiffness, double mu)
    : k_t_(stiffness), mu_(RequireNonNegative("mu", mu)) {
  k_t_.Validate();
}
double MindlinScaledIntegralLaw::StoredEnergy(std::span<const double> z, double delta_n) const {
  return 0.5 * kScale * k_t_(delta_n) * (z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
}
Eigen::Vector3d MindlinScaledIntegralLaw::SpringForce(std::span<const double> z, double delta_n) const {
  return -kScale * k_t_(delta_n) * Eigen::Vector3d(z[0], z[1], z[2]);
}
TangentialResponse MindlinScaledIntegralLaw::Evaluate(const TangentialKinematics& kin, std::span<const double> z_prev,
                                                std::span<double> z_next) const {
  return IntegralSpringStep(kin, z_prev, z_next, kScale * k_t_(kin.delta_n_prev), kScale * k_t_(kin.delta_n), mu_,
                            kScale * k_t_.Rate(kin.delta_n_prev, kin.start.overlap_rate));
}

}  // namespace impactlab
