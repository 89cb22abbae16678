// Error ladders: the engine of `impactlab converge` and `impactlab workprecision` for any scenario
// (docs/convergence.md, docs/workprecision.md).
//
// Each integrator runs the scenario (t_end as given, stop_after_separation = 0 so every run ends at the same
// time) on a ladder:
//   fixed-step schemes:  dt_1 > dt_2 > ... (override "dt")
//   adaptive schemes:    tolerances tol_1 > tol_2 > ... (rtol = tol, atol = tol · (atol/rtol of the scenario,
//                        else of the integrator's defaults)); the output step stays the scenario's dt. Their
//                        x-axis is the tolerance, never a step: the fitted slope is the tolerance
//                        proportionality (≈ 1 when the error control works), not an order.
// The reference is one run named by convergence/reference_spec.h: by default "exact" (Feng's exact stepper)
// when the model is a power-law Tsuji oscillator (validation/convergence/exact_convergence.h), else
// "rk4:dt=<dt_min/8>". It is Richardson-checked: a fixed-step reference is rerun at half its step and the
// finer run is used, with error estimate |R(h) − R(h/2)|/(2^p − 1) (p its declared order); an adaptive one
// at tolerances /100; the exact one has none (round-off only).
//
// Error metrics (relative unless stated):
//   final_state   max(‖q − q_ref‖∞ / Q, ‖v − v_ref‖∞ / V) at t_end, Q = max(‖q_ref‖∞, ‖q₀‖∞), V likewise
//   energy        |E(t_end) − E_ref(t_end)| / |E₀|, E = T + V the mechanical energy
//   trajectory    the final_state norm maximised over 20 sample times t_k = k t_end/20 (scales: the largest
//                 ‖q_ref‖∞, ‖v_ref‖∞ over the samples), states from the integrator's dense output, else
//                 the cubic Hermite interpolant of the step end points
//   <summary key> |x − x_ref| / |x_ref| for any numeric key of the run summary (restitution: absolute), e.g.
//                 restitution, max_overlap, contact_duration, e_t, beta
// Points outside the asymptotic range are marked and left out of the fit (convergence/order_fit.h):
//   above_stability  dt above the model's stability estimate for a conditionally stable scheme;
//   at_floor         error below max(1e-12, 10 × the reference's estimated error) (round-off or reference);
//   failed/unstable  the run stopped early or was flagged unstable (run/scenario_runner.h).
// Wall time of a point: the median of `repeats` runs, with the minimum and maximum.
// Grid shifts (`grid_shifts` K > 1, fixed-step schemes only): every dt also runs on the grids t_n = (n + k/K)·dt,
// k = 1..K−1, and the point's error is the largest of the K. A fixed-step scheme crossing a force jump or kink
// commits an error whose constant depends on where the crossing falls in its step (docs/convergence.md): on one
// grid the errors scatter with that phase, the largest over K grids follows the error bound C·dt^q.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace impactlab {

/// Errors below this (relative, or absolute for restitution) are round-off.
inline constexpr double kLadderRoundOffFloor = 1e-12;
/// A point is at the reference floor when its error is below this multiple of the reference's own error.
inline constexpr double kLadderReferenceMargin = 10.0;

struct LadderOptions {
  std::vector<std::string> integrators;
  std::vector<double> dts;         ///< fixed-step ladder (any order; sorted descending)
  std::vector<double> tolerances;  ///< adaptive ladder (any order; sorted descending)
  std::vector<std::string> metrics;  ///< empty: final_state plus restitution, max_overlap, contact_duration where defined
  std::string reference;             ///< empty: the default above
  int repeats = 1;                   ///< runs per point (wall time = median)
  /// Fixed-step schemes: K step grids per dt, offset by k·dt/K (k = 0..K−1; SimulationOptions::grid_offset);
  /// a point's error is the largest of the K. 1 = the plain grid only. Wall time and steps: the k = 0 grid.
  int grid_shifts = 1;
  std::function<void(const std::string&)> progress;  ///< one line per finished point (may be null)
};

/// The tolerance keys (rtol, atol) of an adaptive integrator; InvalidParameter if it has none.
std::pair<std::string, std::string> ToleranceKeys(const std::string& integrator);

/// Validates everything (scenario keys, integrators, ladders, metrics, reference) without running;
/// InvalidParameter on bad input.
void CheckErrorLadder(const Scenario& scenario, const LadderOptions& options);

/// Runs the reference and every ladder. JSON: scenario, model, t_end, reference {name, integrator,
/// error_estimate {metric: value}}, metrics, series [{integrator, adaptive, ladder ("dt"|"tolerance"),
/// declared_order, grid_shifts, points [{x, errors {metric}, excluded {metric: reason|null}, wall_time_s,
/// wall_time_min_s, wall_time_max_s, steps, rhs_evaluations, above_stability, status, and with grid shifts
/// grid_shifts, errors_by_shift {metric: [K]}}], fit {metric: {order, standard_error,
/// ci95, points} | null}}].
nlohmann::json RunErrorLadder(const Scenario& scenario, const LadderOptions& options);

}  // namespace impactlab
