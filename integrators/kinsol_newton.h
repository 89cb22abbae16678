// KINSOL back end of SolveNewton (integrators/newton_solver.h): SUNDIALS KINSOL, inexact-Newton with
// line search (KIN_LINESEARCH) and the dense direct linear solver, on the same residual / Jacobian
// callbacks [Hindmarsh et al. 2005, SUNDIALS; KINSOL user guide v6.4]. Scaling: fscale = 1/scale(x₀),
// uscale = 1/step_scale, so KINSOL's fnormtol and scsteptol are the relative tolerances of NewtonOptions.
// Dense: limited to systems of at most kKinsolMaxSize unknowns (the sparse-LU Newton has no such limit).
// Acceptance is the same as for the built-in Newton: ‖R‖∞ ≤ residual_tolerance · scale at the result (or
// ≤ stagnation_tolerance · scale when KINSOL itself reports success).
#pragma once

#include "integrators/newton_solver.h"

namespace impactlab {

inline constexpr Eigen::Index kKinsolMaxSize = 2000;

NewtonReport SolveWithKinsol(NewtonSystem& system, Eigen::VectorXd& x, double step_scale,
                             const NewtonOptions& options);

}  // namespace impactlab
