// IterateNewton: the damped Newton iteration of integrators/newton_solver.h written once over its storage, so that
// the generic solver (Eigen::VectorXd iterates, NewtonJacobian, the linear solvers of NewtonWorkspace) and the
// fixed-size path of the midpoint schemes on systems of N ≤ 3 unknowns (Eigen::Matrix<double, N, 1> iterates, a dense
// N × N Jacobian, integrators/midpoint_family_integrator.h) run the same statements:
//
//   J(x_k) d_k = −R(x_k),   x_{k+1} = x_k + α_k d_k,   α_k ∈ {1, ½, ¼, …} by backtracking on ‖R‖₂
//
// with the acceptance tests, the quadratic-convergence prediction of a Jacobian-free final evaluation, the report
// and the failure causes documented in newton_solver.h [Dennis & Schnabel 1996, §6.3]. Every operation on the vectors
// is elementwise or an ∞-norm (exact in any order) except ‖R‖₂, which Eigen sums as ((r₀² + r₁²) + r₂²) for both
// storages up to three entries (tests/integrators/small_system_path_test.cpp compares the two paths bit for bit).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "integrators/newton_solver.h"

namespace impactlab {

/// Clears `rep` for a new solve (keeps the capacity of its residual history, room for max_iterations + 1 entries).
void ResetNewtonReport(NewtonReport& rep, const NewtonOptions& o);

/// O(1) exchange of two Jacobians' buffers (std::swap would copy: Eigen 3.4's SparseMatrix has no move constructor).
void ExchangeJacobians(NewtonJacobian& a, NewtonJacobian& b);
template <int N>
void ExchangeJacobians(Eigen::Matrix<double, N, N>& a, Eigen::Matrix<double, N, N>& b) {
  a.swap(b);
}

/// The iteration on a cleared report `rep` (ResetNewtonReport). `evaluate(x, r, Jacobian* j)` writes R(x) into r,
/// fills *j when j is non-null and returns the residual scale; `solve(j, b, d)` solves J d = b and returns false
/// for a singular matrix; `defer` is NewtonSystem::defer_jacobian. All vectors have x's size.
template <class Vector, class Jacobian, class Evaluate, class Solve>
void IterateNewton(Evaluate&& evaluate, Solve&& solve, bool defer, Vector& x, double step_scale,
                   const NewtonOptions& o, NewtonReport& rep, Vector& r, Vector& r_trial, Vector& d, Vector& x_trial,
                   Vector& neg_r, Jacobian& jac, Jacobian& jac_trial) {
  step_scale = std::max(step_scale, 1e-300);
  // The full Newton step is evaluated with its Jacobian: when it is accepted (the common case) that evaluation
  // is the next iteration's, so an iteration costs one residual + Jacobian evaluation instead of two
  // evaluations. The iterates are the same as with a separate trial evaluation.
  // A full step predicted to converge is evaluated without its Jacobian (it would only serve an iteration that is
  // not expected): when the last full steps took the relative residual e_{k−1} → e_k, quadratic convergence
  // predicts e_{k+1} ≈ e_k³/e_{k−1}²; at or below the tolerance the trial is evaluated without the Jacobian, which
  // is formed at the same x afterwards (jacobian_pending) only if the prediction fails. The iterates are the same
  // either way (the Jacobian at a given x is deterministic); only the count of evaluations changes.
  bool have_residual = false;     // r, scale (and jac unless jacobian_pending) are those of the current x
  bool jacobian_pending = false;  // deferred Jacobian (defer_jacobian or predicted convergence) not yet formed at x
  bool full_step = false;  // the last update was a full Newton step (α = 1): the quadratic prediction applies
  auto predicted_to_converge = [&]() {
    const std::vector<double>& e = rep.residual_history;
    if (!full_step || e.size() < 2) return false;
    const double previous = e[e.size() - 2], current = e.back();
    if (!(previous > 0.0) || !(current < previous)) return false;
    return current * (current / previous) * (current / previous) <= o.residual_tolerance;
  };
  double scale = 1.0;
  for (int it = 0;; ++it) {
    if (!have_residual) {
      scale = std::max(evaluate(x, r, &jac), 1e-300);
      ++rep.jacobian_evaluations;
    }
    have_residual = false;
    rep.residual_norm = r.template lpNorm<Eigen::Infinity>();
    rep.residual_scale = scale;
    rep.residual_history.push_back(rep.residual_norm / scale);
    if (!r.allFinite()) {
      rep.cause = StepFailureCause::kNewtonNonFiniteResidual;
      rep.message = "non-finite Newton residual after " + std::to_string(it) + " iterations: " +
                    FormatResidualHistory(rep.residual_history, o.residual_tolerance);
      return;
    }
    if (rep.residual_norm <= o.residual_tolerance * scale) {
      rep.converged = true;
      return;
    }
    if (it >= o.max_iterations) {
      rep.cause = StepFailureCause::kNewtonNonConvergence;
      rep.message = "Newton did not converge in " + std::to_string(o.max_iterations) + " iterations: " +
                    FormatResidualHistory(rep.residual_history, o.residual_tolerance) + " (relative |R|_inf)";
      return;
    }
    if (jacobian_pending) {  // the same x: the residual re-evaluated equals r, the Jacobian is what was deferred
      evaluate(x, r_trial, &jac);
      ++rep.jacobian_evaluations;
      jacobian_pending = false;
    }
    neg_r = -r;
    if (!solve(jac, neg_r, d)) {
      rep.cause = StepFailureCause::kSingularNewtonMatrix;
      rep.message = "singular Newton matrix after " + std::to_string(it) + " iterations: " +
                    FormatResidualHistory(rep.residual_history, o.residual_tolerance);
      return;
    }
    // Backtracking on ‖R‖₂; keep the best trial when no step decreases it (the iteration cap decides).
    const double r0 = r.norm();
    x_trial = x + d;
    const bool without_jacobian = defer || predicted_to_converge();
    const double scale_full =
        std::max(evaluate(x_trial, r_trial, without_jacobian ? nullptr : &jac_trial), 1e-300);
    if (!without_jacobian) ++rep.jacobian_evaluations;
    const double rn_full = r_trial.allFinite() ? r_trial.norm() : INFINITY;
    double best_alpha = 1.0;
    if (rn_full <= (1.0 - 1e-4) * r0) {
      x.swap(x_trial);
      r.swap(r_trial);
      if (!without_jacobian) ExchangeJacobians(jac, jac_trial);
      jacobian_pending = without_jacobian;
      scale = scale_full;
      have_residual = true;
      full_step = true;
    } else {
      double alpha = 0.5, best_norm = rn_full;
      for (int b = 1; b <= o.max_backtracks; ++b, alpha *= 0.5) {
        x_trial = x + alpha * d;
        evaluate(x_trial, r_trial, static_cast<Jacobian*>(nullptr));
        const double rn = r_trial.allFinite() ? r_trial.norm() : INFINITY;
        if (rn < best_norm) {
          best_norm = rn;
          best_alpha = alpha;
        }
        if (rn <= (1.0 - 1e-4 * alpha) * r0) break;
      }
      x += best_alpha * d;
      jacobian_pending = false;  // x moved: the next iteration evaluates residual and Jacobian anew
      full_step = false;
    }
    ++rep.iterations;
    if ((best_alpha * d).template lpNorm<Eigen::Infinity>() <= o.step_tolerance * step_scale) {
      if (!have_residual) {
        scale = std::max(evaluate(x, r, &jac), 1e-300);
        ++rep.jacobian_evaluations;
        have_residual = true;
      }
      rep.residual_norm = r.template lpNorm<Eigen::Infinity>();
      rep.residual_scale = scale;
      if (rep.residual_norm <= o.stagnation_tolerance * scale) {
        rep.converged = true;
        return;
      }
    }
  }
}

}  // namespace impactlab
