#include "calibration/fit_result.h"

#include <ceres/ceres.h>

#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/errors.h"

namespace impactlab::calibration {

const FittedParameter& FitResult::Get(const std::string& name) const {
  for (const auto& p : parameters)
    if (p.name == name) return p;
  throw InternalError("FitResult::Get: no parameter " + name);
}

nlohmann::json FitResult::ToJson() const {
  nlohmann::json j;
  j["problem"] = problem;
  j["parameters"] = nlohmann::json::array();
  for (const auto& p : parameters)
    j["parameters"].push_back({{"name", p.name},
                               {"value", p.value},
                               {"initial", p.initial},
                               {"standard_error", p.standard_error ? nlohmann::json(*p.standard_error) : nlohmann::json(nullptr)},
                               {"unit", p.unit}});
  j["residuals"] = residuals;
  j["rms_residual"] = rms_residual;
  j["num_residuals"] = num_residuals;
  j["degrees_of_freedom"] = degrees_of_freedom;
  j["convergence"] = {{"converged", convergence.converged},     {"termination", convergence.termination},
                      {"iterations", convergence.iterations},   {"initial_cost", convergence.initial_cost},
                      {"final_cost", convergence.final_cost},   {"wall_time_s", convergence.wall_time_s},
                      {"message", convergence.message}};
  j["details"] = details;
  return j;
}

std::string FitResult::Format() const {
  std::ostringstream os;
  os << "problem: " << problem << "\n" << std::setprecision(8);
  for (const auto& p : parameters) {
    os << "  " << p.name << " = " << p.value;
    if (p.standard_error) os << " ± " << std::setprecision(3) << *p.standard_error << std::setprecision(8);
    else os << " (standard error: n/a, N = P)";
    os << (p.unit == "1" ? "" : " " + p.unit) << "   (initial " << p.initial << ")\n";
  }
  os << std::setprecision(4) << "  RMS residual = " << rms_residual << " over " << num_residuals << " residuals ("
     << degrees_of_freedom << " degrees of freedom)\n";
  os << "  convergence: " << (convergence.converged ? "yes" : "NO") << " (" << convergence.termination << ", "
     << convergence.iterations << " iterations, cost " << convergence.initial_cost << " -> " << convergence.final_cost
     << ")\n";
  return os.str();
}

FitResult SolveLeastSquares(ceres::Problem& problem, const std::vector<FreeParameter>& free,
                            const LeastSquaresOptions& options) {
  FitResult r;
  for (const auto& f : free)
    r.parameters.push_back({f.name, f.scale * *f.value, f.scale * *f.value, std::nullopt, f.unit});

  ceres::Solver::Options so;
  so.linear_solver_type = ceres::DENSE_QR;
  so.minimizer_type = ceres::TRUST_REGION;
  so.trust_region_strategy_type = ceres::LEVENBERG_MARQUARDT;
  so.max_num_iterations = options.max_iterations;
  so.function_tolerance = options.function_tolerance;
  so.gradient_tolerance = options.gradient_tolerance;
  so.parameter_tolerance = options.parameter_tolerance;
  so.logging_type = ceres::SILENT;
  so.minimizer_progress_to_stdout = false;
  so.num_threads = 1;
  ceres::Solver::Summary summary;
  ceres::Solve(so, &problem, &summary);

  r.convergence.converged = summary.termination_type == ceres::CONVERGENCE;
  r.convergence.termination = ceres::TerminationTypeToString(summary.termination_type);
  r.convergence.iterations = static_cast<int>(summary.iterations.size()) - 1;  // iteration 0 is the start
  r.convergence.initial_cost = summary.initial_cost;
  r.convergence.final_cost = summary.final_cost;
  r.convergence.wall_time_s = summary.total_time_in_seconds;
  r.convergence.message = summary.message;

  double cost = 0.0;
  problem.Evaluate(ceres::Problem::EvaluateOptions(), &cost, &r.residuals, nullptr, nullptr);
  r.num_residuals = static_cast<int>(r.residuals.size());
  double ss = 0.0;
  for (double x : r.residuals) ss += x * x;
  r.rms_residual = r.residuals.empty() ? 0.0 : std::sqrt(ss / static_cast<double>(r.residuals.size()));
  r.degrees_of_freedom = r.num_residuals - static_cast<int>(free.size());
  for (size_t i = 0; i < free.size(); ++i) r.parameters[i].value = free[i].scale * *free[i].value;

  if (r.degrees_of_freedom > 0 && summary.IsSolutionUsable()) {
    ceres::Covariance::Options co;
    co.algorithm_type = ceres::DENSE_SVD;
    co.null_space_rank = -1;  // truncate singular directions below min_reciprocal_condition_number
    co.num_threads = 1;
    ceres::Covariance covariance(co);
    std::vector<std::pair<const double*, const double*>> blocks;
    for (const auto& f : free) blocks.emplace_back(f.value, f.value);
    if (covariance.Compute(blocks, &problem)) {
      const double s2 = ss / static_cast<double>(r.degrees_of_freedom);
      for (size_t i = 0; i < free.size(); ++i) {
        double c = 0.0;
        if (covariance.GetCovarianceBlock(free[i].value, free[i].value, &c) && std::isfinite(c) && c >= 0.0)
          r.parameters[i].standard_error = free[i].scale * std::sqrt(c * s2);
      }
    }
  }
  return r;
}

}  // namespace impactlab::calibration
