#include "integrators/midpoint_family_integrator.h"

#include <cmath>
#include <functional>
#include <vector>

#include "core/errors.h"

namespace impactlab {

const ConstantMassSystem& RequireConstantMassSystem(const MechanicalSystem& system, const std::string& integrator) {
  const auto* cms = dynamic_cast<const ConstantMassSystem*>(&system);
  if (!cms)
    throw InvalidParameter("integrator", "\"" + integrator + "\"",
                           "a model with a constant diagonal mass matrix (ConstantMassSystem); model \"" +
                               system.name() + "\" is not one");
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

}  // namespace

StepResult MidpointFamilyIntegrator::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
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
  // q_n + h v_n of THEORY.md §7: one RHS evaluation saves about one Newton iteration, docs/performance.md).
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
