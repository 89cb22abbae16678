// SiconosEventDriven: the event-driven scheme for rigid unilateral contact, computed by Siconos (EventDriven
// simulation, LsodarOSI between events, an impact LCP and an acceleration-level LCP at events) [Acary &
// Brogliato 2008, "Numerical Methods for Nonsmooth Dynamical Systems", ch. 8; Pfeiffer & Glocker 1996,
// "Multibody Dynamics with Unilateral Contacts"; LSODAR: Hindmarsh 1983, Petzold 1983]. With the contacts of
// the model translated by integrators/siconos/siconos_contact_adapter.h:
//
//   smooth phases:  M v̇ = f + Σ_{α active} H_αᵀ λ_α, with the acceleration-level LCP
//                   0 ≤ ÿ_α = H_α v̇ + Ḣ_α v ⊥ λ_α ≥ 0 on the contacts with y_α = 0, ẏ_α = 0,
//                   integrated by LSODAR with root finding on the gaps y_α
//   at an impact t_i (a root of y_α located by LSODAR):
//                   M (v⁺ − v⁻) = Σ H_αᵀ P_α,   0 ≤ ẏ_α⁺ + e ẏ_α⁻ ⊥ P_α ≥ 0     (impact LCP, Newton's law)
//                   D ← D + ½ v⁻ᵀ M v⁻ − ½ v⁺ᵀ M v⁺                          (impact loss booked)
//
// A single impact thus gives ẏ⁺ = −e ẏ⁻ to the LCP's round-off, at the located impact time; the smooth phases
// are as accurate as LSODAR's tolerances (scenario keys siconos_rtol, siconos_atol). One Step(h) processes every
// event in (t, t + h] and stops exactly at t + h (a time-discretisation event of Siconos); impacts() keeps the
// velocity jumps, rigid_impacts() each contact's share of them (u⁻, u⁺ = H_α v before and after the impact LCP, and
// its impulse P_α; integrators/rigid_contact_scheme.h). Accumulations of impacts (a ball coming to rest: Zeno) are beyond an event-driven scheme
// (the step fails after 1e5 events): use siconos_moreau_jean there.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "integrators/integrator.h"
#include "integrators/rigid_contact_scheme.h"
#include "integrators/siconos/siconos_contact_adapter.h"

namespace impactlab {

struct SiconosEventDrivenOptions {
  /// e ∈ [0, 1] of Newton's impact law: the scenario key e (else e_n); unset: the e the model's compliant laws are
  /// calibrated to (FrictionalContactStructure::CalibratedRestitution), else 1 (NewtonRestitution).
  std::optional<double> restitution;
  double rel_tol = 1e-10;    ///< LSODAR relative tolerance (scenario key siconos_rtol) in (0, 1)
  double abs_tol = 1e-12;    ///< LSODAR absolute tolerance (scenario key siconos_atol) > 0
  void Validate() const;
};

class SiconosEventDriven final : public Integrator, public RigidContactScheme {
 public:
  using Options = SiconosEventDrivenOptions;
  /// One impact: the time and the velocities just before and just after the jump.
  struct Impact {
    double t = 0.0;
    Eigen::VectorXd v_before, v_after;
    double kinetic_energy_loss = 0.0;  ///< ½v⁻ᵀMv⁻ − ½v⁺ᵀMv⁺ [J]
  };

  explicit SiconosEventDriven(Options options = {});
  ~SiconosEventDriven() override;

  std::string name() const override { return "siconos_event_driven"; }
  IntegratorTraits traits() const override;
  std::string impact_law() const override;
  EnergyTerms RigidEnergyBooks(const MechanicalSystem& system, const MechanicalState& s) const override;
  void Reset() override;
  const Options& options() const { return options_; }
  /// Every impact since the last Reset() (the start of a run), in time order.
  const std::vector<Impact>& impacts() const { return impacts_; }
  /// The contacts that received an impulse at those impacts: u⁻, u⁺ at the located impact time.
  const std::vector<RigidImpact>& rigid_impacts() const override { return rigid_impacts_; }
  RigidProblemStatistics problem_statistics() const override { return problem_statistics_; }

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;

  Options options_;
  std::unique_ptr<SiconosContactAdapter> adapter_;
  Eigen::VectorXd mass_;
  double built_h_ = 0.0;
  const MechanicalSystem* built_for_ = nullptr;
  MechanicalState last_;
  std::vector<Impact> impacts_;
  std::vector<RigidImpact> rigid_impacts_;
  RigidProblemStatistics problem_statistics_;
  std::vector<SiconosImpact> step_impacts_;

  void DropProblem();  ///< forget the Siconos problem, keep the run's impacts
};

}  // namespace impactlab
