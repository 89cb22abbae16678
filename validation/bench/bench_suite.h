// `impactlab bench`: every figure of the performance issue in one run, with the targets marked met/missed
// (docs/performance.md). Keys of the JSON (self-explaining, stable):
//   verlet_vs_hand_loop_ratio, verlet_vs_odeint_ratio, rk4_vs_odeint_ratio, cvode_vs_verlet_matched_accuracy_ratio,
//   simo_tarnow_vs_verlet_ratio, simo_tarnow_newton_iterations_mean, exact_restitution_ns, exact_vs_cvode_speedup,
//   sweep_speedup_2_threads, chain_ns_per_bead_step {integrator: {N: ns}}, models {model: {integrator: ...}},
//   targets [{key, value, target, met}], machine {...}, and the detailed peer / exact / sweep blocks.
// Ratios are medians of per-repetition ratios (ours and the peer interleaved in the same process).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace impactlab::bench {

struct BenchOptions {
  bool quick = false;                    ///< fewer repetitions, shorter runs
  int repetitions = 7;                   ///< per timing (quick: 3)
  std::vector<std::string> integrators;  ///< model matrix integrators (empty: every registered one)
  std::vector<std::string> only;         ///< groups: peers, models, implicit, chain, cells, exact, sweep, matched (empty: all)
  bool progress = true;                  ///< progress lines on stderr
};

/// Throws InvalidParameter for an unknown group or integrator name or repetitions < 1 (RunBenchSuite calls it).
void ValidateBenchOptions(const BenchOptions& options);

nlohmann::json RunBenchSuite(const BenchOptions& options);

/// Human-readable tables of a RunBenchSuite result (Markdown).
std::string FormatBenchReport(const nlohmann::json& result);

}  // namespace impactlab::bench
