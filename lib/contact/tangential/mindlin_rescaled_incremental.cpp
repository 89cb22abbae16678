#include "contact/tangential/mindlin_rescaled_incremental.h"

#include <algorithm>
#include <cmath>

#include "contact/tangential/tangential_spring_step.h"
#include "core/checks.h"

namespace impactlab {

MindlinRescaledIncrementalLaw::MindlinRescaledIncrementalLaw(MindlinStiffness stiffness, double mu)
    : k_t_(stiffness), mu_(RequireNonNegative("mu", mu)) {
  k_t_.Validate();
}
double MindlinRescaledIncrementalLaw::StoredEnergy(std::span<const double> z, double delta_n) const {
  return SpringEnergyFromForce(Eigen::Vector3d(z[0], z[1], z[2]), k_t_(delta_n));
}
Eigen::Vector3d MindlinRescaledIncrementalLaw::SpringForce(std::span<const double> z, double) const {
  return Eigen::Vector3d(z[0], z[1], z[2]);
}
TangentialResponse MindlinRescaledIncrementalLaw::Evaluate(const TangentialKinematics& kin,
                                                           std::span<const double> z_prev,
                                                           std::span<double> z_next) const {
  const bool unloading = kin.normal_force < kin.normal_force_prev && kin.delta_n_prev > 0.0;
  const double lambda = unloading ? std::sqrt(std::max(kin.delta_n, 0.0) / kin.delta_n_prev) : 1.0;
  const double k_new = k_t_(kin.delta_n);
  // dλ/dt at the committed state (switch location, tangential_spring_step.h): λ = √(δ_n/δ_n,prev) on unloading.
  const bool unloading_at_start = kin.start.normal_force_rate < 0.0 && kin.delta_n_prev > 0.0;
  const double lambda_rate = unloading_at_start ? kin.start.overlap_rate / (2.0 * kin.delta_n_prev) : 0.0;
  return IncrementalSpringStep(kin, z_prev, z_next, lambda, k_new, k_t_(kin.delta_n_prev), k_new, mu_, lambda_rate);
}

}  // namespace impactlab
