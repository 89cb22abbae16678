#include "integrators/newton_solver.h"

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/LU>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/errors.h"
#include "integrators/band_lu.h"
#include "integrators/kinsol_newton.h"
#include "integrators/newton_iteration.h"
#include "integrators/threaded_sparse_operator.h"
#include "system/sparse_assembly.h"

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
  if (!(linear_tolerance > 0.0 && linear_tolerance <= 1e-6))
    throw InvalidParameter("newton_linear_tolerance", linear_tolerance, "(0, 1e-6]");
  if (linear_max_iterations < 1)
    throw InvalidParameter("newton_linear_max_iterations", linear_max_iterations, ">= 1");
}

// Linear solves of one Newton solve. (A + u wᵀ) d = b by Sherman–Morrison on an LU of A: dense partial-pivoting
// LU for small systems (the sparse machinery costs more than the arithmetic there), SUNDIALS' band LU for a
// narrow-banded pattern, Eigen::SparseLU otherwise, with the symbolic analysis (COLAMD ordering) reused while the
// sparsity pattern does not change, or BiCGSTAB (NewtonOptions::linear_solver). The pattern's bandwidths are
// computed when it changes. Kept in the workspace between solves; all buffers are reused.
struct NewtonWorkspace::LinearSolver {
  bool Solve(const NewtonJacobian& j, const Eigen::VectorXd& b, Eigen::VectorXd& d, const NewtonOptions& o) {
    if (j.small.size() > 0) {  // the dense form of a small system (NewtonJacobian::small)
      switch (j.small.rows()) {
        case 1: return SolveFixed<1>(Eigen::Matrix<double, 1, 1>(j.small), j, b, d);
        case 2: return SolveFixed<2>(Eigen::Matrix<double, 2, 2>(j.small), j, b, d);
        case 3: return SolveFixed<3>(Eigen::Matrix<double, 3, 3>(j.small), j, b, d);
        default: return false;
      }
    }
    const Eigen::Index n = j.matrix.rows();
    switch (n) {  // the smallest systems in Eigen's fixed-size storage: no set-up of dynamic blocks per solve
      case 1: return SolveFixed<1>(FixedFromSparse<1>(j.matrix), j, b, d);
      case 2: return SolveFixed<2>(FixedFromSparse<2>(j.matrix), j, b, d);
      case 3: return SolveFixed<3>(FixedFromSparse<3>(j.matrix), j, b, d);
      default: break;
    }
    if (n <= kDenseLimit) {
      dense_ = j.matrix;  // reuses storage
      dense_lu_.compute(dense_);  // a singular matrix shows up as a non-finite d
      d = dense_lu_.solve(b);
      if (j.u.size() > 0) {
        z_ = dense_lu_.solve(j.u);
        if (!ShermanMorrison(j, z_, d)) return false;
      }
      return d.allFinite();
    }
    const Eigen::SparseMatrix<double>* a = &j.matrix;
    if (!j.matrix.isCompressed()) {
      a_ = j.matrix;
      a_.makeCompressed();
      a = &a_;
    }
    if (o.linear_solver == NewtonLinearSolver::kBiCgStabDiagonal) {
      // Eigen's BiCGSTAB with the Jacobi preconditioner, its products on the contact threads (bitwise the same).
      operator_.Attach(*a);
      return SolveIteratively(bicgstab_diagonal_, operator_, j, b, d, o);
    }
    if (o.linear_solver == NewtonLinearSolver::kBiCgStabIlut) return SolveIteratively(bicgstab_ilut_, *a, j, b, d, o);
    if (!SamePattern(*a)) {
      pattern_ = *a;
      have_pattern_ = true;
      widths_ = PatternBandwidths(*a);
      analysed_ = false;
    }
    if (o.linear_solver == NewtonLinearSolver::kBand) {
      // Band storage is n (2 ml + mu + 1) doubles: a wide pattern asked for explicitly would exhaust memory.
      const double storage = static_cast<double>(n) * static_cast<double>(2 * widths_.lower + widths_.upper + 1);
      if (storage > kMaxBandStorage)
        throw InvalidParameter("newton_linear_solver", "\"band\"",
                               "a Newton matrix whose band storage n (2 ml + mu + 1) <= " +
                                   InvalidParameter::FormatNumber(kMaxBandStorage) + " doubles; this one has n = " +
                                   std::to_string(n) + ", ml = " + std::to_string(widths_.lower) + ", mu = " +
                                   std::to_string(widths_.upper) + " (use auto or direct)");
      return SolveBand(*a, j, b, d);
    }
    if (o.linear_solver == NewtonLinearSolver::kAuto && widths_.lower + widths_.upper + 1 <= kAutoBandWidth)
      return SolveBand(*a, j, b, d);
    if (!analysed_) {
      sparse_lu_.analyzePattern(*a);
      analysed_ = true;
      ++analyses_;
    }
    sparse_lu_.factorize(*a);
    if (sparse_lu_.info() != Eigen::Success) return false;
    d = sparse_lu_.solve(b);
    if (j.u.size() > 0) {
      z_ = sparse_lu_.solve(j.u);
      if (!ShermanMorrison(j, z_, d)) return false;
    }
    return d.allFinite();
  }
  long analyses_ = 0;
  long band_factorizations() const { return band_lu_.factorizations(); }
  /// Room for a pattern copy of up to `nonzeros` entries (a new pattern later in a run does not grow it).
  void ReservePattern(Eigen::Index nonzeros) { ReserveNonZeros(pattern_, nonzeros); }
  void Reserve(Eigen::Index n) {
    if (z_.size() != n) z_.resize(n);
    if (pattern_.rows() != n || pattern_.cols() != n) {  // the outer index array of the pattern's copy
      pattern_.resize(n, n);
      have_pattern_ = false;
    }
    if (n <= kDenseLimit && (dense_.rows() != n || dense_.cols() != n)) {
      dense_.resize(n, n);
      dense_lu_ = Eigen::PartialPivLU<Eigen::MatrixXd>(n);  // LU, permutation and transpositions sized n
    }
  }

