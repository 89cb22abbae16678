// Work at matched energy accuracy (issue 19 item 7, docs/performance.md "Work at matched energy accuracy").
//
// Problem: the undamped 100-bead Hertz chain (validation/scenarios/hertz_chain.toml, e = 1), advanced over
// `contact_durations` two-bead Hertz contact times t_c (Feng's closed form with m* = m/2, k = 4/3 E* √R*,
// v₀: lib/exact/feng_power_law_solution.h). Accuracy: the largest relative energy error over the run,
// max_n |E_n − E₀| / E₀, evaluated after every step.
//
// For each scheme the cheapest setting that keeps that error ≤ `energy_tolerance` is searched:
//   - fixed-step schemes: dt = t_c / 2, t_c / 4, … (halving, at most 16 times) until the error is below;
//   - adaptive schemes (dopri5, rkf78, cvode_bdf): rtol = 1e-3, 1e-4, … 1e-13 (atol = 1e-4 rtol), at an
//     outer step of t_c / 20;
// then the run at that setting is timed (median of repetitions, energy checks off). A scheme that fails,
// refuses the model or never gets below the tolerance is reported with the reason and no time.
// The point: a conserving scheme keeps E at round-off at any step its Newton iteration survives, so its
// matched cost is set by the largest step it can take; the others pay for the energy with small steps.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/timing.h"

namespace impactlab::bench {

struct MatchedEnergyOptions {
  std::vector<std::string> integrators;  ///< empty: the default list (see .cpp)
  double energy_tolerance = 1e-8;        ///< > 0
  double contact_durations = 100.0;      ///< run length in units of t_c (> 0)
  int num_beads = 100;                   ///< ≥ 2
};

/// {problem: {...}, schemes: {name: {setting, dt|rtol, max_energy_error, steps, seconds: spread} | {skipped}},
///  matched_energy_accuracy_s: {name: median seconds}, matched_energy_accuracy_vs_verlet_ratio: {name: ratio}}
nlohmann::json RunMatchedEnergyAccuracy(const MatchedEnergyOptions& options, const TimingOptions& timing,
                                        bool progress);

}  // namespace impactlab::bench
