#include "integrators/siconos/siconos_event_driven.h"

#include <cmath>
#include <exception>

#include "core/errors.h"
#include "integrators/siconos/siconos_model_data.h"

namespace impactlab {

namespace {
// The driver's step h = t_{n+1} − t_n differs from dt by round-off from step to step: the same step for the Siconos
// problem built with built_h (rebuilding it every step cost a Siconos set-up per step — 0.22 s per step on the
// 100-bead chain — and the memory Siconos 4.4 leaks per problem, ≈ 9 KB per step on the ball).
bool SameStep(double h, double built_h) { return std::abs(h - built_h) <= 1e-9 * built_h; }
}  // namespace

void SiconosEventDrivenOptions::Validate() const {
  if (restitution && !(*restitution >= 0.0 && *restitution <= 1.0)) throw InvalidParameter("e", *restitution, "[0, 1]");
  if (!(rel_tol > 0.0 && rel_tol < 1.0)) throw InvalidParameter("siconos_rtol", rel_tol, "(0, 1)");
  if (!(abs_tol > 0.0 && std::isfinite(abs_tol))) throw InvalidParameter("siconos_atol", abs_tol, "> 0, finite");
}

namespace {

// Siconos 4.4's EventDriven cannot carry Coulomb friction (see the header): refuse μ > 0 naming the reason.
void RefuseFriction(const std::string& integrator, const MechanicalSystem& system,
                    const FrictionalContactStructure& model) {
  for (int a = 0; a < model.num_frictional_contacts(); ++a) {
    const double mu = model.FrictionCoefficient(a);
    if (mu == 0.0) continue;
    std::string value(1, '"');
    value.append(integrator).append("\" on model \"").append(system.name()).append("\" with mu = ");
    value.append(InvalidParameter::FormatNumber(mu));
    throw InvalidParameter(
        "integrator", value,
        "mu = 0 only, since Siconos 4.4's event-driven scheme has no Coulomb friction (its index sets and impact and "
        "acceleration-level problems are scalar unilateral LCPs on the normal gap, and LSODAR locates gap roots "
        "only, not the stick-slip transitions |u_t| = 0 where the acceleration-level friction problem may have no or "
        "several solutions, the Painleve paradox); use siconos_moreau_jean (Newton-Coulomb, FC3D)");
  }
}

}  // namespace

SiconosEventDriven::SiconosEventDriven(Options options) : options_(options) { options_.Validate(); }
SiconosEventDriven::~SiconosEventDriven() = default;

IntegratorTraits SiconosEventDriven::traits() const {
  IntegratorTraits t;
  t.order = 4;  // LSODAR (variable order, error-controlled) between events: `adaptive` is what the audit uses
  t.implicit = true;
  t.adaptive = true;
  t.conserves_momentum = true;
  t.dense_matrices = true;  // one Siconos dynamical system with a dense n × n mass matrix (siconos_contact_adapter.h)
  t.library = "Siconos";
  t.reference = "Acary & Brogliato 2008 ch. 8 (EventDriven, LsodarOSI, impact and acceleration LCPs)";
  t.damping_treatment = "rigid contact: Newton's impact law with the scenario's e replaces the compliant law";
  return t;
}

std::string SiconosEventDriven::impact_law() const {
  return "Newton, e = " + RestitutionText(options_.restitution);
}

EnergyTerms SiconosEventDriven::RigidEnergyBooks(const MechanicalSystem& system, const MechanicalState& s) const {
  return SiconosRigidEnergyBooks(system, s);
}

void SiconosEventDriven::DropProblem() {
  adapter_.reset();
  built_for_ = nullptr;
}

void SiconosEventDriven::Reset() {
  DropProblem();
  impacts_.clear();
  rigid_impacts_.clear();
  problem_statistics_ = {};
}

StepResult SiconosEventDriven::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  const MechanicalState& before = step_start();
  StepResult result;
  const double t_target = before.t + h;
  step_impacts_.clear();
  try {
    if (!adapter_ || built_for_ != &system || !SameStep(h, built_h_) || !last_.SameValues(before)) {
      DropProblem();  // a new step size or a state handed in that is not the last one: rebuild, keep the impacts
      const SiconosModelData data = ExtractSiconosModel(name(), system, before);
      if (data.frictional) RefuseFriction(name(), system, *data.frictional);
      mass_ = data.mass;
      SiconosSchemeSettings settings;
      settings.scheme = SiconosScheme::kEventDriven;
      settings.restitution = NewtonRestitution(options_.restitution, data);
      settings.rel_tol = options_.rel_tol;
      settings.abs_tol = options_.abs_tol;
      adapter_ = std::make_unique<SiconosContactAdapter>(data, settings, h);
      built_h_ = h;
      built_for_ = &system;
    }
    adapter_->Advance(t_target, &step_impacts_);
  } catch (const InvalidParameter&) {
    DropProblem();
    throw;  // the model cannot be expressed: a user error, not a step failure
  } catch (const std::exception& e) {
    DropProblem();
    result.status = StepStatus::kFailed;
    result.cause = StepFailureCause::kSiconosFailure;
    result.message = std::string("Siconos event-driven step failed: ") + e.what();
    return result;
  }
  double dissipated = before.dissipated;
  for (const SiconosImpact& jump : step_impacts_) {
    Impact impact{jump.t, jump.v_before, jump.v_after,
                  DiagonalKineticEnergy(mass_, jump.v_before) - DiagonalKineticEnergy(mass_, jump.v_after)};
    dissipated += impact.kinetic_energy_loss;
    impacts_.push_back(std::move(impact));
    for (const SiconosContactImpact& c : jump.contacts)
      rigid_impacts_.push_back({c.t, c.contact, c.u_minus, c.u_plus, c.impulse});
  }
  problem_statistics_.problems += adapter_->last_problems();
  problem_statistics_.iterations += adapter_->last_problem_iterations();
  adapter_->Read(state.q, state.v);
  state.t = t_target;
  state.dissipated = dissipated;
  system.UpdateHistory(before, state);
  stats_.internal_steps += 1 + static_cast<long>(step_impacts_.size());
  last_.AssignFrom(state);
  return result;
}

}  // namespace impactlab
