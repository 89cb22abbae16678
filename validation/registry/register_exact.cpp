// Registers Feng's exact solution as the integrator "exact" [Seed001; docs/theory.md §5]. It takes no parameters;
// construction never fails (the registry's `list` command builds every integrator from an empty set). A
// system that is not the power-law Tsuji oscillator makes its first Step fail with the reason.
#include "integrators/exact_oscillator_stepper.h"
#include "registry/registries.h"

namespace impactlab {

void RegisterExactIntegrators(Registry<IntegratorFactory>& registry) {
  registry.Add("exact",
               "Feng's exact phase-space solution of the power-law Tsuji oscillator (contact_oscillator, g = 0)",
               [](const ParameterSet&) { return std::make_unique<ExactOscillatorStepper>(); });
}

}  // namespace impactlab
