#include "models/ellipsoid_wall_friction.h"

#include <array>
#include <span>
#include <string>

#include "core/errors.h"

namespace impactlab {

EllipsoidWallFriction::EllipsoidWallFriction(std::string name, TangentialLawForRadius make, double reference_radius)
    : law_(std::move(name), std::move(make), reference_radius) {
  if (law_.history_size() > kMaxLawHistory)
    throw InvalidParameter("tangential_law", law_.name(),
                           "a law with at most " + std::to_string(kMaxLawHistory) + " history entries");
}

double EllipsoidWallFriction::StoredEnergy(const Eigen::VectorXd& z, double delta) const {
  return law_.StoredEnergy(z[kRadius], std::span<const double>(z.data() + kLaw, static_cast<size_t>(law_.history_size())),
                           delta);
}

EllipsoidWallFrictionStep EllipsoidWallFriction::Step(double delta1, double normal_force1, const Eigen::Vector3d& slip,
                                                      double radius_at_touch, const Eigen::VectorXd& z0,
                                                      Eigen::VectorXd* z1) const {
  const auto nh = static_cast<size_t>(law_.history_size());
  const double delta0 = z0[kDeltaPrev];
  if (z1) *z1 = z0;
  std::array<double, kMaxLawHistory> scratch{};
  const std::span<double> h1 = z1 ? std::span<double>(z1->data() + kLaw, nh) : std::span<double>(scratch.data(), nh);
  const RadiusBoundTangentialStep r =
      law_.Step(z0[kRadius], radius_at_touch, delta0, delta1, z0[kNormalForcePrev], normal_force1,
                Eigen::Vector3d::UnitZ(), slip, std::span<const double>(z0.data() + kLaw, nh), h1);
  EllipsoidWallFrictionStep out;
  out.active = r.active;
  out.sliding = r.sliding;
  out.force = r.force;
  out.algorithmic_force = r.algorithmic_force;
  // Released spring energy at opening is friction work here (as the sphere and planar contacts book it).
  out.friction_work = r.active ? r.friction_work : r.release_energy;
  out.generated_work = r.generated_work;
  if (z1) {
    Eigen::VectorXd& z = *z1;
    z[kRadius] = r.radius;
    z[kFrictionWork] += out.friction_work;
    z[kGeneratedWork] += out.generated_work;
    z[kNormalForcePrev] = r.active ? normal_force1 : 0.0;
    z[kDeltaPrev] = delta1;
  }
  return out;
}

}  // namespace impactlab
