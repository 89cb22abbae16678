#include "contact/tangential/mindlin_incremental.h"

#include "contact/tangential/tangential_spring_step.h"
#include "core/checks.h"

namespace impactlab {

MindlinIncrementalLaw::MindlinIncrementalLaw(MindlinStiffness stiffness, double mu)
    : k_t_(stiffness), mu_(RequireNonNegative("mu", mu)) {
  k_t_.Validate();
}
double MindlinIncrementalLaw::StoredEnergy(std::span<const double> z, double delta_n) const {
  return SpringEnergyFromForce(Eigen::Vector3d(z[0], z[1], z[2]), k_t_(delta_n));
}
Eigen::Vector3d MindlinIncrementalLaw::SpringForce(std::span<const double> z, double) const {
  return Eigen::Vector3d(z[0], z[1], z[2]);
}
TangentialResponse MindlinIncrementalLaw::Evaluate(const TangentialKinematics& kin, std::span<const double> z_prev,
                                                   std::span<double> z_next) const {
  const double k_prev = k_t_(kin.delta_n_prev);
  return IncrementalSpringStep(kin, z_prev, z_next, 1.0, k_prev, k_prev, k_t_(kin.delta_n), mu_);
}

}  // namespace impactlab