 private:
  static constexpr Eigen::Index kDenseLimit = 24;
  /// The dense path for n = N ≤ 3 with fixed-size Eigen types (on the stack): the same partial-pivoting LU and
  /// triangular solves as the dynamic dense path, bit for bit (tests/integrators/newton_solver_test.cpp), without its
  /// per-call set-up, which dominated a 1 × 1 solve (652 → 90 instructions). At 4 × 4 Eigen's fixed-size kernels
  /// round differently in the last bit, so larger systems keep the dynamic path.
  template <int N>
  static Eigen::Matrix<double, N, N> FixedFromSparse(const Eigen::SparseMatrix<double>& m) {
    Eigen::Matrix<double, N, N> a = Eigen::Matrix<double, N, N>::Zero();
    for (int k = 0; k < m.outerSize(); ++k)
      for (Eigen::SparseMatrix<double>::InnerIterator it(m, k); it; ++it) a(it.row(), it.col()) = it.value();
    return a;
  }
  template <int N>
  static bool SolveFixed(const Eigen::Matrix<double, N, N>& a, const NewtonJacobian& j, const Eigen::VectorXd& b,
                         Eigen::VectorXd& d) {
    const Eigen::PartialPivLU<Eigen::Matrix<double, N, N>> lu(a);  // singular: a non-finite d
    const Eigen::Matrix<double, N, 1> x = lu.solve(Eigen::Matrix<double, N, 1>(b));
    d = x;
    if (j.u.size() > 0) {
      const Eigen::Matrix<double, N, 1> z = lu.solve(Eigen::Matrix<double, N, 1>(j.u));
      if (!ShermanMorrison(j, z, d)) return false;
    }
    return d.allFinite();
  }
  /// Band storage (doubles) above which an explicit "band" request is refused: 2²⁷ doubles = 1 GiB.
  static constexpr double kMaxBandStorage = 134217728.0;
  /// An iterate of BiCGSTAB is accepted when its relative residual is below this even if the requested
  /// linear_tolerance was not reached (round-off floor); Newton's own test judges the result.
  static constexpr double kIterativeAcceptance = 1e-8;
  template <class Iterative, class Matrix>
  static bool SolveIteratively(Iterative& solver, const Matrix& a, const NewtonJacobian& j,
                               const Eigen::VectorXd& b, Eigen::VectorXd& d, const NewtonOptions& o) {
    solver.setTolerance(o.linear_tolerance);
    solver.setMaxIterations(o.linear_max_iterations);
    solver.compute(a);
    if (solver.info() != Eigen::Success) return false;
    auto solve = [&](const Eigen::VectorXd& rhs, Eigen::VectorXd& x) {
      x = solver.solve(rhs);
      return x.allFinite() && (solver.info() == Eigen::Success || solver.error() <= kIterativeAcceptance);
    };
    if (!solve(b, d)) return false;
    if (j.u.size() > 0) {
      Eigen::VectorXd z;
      if (!solve(j.u, z) || !ShermanMorrison(j, z, d)) return false;
    }
    return true;
  }
  bool SolveBand(const Eigen::SparseMatrix<double>& a, const NewtonJacobian& j, const Eigen::VectorXd& b,
                 Eigen::VectorXd& d) {
    if (!band_lu_.Factor(a, widths_)) return false;  // a zero pivot
    d = b;
    if (!band_lu_.SolveInPlace(d)) return false;
    if (j.u.size() > 0) {
      z_ = j.u;
      if (!band_lu_.SolveInPlace(z_) || !ShermanMorrison(j, z_, d)) return false;
    }
    return d.allFinite();
  }
  /// d ← d − z (wᵀd)/(1 + wᵀz), z = A⁻¹u (any Eigen vector of d's size).
  template <class Vector>
  static bool ShermanMorrison(const NewtonJacobian& j, const Vector& z, Eigen::VectorXd& d) {
    const double denom = 1.0 + j.w.dot(z);
    if (!(std::abs(denom) > 1e-14)) return false;
    d -= z * (j.w.dot(d) / denom);
    return true;
  }
  bool SamePattern(const Eigen::SparseMatrix<double>& a) const {
    if (!have_pattern_ || a.rows() != pattern_.rows() || a.cols() != pattern_.cols() ||
        a.nonZeros() != pattern_.nonZeros())
      return false;
    return std::equal(a.outerIndexPtr(), a.outerIndexPtr() + a.outerSize() + 1, pattern_.outerIndexPtr()) &&
           std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), pattern_.innerIndexPtr());
  }
  Eigen::MatrixXd dense_;
  Eigen::PartialPivLU<Eigen::MatrixXd> dense_lu_;
  Eigen::VectorXd z_;
  Eigen::SparseMatrix<double> a_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> sparse_lu_;
  Eigen::SparseMatrix<double> pattern_;  // the last pattern seen, its bandwidths, and whether SparseLU analysed it
  bool have_pattern_ = false;
  Bandwidths widths_;
  bool analysed_ = false;
  BandLu band_lu_;
  ThreadedSparseOperator operator_;
  Eigen::BiCGSTAB<ThreadedSparseOperator, OperatorJacobi> bicgstab_diagonal_;
  Eigen::BiCGSTAB<Eigen::SparseMatrix<double>, Eigen::IncompleteLUT<double>> bicgstab_ilut_;
};

