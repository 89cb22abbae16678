// NewtonSolver: the one damped Newton iteration every implicit scheme of impactlab shares.
//
//   solve R(x) = 0:   J(x_k) d_k = −R(x_k),   x_{k+1} = x_k + α_k d_k
//
// with J = A + u wᵀ (sparse A, factored by Eigen::SparseLU; an optional rank-one part u wᵀ, e.g. the
// Gonzalez discrete-gradient correction, is handled by Sherman–Morrison so the factorization stays sparse),
// and α_k from backtracking on ‖R‖₂ (α = 1, ½, ¼, …; Armijo-type sufficient decrease 1e-4) [Dennis &
// Schnabel 1996, §6.3]. The line search guards against Newton cycling at the W'' kink at δ = 0
// [docs/theory.md §7, "Newton solve"].
//
// Convergence (near machine precision, because energy exactness is only as good as the solve,
// ΔH + D − Δq·f_ext = Δq·R [docs/theory.md §7]):
//   ‖R‖∞ ≤ residual_tolerance · scale            (scale: the magnitude of the terms R is made of), or
//   ‖α d‖∞ ≤ step_tolerance · step_scale and ‖R‖∞ ≤ stagnation_tolerance · scale  (round-off floor).
// Anything else after max_iterations is reported as not converged: the caller turns it into
// StepStatus::kRetrySmallerStep and never accepts it silently.
// Jacobians: the full step is evaluated with J (it serves the next iteration), unless quadratic convergence from
// the last two relative residuals predicts it converges (e_k³/e_{k−1}² ≤ residual_tolerance); J is then formed
// at that point afterwards only if the prediction fails. The iterates do not depend on it, only the evaluation count.
//
// Linear solver of J d = −R (NewtonLinearSolver, scenario key newton_linear_solver): n ≤ 24 always the dense
// partial-pivoting LU (for n ≤ 3 in fixed-size storage, J given dense by producers that offer it,
// NewtonJacobian::small); above that
//   kBand:   band LU with partial pivoting [Golub & Van Loan 2013, §4.3.5] from SUNDIALS (SUNMatrix_Band +
//            SUNLinSol_Band, SUNDIALS 6.4 user guide "The SUNLinSol_Band module"): A = P L U with L of lower
//            bandwidth ml and U of upper bandwidth ≤ ml + mu (the band storage keeps smu = ml + mu rows above the
//            diagonal for the fill), ~2 n ml (ml + mu) flops, factored in place in storage allocated once per
//            (n, ml, mu); ml, mu are the pattern's lower and upper bandwidths, computed when the pattern changes;
//   kDirect: Eigen::SparseLU (COLAMD);
//   kAuto (default, unless the caller resolves it otherwise): kBand when ml + mu + 1 ≤ kAutoBandWidth (= 16),
//            else kDirect (tridiagonal bead chain: ml = mu = 1). The limit, measured (factorize + solve at
//            n = 10³ and 10⁴, full bands and 5-entry rows inside the band, 2026-12-03): band / SparseLU time
//            0.3 at width 3, 0.5 at 9, 0.7 at 17, 0.8 at 33, 1.3 at 49 — 16 keeps a margin below the crossover;
// or BiCGSTAB [van der Vorst 1992] with a
// Jacobi (diagonal) or an incomplete-LU (IncompleteLUT [Saad 1994]) preconditioner, iterated to
// ‖J d + R‖₂ ≤ linear_tolerance · ‖R‖₂. An inexact d only changes the iterates: the acceptance test above is
// the same, so a converged step meets the same tolerance (measured choice: docs/performance.md).
//
// The iteration itself is IterateNewton (integrators/newton_iteration.h), written once over its storage: SolveNewton runs
// it on Eigen::VectorXd with the linear solvers above, the midpoint schemes' small-system path on fixed-size vectors.
//
// Alternative back end: SUNDIALS KINSOL (Newton with line search, dense direct linear solver), selected
// by NonlinearSolverKind::kKinsol (scenario key nonlinear_solver = "kinsol"); it uses the same residual and
// Jacobian callbacks and the same final acceptance test.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <memory>
#include <string>
#include <vector>

