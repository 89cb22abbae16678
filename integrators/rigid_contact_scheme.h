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
//
// Instead it records the impacts it resolves (RigidImpact): for contact α with normal relative velocity
// u_α = H_α(q) v (ẏ_α, positive when opening), Newton's law u_α⁺ = −e u_α⁻ [Moreau 1988; Acary & Brogliato 2008
// eq. 3.113, §8 (event-driven), §10.1 (Moreau–Jean: U_{n+1} = −e U_n on the step velocities)]. Event-driven: an
// impact is a nonsmooth event located by the root finder, u⁻ and u⁺ the velocities just before and after the
// impact problem. Moreau–Jean: an impact is a step in which the contact's normal impulse P_α becomes positive after
// a step without it; u⁻ = H_α v_n (the step-start velocity Newton's law acts on), u⁺ = H_α v_{n+1}, t = t_n (the
// time of the velocity u⁻ and of the predicted gap that activated the contact; the jump shows in the state at
// t_{n+1}). The run
// summary reports their number and −u⁺/u⁻ and the time of the first (validation/run/scenario_runner.cpp).
#pragma once

#include <string>
#include <vector>

#include "state/energy_terms.h"
#include "state/mechanical_state.h"
#include "system/mechanical_system.h"

namespace impactlab {

/// One impact resolved by a rigid-contact scheme (header comment).
struct RigidImpact {
  double t = 0.0;        ///< event-driven: the located impact time; Moreau–Jean: the start t_n of the impact step [s]
  int contact = 0;       ///< index of the unilateral contact (the scheme's declaration order of the model's contacts)
  double u_minus = 0.0;  ///< normal relative velocity before the impact (< 0: approaching) [m/s]
  double u_plus = 0.0;   ///< after it [m/s]
  double impulse = 0.0;  ///< normal impulse P_α ≥ 0 of the impact [N s]
};

/// Statistics of the nonsmooth one-step problems a rigid-contact scheme solved.
struct RigidProblemStatistics {
  long problems = 0;    ///< nonsmooth problems solved with at least one active contact (LCP, friction contact)
  long iterations = 0;  ///< solver iterations summed over them (Lemke pivots, FC3D Gauss–Seidel sweeps)
  long unconverged = 0;  ///< of them, those whose solver stopped above its tolerance (the step kept its answer)
  double max_residual = 0.0;  ///< the largest final residual of a friction-contact solve (Siconos' relative error)
};

class RigidContactScheme {
 public:
  virtual ~RigidContactScheme() = default;
  /// The impact law the scheme applies at every contact, e.g. "Newton, e = 0.8".
  virtual std::string impact_law() const = 0;
  /// The books of the rigid problem at s: kinetic T, the smooth potential (model potential minus its contact
  /// energies), the impulse work booked in s.dissipated as damping work.
  virtual EnergyTerms RigidEnergyBooks(const MechanicalSystem& system, const MechanicalState& s) const = 0;
  /// The impacts resolved since the last Reset(), in time order (header comment).
  virtual const std::vector<RigidImpact>& rigid_impacts() const = 0;
  /// The nonsmooth problems solved since the last Reset().
  virtual RigidProblemStatistics problem_statistics() const = 0;
};

}  // namespace impactlab
