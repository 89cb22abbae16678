// FitResult: what every Ceres calibration returns, and SolveLeastSquares, the one place that runs
// ceres::Solve and ceres::Covariance for them [Ceres Solver 2.1, "Covariance Estimation"].
//
//   minimize ½ Σ_i r_i(θ)²  (r_i = model − measured, unweighted)      Levenberg–Marquardt, dense QR
//   Cov(θ̂) = s² (JᵀJ)⁻¹ at θ̂,   s² = Σ r_i² / (N − P)                 (N residuals, P free parameters)
//   standard error σ_j = √Cov_jj
//
// (JᵀJ)⁻¹ is ceres::Covariance (DENSE_SVD) of the unweighted problem; s² is the residual-variance estimate
// of ordinary nonlinear least squares, so the standard errors assume independent, equal-variance errors.
// With N = P (an exactly determined fit) s² is undefined and the standard errors are reported as null.
// JSON keys: problem, parameters[{name, value, initial, standard_error, unit}], residuals, rms_residual,
// num_residuals, degrees_of_freedom, convergence{converged, termination, iterations, initial_cost,
// final_cost, wall_time_s, message}, details (problem-specific).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ceres {
class Problem;
}

namespace impactlab::calibration {

struct FittedParameter {
  std::string name;
  double value = 0.0;
  double initial = 0.0;
  std::optional<double> standard_error;
  std::string unit;  ///< "1" for dimensionless
};

struct FitConvergence {
  bool converged = false;
  std::string termination;  ///< Ceres TerminationType: CONVERGENCE, NO_CONVERGENCE, FAILURE, ...
  int iterations = 0;
  double initial_cost = 0.0, final_cost = 0.0;  ///< ½ Σ r²
  double wall_time_s = 0.0;
  std::string message;
};

struct FitResult {
  std::string problem;
  std::vector<FittedParameter> parameters;
  std::vector<double> residuals;
  double rms_residual = 0.0;
  int num_residuals = 0;
  int degrees_of_freedom = 0;
  FitConvergence convergence;
  nlohmann::json details = nlohmann::json::object();

  /// The parameter called `name`; throws InternalError if absent.
  const FittedParameter& Get(const std::string& name) const;
  nlohmann::json ToJson() const;
  /// Human-readable multi-line summary.
  std::string Format() const;
};

/// A free parameter block of size 1 registered in the problem (value points into caller storage). The solver
/// sees the dimensionless x; the physical parameter is scale·x (reported value, initial and standard error
/// are multiplied by scale). Keep x = O(1): Ceres's bounded-problem gradient test ‖x − Π(x − g)‖ loses g
/// below the rounding of x, so a parameter of size 1e5 with a gradient of 1e-11 stops at once.
struct FreeParameter {
  std::string name;
  double* value;
  std::string unit = "1";
  double scale = 1.0;
};

struct LeastSquaresOptions {
  int max_iterations = 200;
  double function_tolerance = 1e-15;
  double gradient_tolerance = 1e-16;
  double parameter_tolerance = 1e-14;
};

/// Runs ceres::Solve on `problem` (whose residual blocks and bounds are set up by the caller), then the
/// covariance of the free parameters, and fills a FitResult (problem name and details left to the caller).
FitResult SolveLeastSquares(ceres::Problem& problem, const std::vector<FreeParameter>& free,
                            const LeastSquaresOptions& options = {});

}  // namespace impactlab::calibration
