// The "sphere_assembly" model's scenario keys, factory and run summary (register_sphere_assembly.cpp).
// Summary keys: num_spheres, sphere_contacts, wall_contacts, coordination_number (2 × sphere contacts / N),
// history_slots_used, max_overlap_over_radius, mean_height_m, energy_balance_residual_final ((E + D − E₀)/E₀) and
// the final ledger [J]: energy_initial_J, energy_kinetic_J, energy_gravity_J, energy_normal_elastic_J,
// energy_tangential_elastic_J, energy_normal_damping_work_J, energy_friction_work_J, energy_generated_work_J.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>

#include "core/parameter_set.h"
#include "integrators/simulation.h"
#include "models/sphere_assembly.h"

namespace impactlab {

/// The lattice parameters from the keys (InvalidParameter naming the key, its value and the valid range).
SphereAssemblyParameters SphereAssemblyParametersFrom(const ParameterSet& p);
/// The model with its sphere–sphere and sphere–wall contact laws from the keys.
std::shared_ptr<SphereAssembly> MakeSphereAssembly(const ParameterSet& p);
void SummarizeSphereAssembly(const SphereAssembly& system, const SimulationRecord& record, nlohmann::json& out);

}  // namespace impactlab
