#include "contact/tangential/mindlin_stiffness.h"

#include "core/checks.h"

namespace impactlab {

void MindlinStiffness::Validate() const {
  RequirePositive("G_star", shear_modulus);
  RequirePositive("radius", radius);
}

}  // namespace impactlab
