#include "contact/tangential/cundall_strack.h"

#include "contact/tangential/tangential_spring_step.h"
#include "core/checks.h"

namespace impactlab {

CundallStrackLaw::CundallStrackLaw(double tangential_stiffness, double mu)
    : k_(RequirePositive("kt", tangential_stiffness)), mu_(RequireNonNegative("mu", mu)) {}

double CundallStrackLaw::StoredEnergy(std::span<const double> z, double) const {
  return 0.5 * k_ * (z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
}
Eigen::Vector3d CundallStrackLaw::SpringForce(std::span<const double> z, double) const {
  return -k_ * Eigen::Vector3d(z[0], z[1], z[2]);
}
TangentialResponse CundallStrackLaw::Evaluate(const TangentialKinematics& kin, std::span<const double> z_prev,
                                              std::span<double> z_next) const {
  return IntegralSpringStep(kin, z_prev, z_next, k_, k_, mu_);
}

}  // namespace impactlab
