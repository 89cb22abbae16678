#include "integrators/efda.h"

#include "core/errors.h"

#include <Eigen/Dense>
#include <cmath>
#include <limits>

#include "core/checks.h"
#include "planar/planar_contact_system.h"
#include "planar/planar_discrete_contacts.h"
#include "integrators/contact_term_discrete_force.h"
#include "integrators/gonzalez_discrete_gradient.h"
#include "system/discrete_contact_system.h"
#include "system/pair_potential_structure.h"

namespace impactlab {

void Efda::Options::Validate() const {
  RequireAtLeast("efda_max_iterations", max_iterations, 1.0);
  if (max_iterations > 100000) throw InvalidParameter("efda_max_iterations", max_iterations, "[1, 100000]");
  RequirePositive("efda_position_tolerance", position_tolerance);
}

Efda::Efda(Options options) : options_(options) { options_.Validate(); }

IntegratorTraits Efda::traits() const {
  IntegratorTraits t;
  t.order = 2;
  t.implicit = true;
  t.conserves_energy = true;
  t.conserves_momentum = true;
  t.library = "impactlab";
  t.reference = "Bravo & Perez-Aparicio, COMPLAS XI (2011) (Seed003); reading in docs/efda.md";
  t.damping_treatment = "Seed003 eq. 17 dashpots on the step's gap increment (exact work c*Dd^2/dt)";
  return t;
}

template <class Force>
bool Efda::FixedPoint(const MechanicalState& before, const Eigen::VectorXd& minv, double h, Eigen::VectorXd& q1,
                      Force&& force, int& it) {
  const Eigen::Index n = q1.size();
  Eigen::VectorXd& f = work_.f;
  Eigen::VectorXd& q_next = work_.q_next;
  if (f.size() != n) f.resize(n);
  if (q_next.size() != n) q_next.resize(n);
  double last_change = std::numeric_limits<double>::infinity();
  int stagnant = 0;
  it = 0;
  while (it < options_.max_iterations) {
    ++it;
    force(q1, f);  // F̄(q_n, q1): resistance (M Δv = −h F̄)
    q_next = before.q + h * before.v - (0.5 * h * h) * minv.cwiseProduct(f);
    double change = 0.0;
    bool small = true;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double d = std::abs(q_next[i] - q1[i]);
      change = std::max(change, d);
      if (d > options_.position_tolerance * std::max(1.0, std::abs(q_next[i]))) small = false;
    }
    q1 = q_next;
    if (small) return true;
    if (change < 1e-13 && change >= last_change && ++stagnant >= 2) return true;  // round-off floor
    last_change = change;
  }
  return false;
}

StepResult Efda::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  if (dynamic_cast<const PlanarContactSystem*>(&system)) return DoPlanarStep(system, state, h);
  StepResult result;
  const MechanicalState& before = step_start();
  const auto* contacts = dynamic_cast<const DiscreteContactSystem*>(&system);
  const auto* cms = dynamic_cast<const ConstantMassSystem*>(&system);
  if (!contacts && !cms)  // before any arithmetic: q and v may differ in size (unit quaternions)
    throw InvalidParameter("integrator", "\"efda\" on model \"" + system.name() + "\"",
                           state.q.size() != state.v.size()
                               ? "a model with q' = v and a constant mass matrix; this model rotates in 3-D with "
                                 "unit quaternions (q' = N(q) v), which needs a rotation-aware energy-momentum "
                                 "scheme (lie_poisson_midpoint, docs/rotation.md)"
                               : "a model exposing its constant mass matrix and contacts (ConstantMassSystem, "
                                 "DiscreteContactSystem or PlanarContactSystem)");
  const Eigen::Index n = state.v.size();
  Workspace& w = work_;
  for (Eigen::VectorXd* v : {&w.a0, &w.mass, &w.minv, &w.f_ext})
    if (v->size() != n) v->resize(n);
  Eigen::VectorXd& a0 = w.a0;
  system.Acceleration(before, a0);
  ++stats_.rhs_evaluations;
  w.q1 = before.q + h * before.v + 0.5 * h * h * a0;
  Eigen::VectorXd& q1 = w.q1;
  int it = 0;
  bool converged = false;
  if (contacts) {
    contacts->WriteDiscreteMassDiagonal(w.mass);
    w.minv = w.mass.cwiseInverse();
    const Eigen::VectorXd& minv = w.minv;
    DiscreteContactStep& step = w.contact_step;
    auto force = [&](const Eigen::VectorXd& q, Eigen::VectorXd& f) {
      contacts->EvaluateDiscreteStep(before, q, h, DiscreteGradientForm::kGapQuotient, step);
      ++stats_.rhs_evaluations;
      f = step.force;
    };
    converged = FixedPoint(before, minv, h, q1, force, it);
    if (converged) {
      contacts->EvaluateDiscreteStep(before, q1, h, DiscreteGradientForm::kGapQuotient, step);
      state.q = q1;
      state.v = before.v - h * minv.cwiseProduct(step.force);
      state.z = step.z_next;
      state.dissipated = before.dissipated + step.dissipated;
      last_ = EfdaStepReport{};
      last_.normal_dashpot_work = step.damping_work;
      last_.slip_work = step.friction_work;
    }
  } else {
    cms->WriteMassDiagonal(w.mass);
    w.minv = w.mass.cwiseInverse();
    const Eigen::VectorXd& minv = w.minv;
    Eigen::VectorXd& f_ext = w.f_ext;
    cms->ExternalForce(before.t + 0.5 * h, f_ext);
    const auto* pairs = dynamic_cast<const PairPotentialStructure*>(&system);
    DiscreteForceEvaluation& eval = w.eval;
    auto force = [&](const Eigen::VectorXd& q, Eigen::VectorXd& f) {
      if (pairs)
        EvaluateContactTermDiscreteForce(*pairs, DiscreteGradientForm::kGapQuotient, before.q, q, h, eval, nullptr);
      else
        EvaluateGonzalezDiscreteForce(*cms, before.q, q, h, eval, nullptr);
      ++stats_.rhs_evaluations;
      f = eval.force - f_ext;
    };
    converged = FixedPoint(before, minv, h, q1, force, it);
    if (converged) {
      Eigen::VectorXd& f = w.f;
      force(q1, f);
      state.q = q1;
      state.v = before.v - h * minv.cwiseProduct(f);
      state.z = before.z;
      state.dissipated = before.dissipated + eval.dissipation;
      system.UpdateHistory(before, state);
      last_ = EfdaStepReport{};
      last_.normal_dashpot_work = eval.dissipation;
    }
  }
  stats_.newton_iterations += it;
  result.newton_iterations = it;
  if (!converged) {
    result.status = StepStatus::kRetrySmallerStep;
    result.cause = StepFailureCause::kFixedPointNonConvergence;
    result.message = "efda fixed-point iteration did not converge in " + std::to_string(it) + " iterations";
    return result;
  }
  last_.iterations = it;
  state.t = before.t + h;
  return result;
}

