// Parameter parsing and run summary of the "sphere_wall" model (models/sphere_wall_impact.h), shared by the
// model registry and the seed 002 / Chung–Ooi studies.
//
// Keys (SI): radius, density, E_sphere, nu_sphere, E_wall, nu_wall, rigid_wall, poisson (sets nu_sphere and
// nu_wall), theta_deg (from the wall normal; Seed002 γ = 180° − θ), speed, omega0 (ω_y), omega0_x, omega0_z, mu, e_n,
// initial_gap, tangential_law (cundall_strack | mindlin_deresiewicz | mindlin_integral | mindlin_scaled_integral |
// mindlin_incremental | mindlin_rescaled_incremental), kt_over_kn and kt (cundall_strack only).
// Summary keys: e_n, e_t, beta, omega_after, omega_after_abs, psi, psi_rigid_beta, psi_rigid_e_t,
// kinetic_energy_ratio, tangential_kinetic_energy_ratio (½mv_t² + ½Iω², after/before), contact_duration, rebound_angle_deg, contacts, energy_balance_residual_max
// (max |E + D − E₀|/E₀ incl. the law's generated energy), integration_residual_max (the same minus the
// generated energy), and the final ledger (energy_* keys); the keys both sphere models read and write are listed
// in sphere_model_registration.h.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/parameter_set.h"
#include "models/sphere_wall_impact.h"
#include "registry/contact_law_registry.h"
#include "registry/registries.h"

namespace impactlab {

SphereWallImpactParameters SphereWallParametersFrom(const ParameterSet& p);
/// E*, G*, R = R*, m, v cos θ, e_n of the sphere–wall contact (what the law factories read).
ContactPairData SphereWallPairData(const SphereWallImpactParameters& sp);
std::shared_ptr<const TangentialLaw> TangentialLawFrom(const ParameterSet& p, const SphereWallImpactParameters& sp);
/// Post-impact quantities from the final state (after separation) and the events of a run.
void SummarizeSphereWall(const SphereWallImpact& system, const SimulationRecord& record, nlohmann::json& out);

}  // namespace impactlab
