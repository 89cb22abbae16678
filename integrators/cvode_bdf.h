// CvodeBdf: SUNDIALS CVODE, variable-order (1–5) BDF with Newton iteration, on the first-order form y = [q, v, z, D]
// [Hindmarsh et al. 2005, ACM TOMS 31:363-396]. The Newton systems are solved densely (difference-quotient
// Jacobian, SUNLinSol_Dense) for small n, and matrix-free by GMRES (SUNLinSol_SPGMR [Saad & Schultz 1986] with
// CVODE's difference-quotient Jacobian-vector products, no preconditioner) for large n, where a dense Jacobian costs
// n right-hand sides and n² storage (CvodeLinearSolver). Root finding on every contact overlap δ_i(y) locates
// contact start and end (reported as LocatedEvent), so restitution is measured at the tolerance of the solve, not of
// the output step.
// This is the reference solver for problems without a closed form; run it at tight tolerance.
//
// Step(h) integrates to t + h in CV_NORMAL mode (CVODE chooses its internal steps); consecutive calls
// continue the same CVODE history unless the state was modified externally (then it is re-initialized).
#pragma once

#include <memory>

#include "integrators/integrator.h"

namespace impactlab {

/// The linear solver of CVODE's Newton iteration on (I − γJ) x = b, n = the first-order unknowns [q, v, z, D].
enum class CvodeLinearSolver {
  kAuto,   ///< kDense for n ≤ kCvodeAutoDenseLimit, else kSpgmr
  kDense,  ///< SUNLinSol_Dense with CVODE's difference-quotient Jacobian: n right-hand sides and O(n³) per Jacobian
  kSpgmr,  ///< SUNLinSol_SPGMR, matrix-free: CVODE's difference-quotient J·v, one right-hand side per Krylov iteration
};
/// kAuto's limit (first-order unknowns); measured crossover in docs/performance.md ("CVODE's linear solver").
inline constexpr long kCvodeAutoDenseLimit = 64;

struct CvodeBdfOptions {
  double rel_tol = 1e-10;
  double abs_tol = 1e-14;
  int max_order = 5;
  long max_internal_steps = 10'000'000;
  CvodeLinearSolver linear_solver = CvodeLinearSolver::kAuto;
  void Validate() const;
};

class CvodeBdf final : public Integrator {
 public:
  using Options = CvodeBdfOptions;
  explicit CvodeBdf(Options options = {});
  ~CvodeBdf() override;
  std::string name() const override { return "cvode_bdf"; }
  IntegratorTraits traits() const override;
  void Reset() override;

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;
  /// The dense solver for n first-order unknowns (else SPGMR).
  bool UsesDense(long n) const;
  struct Impl;
  Options options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace impactlab
