#include "integrators/siconos/siconos_moreau_jean.h"

#include <algorithm>
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

void SiconosMoreauJeanOptions::Validate() const {
  if (!(theta >= 0.5 && theta <= 1.0)) throw InvalidParameter("siconos_theta", theta, "[0.5, 1]");
  if (restitution && !(*restitution >= 0.0 && *restitution <= 1.0)) throw InvalidParameter("e", *restitution, "[0, 1]");
}

SiconosMoreauJean::SiconosMoreauJean(Options options) : options_(options) { options_.Validate(); }
SiconosMoreauJean::~SiconosMoreauJean() = default;

IntegratorTraits SiconosMoreauJean::traits() const {
  IntegratorTraits t;
  // θ = ½ is the trapezoidal rule on the smooth dynamics (second order, measured by the order audit on the
  // harmonic oscillator); through impacts the scheme is first order (impact times within one step).
  t.order = options_.theta == 0.5 ? 2 : 1;
  t.implicit = true;
  t.conserves_momentum = true;
  t.dense_matrices = true;  // one Siconos dynamical system with a dense n × n mass matrix (siconos_contact_adapter.h)
  t.library = "Siconos";
  t.reference = "Moreau 1988; Jean 1999; Acary & Brogliato 2008 §10.1 (MoreauJeanOSI, LCP)";
  t.damping_treatment = "rigid contact: Newton's impact law with the scenario's e replaces the compliant law";
  return t;
}

std::string SiconosMoreauJean::impact_law() const {
  return "Newton, e = " + RestitutionText(options_.restitution) +
         " (Newton-Coulomb with the model's mu on declared frictional contacts)";
}

EnergyTerms SiconosMoreauJean::RigidEnergyBooks(const MechanicalSystem& system, const MechanicalState& s) const {
  return SiconosRigidEnergyBooks(system, s);
}

void SiconosMoreauJean::Reset() {
  adapter_.reset();
  built_for_ = nullptr;
  rigid_impacts_.clear();
  problem_statistics_ = {};
}

StepResult SiconosMoreauJean::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  const MechanicalState& before = step_start();
  StepResult result;
  try {
    if (!adapter_ || built_for_ != &system || !SameStep(h, built_h_) || !last_.SameValues(before)) {
      adapter_.reset();  // rebuilt: the run's impacts are kept
      SiconosSchemeSettings settings;
      settings.scheme = SiconosScheme::kMoreauJean;
      settings.theta = options_.theta;
      const SiconosModelData data = ExtractSiconosModel(name(), system, before);
      settings.restitution = NewtonRestitution(options_.restitution, data);
      adapter_ = std::make_unique<SiconosContactAdapter>(data, settings, h);
      built_h_ = h;
      built_for_ = &system;
    }
    adapter_->Advance(before.t + h, nullptr);
  } catch (const InvalidParameter&) {
    adapter_.reset();
    built_for_ = nullptr;
    throw;  // the model cannot be expressed: a user error, not a step failure
  } catch (const std::exception& e) {
    adapter_.reset();
    built_for_ = nullptr;
    result.status = StepStatus::kFailed;
    result.cause = StepFailureCause::kSiconosFailure;
    result.message = std::string("Siconos Moreau-Jean step failed: ") + e.what();
    return result;
  }
  adapter_->Read(state.q, state.v);
  state.t = before.t + h;
  // Work of the impulses over the step; the energy balance is exact for θ = ½.
  state.dissipated = before.dissipated - 0.5 * adapter_->last_impulse().dot(before.v + state.v);
  system.UpdateHistory(before, state);
  // One LCP per step (Lemke), or the FC3D Gauss–Seidel sweeps of the friction-contact problem.
  stats_.newton_iterations += std::max(1, adapter_->last_solver_iterations());
  for (const SiconosContactImpact& c : adapter_->last_step_impacts())
    rigid_impacts_.push_back({c.t, c.contact, c.u_minus, c.u_plus, c.impulse});
  if (!adapter_->last_solver_converged()) ++problem_statistics_.unconverged;
  problem_statistics_.max_residual = std::max(problem_statistics_.max_residual, adapter_->last_solver_residual());
  problem_statistics_.problems += adapter_->last_problems();
  problem_statistics_.iterations += adapter_->last_problem_iterations();
  last_.AssignFrom(state);
  return result;
}

}  // namespace impactlab