NewtonWorkspace::NewtonWorkspace() : linear_(std::make_unique<LinearSolver>()) {}
NewtonWorkspace::~NewtonWorkspace() = default;
NewtonWorkspace::NewtonWorkspace(const NewtonWorkspace&) : NewtonWorkspace() {}
NewtonWorkspace& NewtonWorkspace::operator=(const NewtonWorkspace&) { return *this; }
long NewtonWorkspace::sparse_analyses() const { return linear_->analyses_; }
long NewtonWorkspace::band_factorizations() const { return linear_->band_factorizations(); }

void NewtonWorkspace::Reserve(Eigen::Index n) {
  for (Eigen::VectorXd* v : {&r_, &r_trial_, &d_, &x_trial_, &neg_r_})
    if (v->size() != n) v->resize(n);
  linear_->Reserve(n);
  for (NewtonJacobian* j : {&jac_, &jac_trial_})  // the outer index array of an n × n matrix
    if (j->matrix.rows() != n || j->matrix.cols() != n) j->matrix.resize(n, n);
}

void NewtonWorkspace::ReserveJacobian(Eigen::Index nonzeros) {
  ReserveNonZeros(jac_.matrix, nonzeros);
  ReserveNonZeros(jac_trial_.matrix, nonzeros);
  linear_->ReservePattern(nonzeros);
}

