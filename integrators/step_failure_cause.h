// StepFailureCause: why an integrator did not accept a step, as a type (StepResult::cause,
// NewtonReport::cause). The driver's diagnosis (integrators/simulation.cpp) switches on it; the human detail
// stays in StepResult::message and is never parsed.
#pragma once

#include <string_view>

namespace impactlab {

enum class StepFailureCause {
  kNone,                     ///< the step was accepted
  kNewtonNonConvergence,     ///< built-in Newton: residual above tolerance after max_iterations
  kNewtonNonFiniteResidual,  ///< built-in Newton: NaN/Inf residual
  kSingularNewtonMatrix,     ///< built-in Newton: the sparse LU factorization failed
  kKinsolFailure,            ///< SUNDIALS KINSOL did not converge
  kFixedPointNonConvergence, ///< a scheme's own fixed-point iteration (velocity Verlet damping, EFDA)
  kNonFiniteState,           ///< the step produced NaN/Inf (checked by Integrator::Step)
  kStepSizeUnderflow,        ///< an adaptive library stepper could not reach its tolerance (Boost.Odeint)
  kCvodeFailure,             ///< SUNDIALS CVODE returned an error flag
  kCannotBackTrace,          ///< the exact stepper cannot map the state onto its solution
  kUnsupportedState,         ///< the state does not fit the system layout the scheme needs
  kSiconosFailure,           ///< Siconos (nonsmooth problem or its ODE solver) threw during the step
};

/// Short stable name, e.g. "newton_non_convergence".
constexpr std::string_view ToString(StepFailureCause cause) {
  switch (cause) {
    case StepFailureCause::kNone: return "none";
    case StepFailureCause::kNewtonNonConvergence: return "newton_non_convergence";
    case StepFailureCause::kNewtonNonFiniteResidual: return "newton_non_finite_residual";
    case StepFailureCause::kSingularNewtonMatrix: return "singular_newton_matrix";
    case StepFailureCause::kKinsolFailure: return "kinsol_failure";
    case StepFailureCause::kFixedPointNonConvergence: return "fixed_point_non_convergence";
    case StepFailureCause::kNonFiniteState: return "non_finite_state";
    case StepFailureCause::kStepSizeUnderflow: return "step_size_underflow";
    case StepFailureCause::kCvodeFailure: return "cvode_failure";
    case StepFailureCause::kSiconosFailure: return "siconos_failure";
    case StepFailureCause::kCannotBackTrace: return "cannot_back_trace";
    case StepFailureCause::kUnsupportedState: return "unsupported_state";
  }
  return "unknown";
}

/// True for the causes of an implicit solve (Newton, KINSOL, fixed point) — the step may converge smaller.
constexpr bool IsSolverFailure(StepFailureCause cause) {
  return cause == StepFailureCause::kNewtonNonConvergence || cause == StepFailureCause::kNewtonNonFiniteResidual ||
         cause == StepFailureCause::kSingularNewtonMatrix || cause == StepFailureCause::kKinsolFailure ||
         cause == StepFailureCause::kFixedPointNonConvergence;
}

}  // namespace impactlab
