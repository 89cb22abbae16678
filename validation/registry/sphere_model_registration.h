// What the registrations of the two sphere models share (sphere_wall: register_sphere_wall.cpp, sphere_pair:
// register_sphere_pair.cpp; the models' common part is models/sphere_contact_model.h): reading their scenario keys,
// the common part of their run summary, and their two entries of the model registry (RegisterSphereModels,
// sphere_model_registration.cpp).
//
// Keys: `poisson` sets the Poisson ratio of both bodies; otherwise each body's own key (nu_sphere / nu_wall,
// nu1 / nu2); both together is an InvalidParameter. Both models also read e_n, initial_gap and the contact law's
// keys (mu, normal_law, damping, tangential_law and theirs, through ContactLawFromKeys).
// Summary keys (SummarizeSphereContact): contacts (contact starts), contact_duration and max_overlap of the first
// contact (null if it did not end), separated (the first contact ended, or none was located and the gap is opening, and δ_n < 0 in the final state),
// energy_balance_residual_final (signed (E + D − E₀)/E₀ at the end; the maxima are the ledger's) and the final
// ledger [J]: energy_initial_J, energy_kinetic_trans_J, energy_kinetic_rot_J, energy_normal_elastic_J,
// energy_tangential_elastic_J, energy_normal_damping_work_J, energy_friction_work_J, energy_generated_work_J,
// energy_total_dissipated_J (docs/theory.md §6 "Energy bookkeeping").
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "core/parameter_set.h"
#include "integrators/simulation.h"
#include "models/sphere_contact_model.h"

namespace impactlab {

/// Reads each key present in p into its field; an absent key keeps the field's value (the default).
void ReadDoubles(const ParameterSet& p, std::initializer_list<std::pair<const char*, double*>> fields);
/// Reads the two bodies' Poisson ratios into nu_a, nu_b (their current values are the defaults).
void ReadPoissonRatios(const ParameterSet& p, const std::string& key_a, const std::string& key_b, double& nu_a,
                       double& nu_b);
/// Writes the summary keys above; returns `separated`.
bool SummarizeSphereContact(const SphereContactModel& system, const SimulationRecord& record, nlohmann::json& out);

}  // namespace impactlab
