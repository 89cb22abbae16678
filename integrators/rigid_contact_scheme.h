// RigidContactScheme: the optional marker an Integrator derives from when it treats contacts as rigid unilateral
// constraints with an impact law (Moreau–Jean, event-driven; Acary & Brogliato 2008 ch. 3, 8, 10) instead of
// integrating the model's compliant contact law. Such a scheme approximates the K → ∞ limit of the compliant
// problem, so measures of the compliant contact trajectory (the order audit's Hertz contact) do not apply; found
// by dynamic_cast, like the optional model structures (system/constant_mass_system.h).
//
// Its energy is that of the rigid problem it solves (RigidEnergyBooks): E = T + V_smooth(q) with no contact energy
// (a rigid contact stores none; the compliant W(δ) of a state that ends a step inside the obstacle is not part of
// it) and D = MechanicalState::dissipated, the work of the impulses the scheme booked (impact and friction losses).
// The simulation driver hands observers a view of the model with these books (integrators/rigid_energy_view.h),
// and locates no compliant contact events for it (its δ > 0 are penetrations inside an impact step, not contacts;
// a restitution from them would not be the e its impact law imposes).
#pragma once

#include <string>

#include "state/energy_terms.h"
#include "state/mechanical_state.h"
#include "system/mechanical_system.h"

namespace impactlab {

class RigidContactScheme {
 public:
  virtual ~RigidContactScheme() = default;
  /// The impact law the scheme applies at every contact, e.g. "Newton, e = 0.8".
  virtual std::string impact_law() const = 0;
  /// The books of the rigid problem at s: kinetic T, the smooth potential (model potential minus its contact
  /// energies), the impulse work booked in s.dissipated as damping work.
  virtual EnergyTerms RigidEnergyBooks(const MechanicalSystem& system, const MechanicalState& s) const = 0;
};

}  // namespace impactlab
