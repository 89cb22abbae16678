// SiconosMoreauJean: Moreau–Jean time-stepping of the rigid unilateral contact problem, computed by Siconos
// (MoreauJeanOSI + TimeStepping + one LCP per step solved by Siconos/Numerics' Lemke solver) [Moreau 1988,
// "Unilateral contact and dry friction in finite freedom dynamics"; Jean 1999, "The non-smooth contact dynamics
// method", CMAME 177; Acary & Brogliato 2008, "Numerical Methods for Nonsmooth Dynamical Systems", §10.1].
// With the contacts of the model translated by integrators/siconos/siconos_contact_adapter.h:
//
//   M (v_{n+1} − v_n) = h f + p_{n+1},        p_{n+1} = Σ_α H_αᵀ P_α            (impulses of the step)
//   q_{n+1} = q_n + h (θ v_{n+1} + (1 − θ) v_n)
//   for every α with predicted gap y_α(q_n + h/2 v_n) ≤ 0 (the index set I_{n+1}):
//     0 ≤ U_α,{n+1} + e U_α,n  ⊥  P_α ≥ 0,        U_α = H_α v                     (Newton's impact law)
//   D_{n+1} = D_n − p_{n+1}ᵀ (v_n + v_{n+1})/2                                     (impact losses booked)
//
// For θ = ½ and a constant force f the energy changes over a step by exactly p_{n+1}ᵀ(v_n + v_{n+1})/2 (the work
// of the impulses), so E + D is conserved to round-off; a single impact books ½(1 − e²) m* U_n². θ is the
// scenario key siconos_theta ∈ [0.5, 1] (default 0.5), e the scenario's e ∈ [0, 1] (the restitution the compliant
// laws are calibrated to; e_n on the sphere models; without either, the model's calibrated e, else 1). Smooth phases: second order for θ = ½ (trapezoidal rule),
// first order otherwise; through impacts first order (an impact is resolved at the end of its step).
//
// Impacts (rigid_impacts(), integrators/rigid_contact_scheme.h): a step in which contact α's normal impulse P_α
// becomes positive after a step without one, with u⁻ = H_α v_n (the velocity Newton's law acts on) and
// u⁺ = H_α v_{n+1}, so −u⁺/u⁻ = e to the LCP's round-off when H_α is constant (walls, 1-D pairs); t = t_n, the step
// start. A contact is activated when its predicted gap y_n + h/2 ẏ_n ≤ 0, so for an impact at t* in free flight
// t_n − t* ∈ [−h/2, h/2] up to O(h²) (the gap's curvature). The impulse of that step also carries the smooth force
// of the step: P = m*(u⁺ − u⁻ − h H M⁻¹ f) for one contact (m* = (H M⁻¹ Hᵀ)⁻¹). A contact that stays closed keeps P_α > 0 over later steps (resting contact):
// those are not new impacts.
//
// The Siconos problem is built at the first Step from the model and the state, and rebuilt whenever the state
// handed in is not the one the previous Step returned or h changes (a driver retry, a new run).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "integrators/integrator.h"
#include "integrators/rigid_contact_scheme.h"
#include "integrators/siconos/siconos_contact_adapter.h"

namespace impactlab {

struct SiconosMoreauJeanOptions {
  double theta = 0.5;        ///< θ ∈ [0.5, 1] (scenario key siconos_theta)
  /// e ∈ [0, 1] of Newton's impact law: the scenario key e (else e_n); unset: the e the model's compliant laws are
  /// calibrated to (FrictionalContactStructure::CalibratedRestitution), else 1 (NewtonRestitution).
  std::optional<double> restitution;
  void Validate() const;
};

class SiconosMoreauJean final : public Integrator, public RigidContactScheme {
 public:
  using Options = SiconosMoreauJeanOptions;
  explicit SiconosMoreauJean(Options options = {});
  ~SiconosMoreauJean() override;

  std::string name() const override { return "siconos_moreau_jean"; }
  IntegratorTraits traits() const override;
  std::string impact_law() const override;
  EnergyTerms RigidEnergyBooks(const MechanicalSystem& system, const MechanicalState& s) const override;
  void Reset() override;
  const Options& options() const { return options_; }
  const std::vector<RigidImpact>& rigid_impacts() const override { return rigid_impacts_; }
  RigidProblemStatistics problem_statistics() const override { return problem_statistics_; }

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;

  Options options_;
  std::unique_ptr<SiconosContactAdapter> adapter_;
  double built_h_ = 0.0;
  const MechanicalSystem* built_for_ = nullptr;
  MechanicalState last_;  ///< the state the last Step returned (continuation check)
  std::vector<RigidImpact> rigid_impacts_;
  RigidProblemStatistics problem_statistics_;
};

}  // namespace impactlab
