#include "contact/ecc_volume_law.h"

#include <Eigen/Geometry>

#include "core/checks.h"

namespace impactlab {

EccVolumeLaw::EccVolumeLaw(double K_n) : K_n_(RequirePositive("K_n", K_n)) {}

EccVolumeResponse EccVolumeLaw::Evaluate(const EllipsoidShape& shape, const EllipsoidPlaneGeometry& g,
                                         const Eigen::Vector3d& centre, const Eigen::Vector3d& normal) const {
  EccVolumeResponse r;
  r.point = g.section_centroid;
  if (!g.in_contact()) return r;
  r.potential = K_n_ * g.cap_volume;
  r.normal_force = K_n_ * g.section_area;
  r.force = r.normal_force * normal;
  r.torque = (g.section_centroid - centre).cross(r.force);
  r.effective_stiffness = EccEffectiveStiffness(K_n_, shape.semi_axes.prod(), g.h, g.t);
  return r;
}

}  // namespace impactlab
