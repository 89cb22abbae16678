#include "integrators/invariant_discrete_gradient.h"

namespace impactlab {

IntegratorTraits InvariantDiscreteGradient::traits() const {
  return EnergyMomentumTraits("Gonzalez 1996 (J. Nonlinear Sci. 6:449), DG in the invariants |x_b - x_a|^2; docs/theory.md §7",
                              "Phi-form in the invariant C: c = (Phi(C1) - Phi(C0))/(C1 - C0), dissipation c dC^2 / h");
}

}  // namespace impactlab
