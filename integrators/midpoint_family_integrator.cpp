#include "integrators/midpoint_family_integrator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "core/errors.h"

namespace impactlab {

const ConstantMassSystem& RequireConstantMassSystem(const MechanicalSystem& system, const std::string& integrator) {
  const auto* cms = dynamic_cast<const ConstantMassSystem*>(&system);
  if (!cms)
    throw InvalidParameter("integrator", "\"" + integrator + "\"",
                           "a model with a constant diagonal mass matrix (ConstantMassSystem or "
                           "DiscreteContactSystem); model \"" + system.name() + "\" is neither");
  return *cms;
}

MidpointFamilyIntegrator::MidpointFamilyIntegrator(ImplicitSchemeOptions options) : options_(options) {
  options_.Validate();
}

namespace {

class MidpointResidual final : public NewtonSystem {
 public:
  MidpointResidual(std::function<void(const Eigen::VectorXd&, DiscreteForceEvaluation&, NewtonJacobian*)> force,
                   const Eigen::VectorXd& mass, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                   const Eigen::VectorXd& f_ext, double h)
      : force_(std::move(force)), m_(mass), q0_(q0), v0_(v0), f_ext_(f_ext), h_(h) {}
  double Evaluate(const Eigen::VectorXd& q1, Eigen::VectorXd& r, NewtonJacobian* j) override {
    force_(q1, eval_, j);
    const Eigen::VectorXd dq = q1 - q0_;
    const Eigen::VectorXd inertia = (2.0 / (h_ * h_)) * m_.cwiseProduct(dq - h_ * v0_);
    r = inertia + eval_.force - f_ext_;
    if (j) {
      Eigen::SparseMatrix<double> inertia_jacobian(q1.size(), q1.size());
      std::vector<Eigen::Triplet<double>> diag;
      for (Eigen::Index i = 0; i < q1.size(); ++i) diag.emplace_back(i, i, 2.0 * m_[i] / (h_ * h_));
      inertia_jacobian.setFromTriplets(diag.begin(), diag.end());
      if (j->matrix.rows() != q1.size()) j->matrix.resize(q1.size(), q1.size());
      j->matrix += inertia_jacobian;
    }
    // The inertia term's round-off floor is set by the representation of q₁ itself (ulp(q₁) · 2m/h²),
    // not by |Δq|: include ‖m q₁‖ so that Newton stops at the floor instead of cycling below it.
    const double s = (2.0 / (h_ * h_)) * (m_.cwiseProduct(dq).lpNorm<Eigen::Infinity>() +
                                          m_.cwiseProduct(q1).lpNorm<Eigen::Infinity>()) +
                     (2.0 / h_) * m_.cwiseProduct(v0_).lpNorm<Eigen::Infinity>() + eval_.scale +
                     f_ext_.lpNorm<Eigen::Infinity>();
    return s;
  }
  const DiscreteForceEvaluation& last() const { return eval_; }

 private:
  std::function<void(const Eigen::VectorXd&, DiscreteForceEvaluation&, NewtonJacobian*)> force_;
  const Eigen::VectorXd &m_, &q0_, &v0_, &f_ext_;
  double h_;
  DiscreteForceEvaluation eval_;
};

// R(q₁) = (2M/h²)(Δq − h v_n) + F̄(state_n, q₁) for a DiscreteContactSystem; forward-difference Jacobian.
class ContactStepResidual final : public NewtonSystem {
 public:
  ContactStepResidual(const DiscreteContactSystem& contacts, const MechanicalState& before, double h,
                      DiscreteGradientForm form, long& evaluations)
      : contacts_(contacts), before_(before), m_(contacts.DiscreteMassDiagonal()), h_(h), form_(form),
        evaluations_(evaluations) {}
  double Evaluate(const Eigen::VectorXd& q1, Eigen::VectorXd& r, NewtonJacobian* j) override {
    const double s = Residual(q1, r, eval_);
    if (j) {
      const Eigen::Index n = q1.size();
      Eigen::MatrixXd dense(n, n);
      Eigen::VectorXd qp = q1, rp(n);
      const double motion = (q1 - before_.q).lpNorm<Eigen::Infinity>() + h_ * before_.v.lpNorm<Eigen::Infinity>();
      for (Eigen::Index c = 0; c < n; ++c) {
        // Step: √ε relative to the coordinate's own size and to the motion of the step.
        const double e = 1.5e-8 * std::max({std::abs(q1[c]), motion, 1e-300});
        qp[c] = q1[c] + e;
        const double ec = qp[c] - q1[c];  // the step actually represented
        Residual(qp, rp, probe_);
        dense.col(c) = (rp - r) / ec;
        qp[c] = q1[c];
      }
      j->matrix = dense.sparseView();
      j->u.resize(0);
      j->w.resize(0);
    }
    return s;
  }
  const DiscreteContactStep& last() const { return eval_; }