StepResult Efda::DoPlanarStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  StepResult result;
  const auto* pcs = dynamic_cast<const PlanarContactSystem*>(&system);
  const int nb = pcs->num_bodies();
  const Eigen::Index n = 3 * nb;
  if (state.q.size() != n || state.v.size() != n || state.z.size() != pcs->history_size()) {
    result.status = StepStatus::kFailed;
    result.cause = StepFailureCause::kUnsupportedState;
    result.message = "efda: state sizes do not match the PlanarContactSystem layout";
    return result;
  }
  // Every vector in the kept workspace (no allocation once sized).
  PlanarWorkspace& w = planar_;
  for (Eigen::VectorXd* v : {&w.minv, &w.q0, &w.v0, &w.q1, &w.v1, &w.q_next})
    if (v->size() != n) v->resize(n);
  Eigen::VectorXd &minv = w.minv, &q0 = w.q0, &v0 = w.v0, &z0 = w.z0, &q1 = w.q1, &f = w.f, &z1 = w.z1, &v1 = w.v1,
                  &q_next = w.q_next;
  for (int b = 0; b < nb; ++b) {
    minv[3 * b] = minv[3 * b + 1] = 1.0 / pcs->body_mass(b);
    minv[3 * b + 2] = 1.0 / pcs->body_inertia(b);
  }
  q0 = state.q;
  v0 = state.v;
  z0 = state.z;
  pcs->WriteExternalForce(w.f_ext);
  q1 = q0 + h * v0 + 0.5 * h * h * minv.cwiseProduct(w.f_ext);
  PlanarStepReport rep;
  bool converged = false;
  int it = 0;
  double last_change = std::numeric_limits<double>::infinity();
  int stagnant = 0;
  while (it < options_.max_iterations) {
    ++it;
    pcs->CandidateSlots(q0, q1, slots_);
    EvaluatePlanarDiscreteContacts(*pcs, slots_, q0, q1, z0, h, DiscreteGradientForm::kGapQuotient, f, z1, rep);
    v1 = v0 + h * minv.cwiseProduct(f);
    q_next = q0 + 0.5 * h * (v0 + v1);
    double change = 0.0;
    bool small = true;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double d = std::abs(q_next[i] - q1[i]);
      change = std::max(change, d);
      if (d > options_.position_tolerance * std::max(1.0, std::abs(q_next[i]))) small = false;
    }
    q1 = q_next;
    if (small) {
      converged = true;
      break;
    }
    // Round-off floor: the change stopped decreasing while already below 1e-13 (m or rad).
    if (change < 1e-13 && change >= last_change) {
      if (++stagnant >= 2) {
        converged = true;
        break;
      }
    }
    last_change = change;
  }
  stats_.newton_iterations += it;
  if (!converged) {
    result.status = StepStatus::kRetrySmallerStep;
    result.cause = StepFailureCause::kFixedPointNonConvergence;
    result.message = "efda fixed-point iteration did not converge in " + std::to_string(it) + " iterations";
    return result;
  }
  // Final, consistent evaluation at the converged end configuration.
  pcs->CandidateSlots(q0, q1, slots_);
  EvaluatePlanarDiscreteContacts(*pcs, slots_, q0, q1, z0, h, DiscreteGradientForm::kGapQuotient, f, z1, rep);
  v1 = v0 + h * minv.cwiseProduct(f);
  rep.iterations = it;
  state.q = q1;
  state.v = v1;
  state.z = z1;
  state.t += h;
  state.dissipated += rep.state_dissipated();  // with a tangential law, W_f and W_g are booked in z
  last_ = rep;
  result.newton_iterations = it;
  return result;
}

}  // namespace impactlab
