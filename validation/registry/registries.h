// The registries of impactlab (integrators, normal laws, damping laws, models). To add a scheme, law or
// model: write its file, then add one line to the matching Register* function in registries.cpp.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>

#include "contact/damping/damping_law.h"
#include "contact/normal_contact_law.h"
#include "core/parameter_set.h"
#include "integrators/integrator.h"
#include "integrators/simulation.h"
#include "observe/energy_ledger.h"
#include "registry/registry.h"
#include "system/mechanical_system.h"

namespace impactlab {

using IntegratorFactory = std::function<std::unique_ptr<Integrator>(const ParameterSet&)>;
using NormalLawFactory = std::function<std::shared_ptr<const NormalContactLaw>(const ParameterSet&)>;
/// Damping laws are bound to the elastic law and the (effective) mass they damp.
using DampingLawFactory = std::function<std::shared_ptr<const DampingLaw>(
    const ParameterSet&, const std::shared_ptr<const NormalContactLaw>& elastic, double mass)>;

/// What a run of a model produced, handed to the model's summary function.
struct RunOutcome {
  const SimulationRecord& record;
  const EnergyLedger& ledger;
};

/// A configured model: the system and the model-specific summary of a run (adds keys to `out`).
struct ModelInstance {
  std::shared_ptr<const MechanicalSystem> system;
  std::function<void(const RunOutcome&, nlohmann::json& out)> summarize;
  /// false: `summarize` reads no state of a located event, so RunScenario keeps none (SimulationOptions::event_states).
  bool event_states = true;
};
using ModelFactory = std::function<ModelInstance(const ParameterSet&)>;

/// Model "ellipsoid_wall" (validation/registry/register_ellipsoid_wall.cpp).
void RegisterEllipsoidWallModel(Registry<ModelFactory>& registry);
/// Planar EFDA pieces (register_planar.cpp).
void RegisterEfdaIntegrator(Registry<IntegratorFactory>& registry);
void RegisterPlanarModels(Registry<ModelFactory>& registry);
/// The "sphere_wall" and "sphere_pair" models (sphere_model_registration.cpp).
void RegisterSphereModels(Registry<ModelFactory>& registry);
/// Implicit baselines and conserving schemes (register_conserving.cpp).
void RegisterConservingIntegrators(Registry<IntegratorFactory>& registry);
/// two_body, bead_chain, disk_cloud (register_conserving_models.cpp).
void RegisterConservingModels(Registry<ModelFactory>& registry);
/// sphere_assembly: frictional spheres settling in a box (register_sphere_assembly.cpp).
void RegisterSphereAssemblyModel(Registry<ModelFactory>& registry);
/// free_rigid_body, the torque-free top (register_free_rigid_body.cpp).
void RegisterFreeRigidBodyModel(Registry<ModelFactory>& registry);

/// A law key the model's geometry cannot use → InvalidParameter naming the key, its value, the model and why
/// (the CLI prints it as one line, exit 2). No-op when the scenario does not set `key`.
void RejectInapplicableLaw(const ParameterSet& p, const std::string& key, const std::string& model,
                           const std::string& why);
/// The same for the laws a 1-D or frictionless pair-potential model cannot take: tangential_law (and mu).
void RejectTangentialLaw(const ParameterSet& p, const std::string& model, const std::string& why);

const Registry<IntegratorFactory>& IntegratorRegistry();
/// siconos_moreau_jean, siconos_event_driven (register_siconos.cpp; built only with Siconos).
void RegisterSiconosIntegrators(Registry<IntegratorFactory>& registry);
/// "exact": Feng's exact oscillator stepper (registry/register_exact.cpp).
void RegisterExactIntegrators(Registry<IntegratorFactory>& registry);
const Registry<NormalLawFactory>& NormalLawRegistry();
const Registry<DampingLawFactory>& DampingLawRegistry();
const Registry<ModelFactory>& ModelRegistry();

/// Writable access for registry/extension.h (RegisterIntegrator, …); user code calls those, not these.
Registry<IntegratorFactory>& MutableIntegratorRegistry();
Registry<NormalLawFactory>& MutableNormalLawRegistry();
Registry<DampingLawFactory>& MutableDampingLawRegistry();
Registry<ModelFactory>& MutableModelRegistry();

}  // namespace impactlab