#include "integrators/step_failure_cause.h"

namespace impactlab {

enum class NonlinearSolverKind { kNewtonSparseLu, kKinsol };

/// How J d = −R is solved above 24 unknowns (below: dense LU whatever this says).
enum class NewtonLinearSolver {
  kAuto,              ///< kBand for a narrow band (ml + mu + 1 ≤ kAutoBandWidth), else kDirect, except where the
                      ///< caller knows its matrix better (the contact seam's block Jacobians: kBiCgStabDiagonal,
                      ///< integrators/midpoint_family_integrator.h)
  kDirect,            ///< Eigen::SparseLU (COLAMD), symbolic analysis reused while the pattern is unchanged
  kBand,              ///< SUNDIALS band LU (SUNLinSol_Band) at the pattern's bandwidths, whatever they are (storage
                      ///< n (2 ml + mu + 1) doubles: meant for narrow bands)
  kBiCgStabDiagonal,  ///< Eigen::BiCGSTAB, Jacobi preconditioner
  kBiCgStabIlut,      ///< Eigen::BiCGSTAB, IncompleteLUT preconditioner (drop tolerance and fill Eigen's defaults)
};

struct NewtonOptions {
  int max_iterations = 40;
  double residual_tolerance = 2.5e-16;  ///< relative to the residual scale (~ε: the round-off floor)
  double step_tolerance = 1e-15;        ///< relative to the step scale
  double stagnation_tolerance = 1e-12;  ///< residual accepted at a round-off-level step
  int max_backtracks = 10;
  NonlinearSolverKind kind = NonlinearSolverKind::kNewtonSparseLu;
  NewtonLinearSolver linear_solver = NewtonLinearSolver::kAuto;
  double linear_tolerance = 1e-14;  ///< relative residual of the iterative linear solves, (0, 1e-6]
  int linear_max_iterations = 500;  ///< BiCGSTAB iterations per linear solve, ≥ 1
  /// Throws InvalidParameter naming the field, value and range.
  void Validate() const;
};

/// J = matrix + u wᵀ (u, w empty when there is no rank-one part).
/// Systems of at most kSmallJacobian unknowns may instead be given in `small` (dense, on the stack; `matrix` is then
/// not read): SolveNewton sets `accepts_small` for them and empties `small` before each evaluation, and a producer
/// that offers the dense form fills it. The dense LU of the linear solve is the same either way, so are the iterates.
inline constexpr Eigen::Index kSmallJacobian = 3;
struct NewtonJacobian {
  Eigen::SparseMatrix<double> matrix;
  Eigen::VectorXd u, w;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, kSmallJacobian, kSmallJacobian> small;
  bool accepts_small = false;  ///< the consumer reads `small` when it is non-empty (set by SolveNewton)
};

/// The nonlinear system: residual, its scale, and (on request) its Jacobian.
class NewtonSystem {
 public:
  virtual ~NewtonSystem() = default;
  /// Writes R(x) into `residual`; fills `jacobian` when non-null. Returns the residual scale (> 0), the
  /// magnitude of the terms that cancel in R (its round-off floor is ~ε·scale).
  virtual double Evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& residual, NewtonJacobian* jacobian) = 0;
  /// true: the Jacobian costs much more than the residual (e.g. the contact seam's per-contact forward differences),
  /// so a full Newton step is evaluated without it and the Jacobian is formed only when another iteration needs it
  /// (one more residual evaluation then); the converged iterate's Jacobian is never formed. The iterates are the
  /// same either way. false (default): the step is evaluated with its Jacobian, reused by the next iteration, except
  /// a step predicted to converge (quadratic rate from the last two residuals, newton_solver.cpp): that one is
  /// evaluated without it, and the Jacobian is formed at the same point afterwards only if the prediction fails.
  virtual bool defer_jacobian() const { return false; }
};

