// DampedNormalLaw: composition of an elastic law and a damping law (never a HertzTsujiLaw class).
//
//   F_n(δ, δ̇) = W'(δ) + C(δ) δ̇     [N], compressive > 0, NOT clipped at zero [docs/theory.md §1, §12.1]
//   P_diss   = C(δ) δ̇²             [W]
#pragma once

#include <memory>

#include "contact/damping/damping_law.h"
#include "contact/normal_contact_law.h"

namespace impactlab {

struct DampedNormalLaw {
  std::shared_ptr<const NormalContactLaw> elastic;
  std::shared_ptr<const DampingLaw> damping;

  double Force(double delta, double delta_dot) const {
    return elastic->Force(delta) + damping->Coefficient(delta) * delta_dot;
  }
  double DissipationPower(double delta, double delta_dot) const {
    return damping->Coefficient(delta) * delta_dot * delta_dot;
  }
};

}  // namespace impactlab
