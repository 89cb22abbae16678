// The Siconos integrators (integrators/siconos/; compiled only when CMake found Siconos, docs/nonsmooth-peers.md).
// The restitution of Newton's impact law is the scenario's e (the restitution the compliant laws are calibrated
// to; e_n on the sphere models), so a compliant and a nonsmooth run of one scenario describe the same physics.
#include <optional>

#include "integrators/siconos/siconos_event_driven.h"
#include "integrators/siconos/siconos_moreau_jean.h"
#include "registry/registries.h"

namespace impactlab {

namespace {
// e, else e_n; neither: unset, and the scheme takes the e the model's compliant laws are calibrated to
// (FrictionalContactStructure::CalibratedRestitution, e.g. sphere_assembly's default e_n = 0.5), else 1.
std::optional<double> ScenarioRestitution(const ParameterSet& p) {
  if (p.Has("e")) return p.GetDouble("e");
  if (p.Has("e_n")) return p.GetDouble("e_n");
  return std::nullopt;
}
}  // namespace

void RegisterSiconosIntegrators(Registry<IntegratorFactory>& r) {
  r.Add("siconos_moreau_jean",
        "Siconos Moreau-Jean time-stepping, rigid contact with Newton's impact law (e; keys: siconos_theta)",
        [](const ParameterSet& p) {
          SiconosMoreauJean::Options o;
          o.theta = p.GetDouble("siconos_theta", o.theta);
          o.restitution = ScenarioRestitution(p);
          return std::make_unique<SiconosMoreauJean>(o);
        });
  r.Add("siconos_event_driven",
        "Siconos event-driven (LSODAR + impact/acceleration LCPs), rigid contact, Newton's law (e; keys: "
        "siconos_rtol, siconos_atol)",
        [](const ParameterSet& p) {
          SiconosEventDriven::Options o;
          o.restitution = ScenarioRestitution(p);
          o.rel_tol = p.GetDouble("siconos_rtol", o.rel_tol);
          o.abs_tol = p.GetDouble("siconos_atol", o.abs_tol);
          return std::make_unique<SiconosEventDriven>(o);
        });
}

}  // namespace impactlab
