#include "integrators/simo_tarnow.h"

namespace impactlab {

IntegratorTraits SimoTarnow::traits() const {
  return EnergyMomentumTraits("Simo & Tarnow 1992 (ZAMP 43:757); Greenspan 1984; docs/theory.md §7",
                              "Phi-form: c = (Phi(d1) - Phi(d0))/(d1 - d0), dissipation c (d1 - d0)^2 / h exactly");
}

}  // namespace impactlab
