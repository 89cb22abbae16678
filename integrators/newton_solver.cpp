#include "integrators/newton_solver.h"

#include <Eigen/SparseLU>
#include <cmath>
#include <cstdio>

#include "core/errors.h"
#include "integrators/kinsol_newton.h"

namespace impactlab {

void NewtonOptions::Validate() const {
  if (max_iterations < 1) throw InvalidParameter("newton_max_iterations", max_iterations, ">= 1");
  if (!(residual_tolerance > 0.0 && residual_tolerance < 1e-3))
    throw InvalidParameter("newton_residual_tolerance", residual_tolerance, "(0, 1e-3)");
  if (!(step_tolerance > 0.0 && step_tolerance < 1e-3))
    throw InvalidParameter("newton_step_tolerance", step_tolerance, "(0, 1e-3)");
  if (!(stagnation_tolerance >= residual_tolerance && stagnation_tolerance < 1e-3))
    throw InvalidParameter("newton_stagnation_tolerance", stagnation_tolerance, "[residual_tolerance, 1e-3)");
  if (max_backtracks < 0) throw InvalidParameter("newton_max_backtracks", max_backtracks, ">= 0");
}

namespace {

// Solves (A + u wᵀ) d = b by Sherman–Morrison on the sparse LU of A.
bool SolveLinear(const NewtonJacobian& j, const Eigen::VectorXd& b, Eigen::VectorXd& d) {
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu;
  Eigen::SparseMatrix<double> a = j.matrix;
  a.makeCompressed();
  lu.analyzePattern(a);
  lu.factorize(a);
  if (lu.info() != Eigen::Success) return false;
  d = lu.solve(b);
  if (j.u.size() > 0) {
    const Eigen::VectorXd z = lu.solve(j.u);
    const double denom = 1.0 + j.w.dot(z);
    if (!(std::abs(denom) > 1e-14)) return false;
    d -= z * (j.w.dot(d) / denom);
  }
  return d.allFinite();
}

}  // namespace

std::string FormatResidualHistory(const std::vector<double>& history, double tolerance, size_t max_shown) {
  auto fmt = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g", v);
    return std::string(buf);
  };
  std::string s = "|r| = ";
  const size_t n = history.size();
  for (size_t i = 0; i < n; ++i) {
    if (n > max_shown && i == max_shown - 1 && i != n - 1) {
      s += "..., ";
      i = n - 1;
    }
    s += fmt(history[i]) + (i + 1 < n ? ", " : "");
  }
  return s + " (tol " + fmt(tolerance) + ")";
}

NewtonReport SolveNewton(NewtonSystem& system, Eigen::VectorXd& x, double step_scale, const NewtonOptions& o) {
  if (o.kind == NonlinearSolverKind::kKinsol) return SolveWithKinsol(system, x, step_scale, o);
  NewtonReport rep;
  const Eigen::Index n = x.size();
  Eigen::VectorXd r(n), r_trial(n), d(n), x_trial(n);
  NewtonJacobian jac;
  step_scale = std::max(step_scale, 1e-300);
  for (int it = 0;; ++it) {
    const double scale = std::max(system.Evaluate(x, r, &jac), 1e-300);
    ++rep.jacobian_evaluations;
    rep.residual_norm = r.lpNorm<Eigen::Infinity>();
    rep.residual_scale = scale;
    rep.residual_history.push_back(rep.residual_norm / scale);
    if (!r.allFinite()) {
      rep.message = "non-finite Newton residual after " + std::to_string(it) + " iterations: " +
                    FormatResidualHistory(rep.residual_history, o.residual_tolerance);
      return rep;
    }
    if (rep.residual_norm <= o.residual_tolerance * scale) {
      rep.converged = true;
      return rep;
    }
    if (it >= o.max_iterations) {
      rep.message = "Newton did not converge in " + std::to_string(o.max_iterations) + " iterations: " +
                    FormatResidualHistory(rep.residual_history, o.residual_tolerance) + " (relative |R|_inf)";
      return rep;
    }
    if (!SolveLinear(jac, -r, d)) {
      rep.message = "singular Newton matrix after " + std::to_string(it) + " iterations: " +
                    FormatResidualHistory(rep.residual_history, o.residual_tolerance);
      return rep;
    }
    // Backtracking on ‖R‖₂; keep the best trial when no step decreases it (the iteration cap decides).
    const double r0 = r.norm();
    double alpha = 1.0, best_alpha = 1.0, best_norm = INFINITY;
    for (int b = 0; b <= o.max_backtracks; ++b, alpha *= 0.5) {
      x_trial = x + alpha * d;
      system.Evaluate(x_trial, r_trial, nullptr);
      const double rn = r_trial.allFinite() ? r_trial.norm() : INFINITY;
      if (rn < best_norm) {
        best_norm = rn;
        best_alpha = alpha;
      }
      if (rn <= (1.0 - 1e-4 * alpha) * r0) break;
    }
    x += best_alpha * d;
    ++rep.iterations;
    if ((best_alpha * d).lpNorm<Eigen::Infinity>() <= o.step_tolerance * step_scale) {
      const double s = std::max(system.Evaluate(x, r, nullptr), 1e-300);
      rep.residual_norm = r.lpNorm<Eigen::Infinity>();
      rep.residual_scale = s;
      if (rep.residual_norm <= o.stagnation_tolerance * s) {
        rep.converged = true;
        return rep;
      }
    }
  }
}

}  // namespace impactlab