 private:
  double Residual(const Eigen::VectorXd& q1, Eigen::VectorXd& r, DiscreteContactStep& eval) {
    contacts_.EvaluateDiscreteStep(before_, q1, h_, form_, eval);
    ++evaluations_;
    const Eigen::VectorXd dq = q1 - before_.q;
    r = (2.0 / (h_ * h_)) * m_.cwiseProduct(dq - h_ * before_.v) + eval.force;
    return (2.0 / (h_ * h_)) * (m_.cwiseProduct(dq).lpNorm<Eigen::Infinity>() +
                                m_.cwiseProduct(q1).lpNorm<Eigen::Infinity>()) +
           (2.0 / h_) * m_.cwiseProduct(before_.v).lpNorm<Eigen::Infinity>() + eval.scale;
  }
  const DiscreteContactSystem& contacts_;
  const MechanicalState& before_;
  Eigen::VectorXd m_;
  double h_;
  DiscreteGradientForm form_;
  long& evaluations_;
  DiscreteContactStep eval_, probe_;
};

}  // namespace

NewtonReport SolveDiscreteContactStep(const DiscreteContactSystem& contacts, const MechanicalState& before,
                                      Eigen::VectorXd& q1, double h, DiscreteGradientForm form,
                                      const NewtonOptions& options, DiscreteContactStep& step, long& evaluations) {
  ContactStepResidual residual(contacts, before, h, form, evaluations);
  const double step_scale = before.q.lpNorm<Eigen::Infinity>() + h * before.v.lpNorm<Eigen::Infinity>();
  NewtonReport rep = SolveNewton(residual, q1, step_scale, options);
  contacts.EvaluateDiscreteStep(before, q1, h, form, step);  // the converged iterate's books
  ++evaluations;
  return rep;
}

StepResult MidpointFamilyIntegrator::DoContactStep(const MechanicalSystem& system,
                                                   const DiscreteContactSystem& contacts, MechanicalState& state,
                                                   double h) {
  const MechanicalState& before = step_start();
  const Eigen::VectorXd mass = contacts.DiscreteMassDiagonal();
  // Predictor: explicit Verlet position (as for the other models).
  Eigen::VectorXd a0(state.v.size());
  system.Acceleration(before, a0);
  ++stats_.rhs_evaluations;
  Eigen::VectorXd q1 = before.q + h * before.v + (0.5 * h * h) * a0;
  DiscreteContactStep step;
  long evaluations = 0;
  const NewtonReport rep = SolveDiscreteContactStep(contacts, before, q1, h, contact_form(), options_.newton, step,
                                                    evaluations);
  stats_.rhs_evaluations += evaluations;
  stats_.newton_iterations += rep.iterations;
  stats_.jacobian_evaluations += rep.jacobian_evaluations;
  StepResult result;
  result.newton_iterations = rep.iterations;
  result.residual_norm = rep.residual_norm;
  if (!rep.converged) {
    result.status = StepStatus::kRetrySmallerStep;
    result.cause = rep.cause;
    result.message = name() + ": " + rep.message;
    return result;
  }
  state.q = q1;
  state.v = before.v - h * step.force.cwiseQuotient(mass);  // momentum form (see DoStep)
  state.t = before.t + h;
  state.dissipated = before.dissipated + step.dissipated;
  state.z = step.z_next;  // the scheme's own history update (friction, generated work booked there)
  return result;
}

StepResult MidpointFamilyIntegrator::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  if (const auto* contacts = dynamic_cast<const DiscreteContactSystem*>(&system))
    return DoContactStep(system, *contacts, state, h);
  if (state.q.size() != state.v.size() && !dynamic_cast<const ConstantMassSystem*>(&system))
    throw InvalidParameter("integrator", "\"" + name() + "\" on model \"" + system.name() + "\"",
                           "a model with q' = v and a constant mass matrix; this model rotates in 3-D with unit "
                           "quaternions (q' = N(q) v, inertia not constant in these coordinates), which needs a "
                           "rotation-aware energy-momentum scheme (lie_poisson_midpoint, docs/rotation.md)");
  const ConstantMassSystem& cms = RequireConstantMassSystem(system, name());
  Prepare(cms);
  const MechanicalState& before = step_start();  // the state at the start of this step (kept by Step)
  const Eigen::VectorXd mass = cms.MassDiagonal();
  Eigen::VectorXd f_ext(state.q.size());
  cms.ExternalForce(before.t + 0.5 * h, f_ext);
  MidpointResidual residual(
      [&](const Eigen::VectorXd& q1, DiscreteForceEvaluation& out, NewtonJacobian* j) {
        EvaluateDiscreteForce(cms, before.q, q1, h, out, j);
        ++stats_.rhs_evaluations;
      },
      mass, before.q, before.v, f_ext, h);
  // Predictor: the explicit Verlet position q_n + h v_n + h²/2 a_n (error O(h³) instead of O(h²) for the
  // q_n + h v_n of docs/theory.md §7: one RHS evaluation saves about one Newton iteration, docs/performance.md).
  Eigen::VectorXd a0(state.v.size());
  system.Acceleration(before, a0);
  ++stats_.rhs_evaluations;
  Eigen::VectorXd q1 = before.q + h * before.v + (0.5 * h * h) * a0;
  const double step_scale = before.q.lpNorm<Eigen::Infinity>() + h * before.v.lpNorm<Eigen::Infinity>();
  const NewtonReport rep = SolveNewton(residual, q1, step_scale, options_.newton);
  stats_.newton_iterations += rep.iterations;
  stats_.jacobian_evaluations += rep.jacobian_evaluations;
  StepResult result;
  result.newton_iterations = rep.iterations;
  result.residual_norm = rep.residual_norm;
  if (!rep.converged) {
    result.status = StepStatus::kRetrySmallerStep;
    result.cause = rep.cause;
    result.message = name() + ": " + rep.message;
    return result;
  }
  // The dissipation of the converged iterate (re-evaluated: the solver's last call may be a trial point).
  DiscreteForceEvaluation final_eval;
  EvaluateDiscreteForce(cms, before.q, q1, h, final_eval, nullptr);
  // v_{n+1} from the momentum balance M Δv = −h (F̄ − f_ext) rather than from 2Δq/h − v_n: the two agree up
  // to the Newton residual, but the momentum form makes the energy books exact to ~ε·|q|·|F̄| per step
  // (ΔK = −h v_{n+½}·(F̄ − f_ext)), while the kinematic form would carry Δq·R ~ ε |q| m |v| / h.
  state.q = q1;
  state.v = before.v - h * (final_eval.force - f_ext).cwiseQuotient(mass);
  state.t = before.t + h;
  state.dissipated = before.dissipated + final_eval.dissipation;
  system.UpdateHistory(before, state);
  return result;
}

}  // namespace impactlab
