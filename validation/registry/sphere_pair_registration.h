// Parameter parsing and run summary of the "sphere_pair" model (models/sphere_pair_impact.h), shared by the
// model registry and the Chung–Ooi pair study.
//
// Keys (SI): radius1, radius2, density1, density2, E1, nu1, E2, nu2 (or poisson for both), v1_n (sphere 1
// towards 2, +z), v2_n (sphere 2 towards 1, −z), v1_t, v2_t (+x), omega1_x/y/z, omega2_x/y/z, e_n,
// initial_gap, mu, tangential_law (the sphere_wall names) and kt_over_kn / kt (cundall_strack only).
// Summary keys (at separation): e_n = −v_n⁺/v_n⁻ of the relative normal velocity (v₂ − v₁)·n,
// omega1_after / omega2_after ([x, y, z]), omega1_y_after, omega2_y_after, v1_t_after, v2_t_after (x
// components), slip_velocity_before / slip_velocity_after (x component of v_s), contact_duration, max_overlap,
// contacts, separated, energy_balance_residual_max, integration_residual_max, energy_* ledger keys,
// linear_momentum_drift_max, angular_momentum_drift_max (relative, from the run's ledger); the keys both sphere
// models read and write are listed in sphere_model_registration.h.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>

#include "core/parameter_set.h"
#include "models/sphere_pair_impact.h"
#include "registry/contact_law_registry.h"
#include "registry/registries.h"

namespace impactlab {

SpherePairImpactParameters SpherePairParametersFrom(const ParameterSet& p);
/// E*, G*, R*, m*, v₁_n + v₂_n, e_n of the pair (what the law factories read; no equivalent wall problem needed).
ContactPairData SpherePairData(const SpherePairImpactParameters& sp);
/// The tangential law by name (the sphere_wall registry), with Mindlin stiffness 8 G* √(R* δ_n) of the pair.
std::shared_ptr<const TangentialLaw> SpherePairTangentialLawFrom(const ParameterSet& p,
                                                                 const SpherePairImpactParameters& sp);
/// Post-impact quantities from the final state and the events of a run (ledger optional: momentum drift).
void SummarizeSpherePair(const SpherePairImpact& system, const SimulationRecord& record, const EnergyLedger* ledger,
                         nlohmann::json& out);

}  // namespace impactlab