struct NewtonReport {
  bool converged = false;
  int iterations = 0;          ///< Newton updates performed
  int jacobian_evaluations = 0;
  double residual_norm = 0.0;  ///< ‖R‖∞ at the returned x
  double residual_scale = 1.0;
  std::vector<double> residual_history;  ///< ‖R‖∞/scale at every iterate (for non-convergence reports)
  StepFailureCause cause = StepFailureCause::kNone;  ///< why it did not converge (kNone when converged)
  std::string message;
};

/// "|r| = 1e-2, 3e-3, ... (tol 2.5e-16)" from a residual history (relative residuals), at most `max_shown`
/// entries (first ones and the last, elided in between).
std::string FormatResidualHistory(const std::vector<double>& history, double tolerance, size_t max_shown = 8);

/// kAuto takes the band LU when the Jacobian's pattern has ml + mu + 1 ≤ this (a tridiagonal one: 3).
inline constexpr int kAutoBandWidth = 16;

/// Everything one Newton solve stores, kept between solves by a caller that solves many (an implicit
/// integrator, once per step): iterate, residual and step vectors, the two Jacobians (current and trial), the
/// report with its residual history, and the linear solver — the dense LU for n ≤ 24 unknowns, the band LU whose
/// SUNDIALS matrix, pivots and solver are re-created only when n or the bandwidths change, or the sparse LU
/// whose symbolic analysis (COLAMD ordering, SparseLU::analyzePattern) is redone only when the Jacobian's
/// pattern changes, SparseLU::factorize once per iteration. With a workspace the dense and band paths allocate
/// nothing once the sizes and the pattern have been seen (tests/integrators/step_allocation_test.cpp); Eigen's
/// SparseLU::factorize allocates its supernodal storage on every call (measured, docs/performance.md). Copying a
/// workspace gives an empty one (it is a cache: results never depend on it).
class NewtonWorkspace {
 public:
  NewtonWorkspace();
  ~NewtonWorkspace();
  NewtonWorkspace(const NewtonWorkspace&);
  NewtonWorkspace& operator=(const NewtonWorkspace&);
  /// Room for Jacobians with up to `nonzeros` stored entries (e.g. the full pattern of the model's contact list),
  /// so that contacts closing later in a run do not grow the storage inside a step.
  void ReserveJacobian(Eigen::Index nonzeros);
  /// Sizes every vector and the dense LU for n unknowns now, so that a first linear solve late in a run (a solve
  /// whose predictor already converged needs none: free flight) does not allocate inside a step.
  void Reserve(Eigen::Index n);
  /// Symbolic analyses done by the sparse path (a new pattern each); for tests and benchmarks.
  long sparse_analyses() const;
  /// Band LU factorizations done (one per linear solve on the band path); for tests and benchmarks.
  long band_factorizations() const;

 private:
  friend const NewtonReport& SolveNewton(NewtonSystem& system, Eigen::VectorXd& x, double step_scale,
                                         const NewtonOptions& options, NewtonWorkspace& workspace);
  friend NewtonReport SolveNewton(NewtonSystem& system, Eigen::VectorXd& x, double step_scale,
                                  const NewtonOptions& options);
  struct LinearSolver;
  Eigen::VectorXd r_, r_trial_, d_, x_trial_, neg_r_;
  NewtonJacobian jac_, jac_trial_;
  NewtonReport report_;
  std::unique_ptr<LinearSolver> linear_;
};

/// Solves in place with the caller's workspace (see NewtonWorkspace); the same iterates, test and report as the
/// overload below. The report lives in the workspace (valid until its next solve).
const NewtonReport& SolveNewton(NewtonSystem& system, Eigen::VectorXd& x, double step_scale,
                                const NewtonOptions& options, NewtonWorkspace& workspace);

/// Solves in place (x holds the initial guess). `step_scale` > 0 is the size of x's variation (e.g.
/// ‖q_n‖∞ + h‖v_n‖∞). x is the last iterate whether or not it converged.
/// A fresh workspace per call (allocates).
NewtonReport SolveNewton(NewtonSystem& system, Eigen::VectorXd& x, double step_scale, const NewtonOptions& options);

}  // namespace impactlab
