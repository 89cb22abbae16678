// What Siconos can be given of a model (integrators/siconos/siconos_contact_adapter.h): a constant-mass model
// (system/constant_mass_system.h) whose contacts are declared as gap functions with Jacobians
// (system/pair_potential_structure.h) and whose other forces are constant or linear springs:
//   M v̇ = −b + f_ext(t₀) − K q − c − Σ_k W_k′(δ_k) ∇δ_k(q),    V(q) = Σ_k W_k(δ_k(q)) + bᵀq + ½ qᵀK q + cᵀq
// The residual r(q) = ∇V_model(q) − ∇(Σ_k W_k + bᵀq)(q) must be affine, r = K q + c with K = ∇²V_model − ∇²(Σ W_k)
// at q₀ (checked at q₀ and at a second point), and the model's damping must be that of its contact terms only;
// anything else (a nonlinear field, a dashpot between bodies) is refused with the reason. The compliant laws
// W_k and their dampers are what the rigid constraints with Newton's impact law replace [Moreau 1988;
// Acary & Brogliato 2008 §3.2]; f_ext is held at its value at t₀.
// A model that declares its contacts as frictional contacts (system/frictional_contact_structure.h: gap, 3 × n
// Jacobian of the contact-point velocities, μ) is taken through that declaration instead: M and f are the
// declared ones, the contacts carry Coulomb friction.
#pragma once

#include <optional>
#include <string>

#include "integrators/siconos/siconos_contact_adapter.h"
#include "state/mechanical_state.h"
#include "system/mechanical_system.h"

namespace impactlab {

/// Empty when Siconos can express the model, else the reason (for `list --matrix`).
std::string SiconosUnsupportedReason(const MechanicalSystem& system, const MechanicalState& state);

/// The data at `state`; throws InvalidParameter naming `integrator`, the model and the reason when unsupported.
SiconosModelData ExtractSiconosModel(const std::string& integrator, const MechanicalSystem& system,
                                     const MechanicalState& state);

/// The books of the rigid problem Siconos solves for `system` at s (integrators/rigid_contact_scheme.h): T, the
/// model's potential minus its unilateral contact terms' W_k (PairPotentialStructure models) or −fᵀq (frictional
/// contact models), and s.dissipated (the impulse work) as damping work.
EnergyTerms SiconosRigidEnergyBooks(const MechanicalSystem& system, const MechanicalState& s);

/// e of Newton's impact law: the scenario's (key e, else e_n) when it sets one, else the e the model's compliant laws
/// are calibrated to (FrictionalContactStructure::CalibratedRestitution), else 1.
double NewtonRestitution(const std::optional<double>& scenario, const SiconosModelData& data);
/// The scenario's e as text, or what NewtonRestitution falls back to when it is unset (impact_law()).
std::string RestitutionText(const std::optional<double>& scenario);

/// ½ vᵀ M v with M = diag(mass).
double DiagonalKineticEnergy(const Eigen::VectorXd& mass, const Eigen::VectorXd& v);

}  // namespace impactlab
