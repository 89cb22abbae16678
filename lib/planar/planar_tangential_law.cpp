#include "planar/planar_tangential_law.h"

#include <algorithm>
#include <span>

namespace impactlab {

// The law for R* = 1 m is built once (any R* > 0 serves: the layout and μ do not depend on it).
PlanarTangentialLaw::PlanarTangentialLaw(std::string name, TangentialLawForRadius make)
    : law_(std::move(name), std::move(make), 1.0) {}

double PlanarTangentialLaw::StoredEnergy(int slot, double delta, const Eigen::VectorXd& z) const {
  return law_.StoredEnergy(z[slot * stride()], History(slot, z), delta);
}

double PlanarTangentialLaw::SpringForce(int slot, double delta, double normal_stiffness,
                                        const Eigen::VectorXd& z) const {
  const double radius = z[slot * stride()];
  if (!(radius > 0.0) || !(delta > 0.0)) return 0.0;
  const double f = law_.LawFor(radius)->SpringForce(History(slot, z), delta).x();
  const double cap = friction_coefficient() * normal_stiffness * delta;
  return std::clamp(f, -cap, cap);
}

PlanarTangentialStep PlanarTangentialLaw::Step(int slot, double delta0, double delta1, double ds,
                                               double radius_at_touch, double normal_stiffness,
                                               const Eigen::VectorXd& z0, Eigen::VectorXd& z1) const {
  const int o = slot * stride();
  const RadiusBoundTangentialStep r = law_.Step(
      z0[o], radius_at_touch, delta0, delta1, normal_stiffness * std::max(delta0, 0.0), normal_stiffness * delta1,
      Eigen::Vector3d::UnitZ(), Eigen::Vector3d(ds, 0.0, 0.0), History(slot, z0),
      std::span<double>(z1.data() + o + 1, static_cast<size_t>(law_history_size())));
  z1[o] = r.radius;
  PlanarTangentialStep out;
  out.active = r.active;
  out.sliding = r.sliding;
  out.force = r.algorithmic_force.x();
  out.friction_work = r.friction_work;
  out.release_energy = r.release_energy;
  out.generated_work = r.generated_work;
  return out;
}

}  // namespace impactlab