void ExchangeJacobians(NewtonJacobian& a, NewtonJacobian& b) {
  a.matrix.swap(b.matrix);
  a.u.swap(b.u);
  a.w.swap(b.w);
  std::swap(a.small, b.small);  // at most 3 × 3 doubles on the stack
}

void ResetNewtonReport(NewtonReport& rep, const NewtonOptions& o) {
  rep.converged = false;
  rep.iterations = 0;
  rep.jacobian_evaluations = 0;
  rep.residual_norm = 0.0;
  rep.residual_scale = 1.0;
  rep.residual_history.clear();  // keeps its capacity
  rep.cause = StepFailureCause::kNone;
  rep.message.clear();
  rep.residual_history.reserve(static_cast<size_t>(o.max_iterations) + 1);
}

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
  NewtonWorkspace workspace;
  SolveNewton(system, x, step_scale, o, workspace);
  return std::move(workspace.report_);
}

const NewtonReport& SolveNewton(NewtonSystem& system, Eigen::VectorXd& x, double step_scale, const NewtonOptions& o,
                                NewtonWorkspace& ws) {
  NewtonReport& rep = ws.report_;
  if (o.kind == NonlinearSolverKind::kKinsol) {
    rep = SolveWithKinsol(system, x, step_scale, o);
    return rep;
  }
  ResetNewtonReport(rep, o);
  const Eigen::Index n = x.size();
  Eigen::VectorXd &r = ws.r_, &r_trial = ws.r_trial_, &d = ws.d_, &x_trial = ws.x_trial_, &neg_r = ws.neg_r_;
  for (Eigen::VectorXd* v : {&r, &r_trial, &d, &x_trial, &neg_r})
    if (v->size() != n) v->resize(n);
  NewtonJacobian &jac = ws.jac_, &jac_trial = ws.jac_trial_;
  jac.accepts_small = jac_trial.accepts_small = n <= kSmallJacobian;
  // Each evaluation that forms a Jacobian starts with `small` empty: a producer without the dense form leaves it so.
  auto evaluate = [&system](const Eigen::VectorXd& at, Eigen::VectorXd& residual, NewtonJacobian* j) {
    if (j) j->small.resize(0, 0);
    return system.Evaluate(at, residual, j);
  };
  NewtonWorkspace::LinearSolver& linear = *ws.linear_;
  auto solve = [&linear, &o](const NewtonJacobian& j, const Eigen::VectorXd& b, Eigen::VectorXd& d) {
    return linear.Solve(j, b, d, o);
  };
  IterateNewton(evaluate, solve, system.defer_jacobian(), x, step_scale, o, rep, r, r_trial, d, x_trial, neg_r, jac,
                jac_trial);
  return rep;
}

}  // namespace impactlab
