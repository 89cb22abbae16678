// `impactlab bench`: every figure of the performance issue in one run, with the targets marked met/missed
// (docs/performance.md). Keys of the JSON (self-explaining, stable):
//   verlet_vs_hand_loop_ratio, verlet_vs_odeint_ratio, rk4_vs_odeint_ratio, cvode_vs_verlet_matched_accuracy_ratio,
//   simo_tarnow_vs_verlet_ratio, simo_tarnow_newton_iterations_mean, exact_restitution_ns, exact_vs_cvode_speedup,
//   sweep_speedup_2_threads, chain_ns_per_bead_step {integrator: {N: ns}}, models {model: {integrator: ...}},
//   assembly_ns_per_particle_step {integrator: {1e3, 1e4, 1e5, growth_...}}, assembly_peak_memory_per_particle_bytes,
//   lammps_ns_per_particle_step, assembly_vs_lammps_ratio (10⁵; "peer not installed" without lmp),
//   targets [{key, value, target, status: met | missed | not measured, met, note}] with a row for every key of
//   issue 19's acceptance list whether or not its group ran, machine {...}, versions {impactlab, Eigen, SUNDIALS, …}, complete (false only in the partial results
//   handed to BenchOptions::group_done), and the detailed blocks.
// Ratios are medians of per-repetition ratios (ours and the peer interleaved in the same process).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace impactlab::bench {

struct BenchOptions {
  bool quick = false;                    ///< fewer repetitions, shorter runs
  int repetitions = 7;                   ///< per timing (quick: 3)
  std::vector<std::string> integrators;  ///< model matrix integrators (empty: every registered one)
  std::vector<std::string> only;  ///< groups: peers, models, implicit, chain, cells, exact, sweep, matched, assembly (empty: all)
  /// The impactlab program, for the assembly group's child runs (peak memory, Simo–Tarnow); the CLI passes its own
  /// path. Empty: those figures are reported as not measured.
  std::string impactlab_executable;
  bool lammps = true;  ///< assembly group: run LAMMPS (`lmp`) on the same packing when it is installed
  bool progress = true;                  ///< progress lines on stderr
  /// Called after each group with the result so far ("complete": false, the targets of the groups run so far), so
  /// that a caller can keep partial results when a later group fails or the run is stopped. Empty: not called.
  std::function<void(const nlohmann::json&)> group_done;
};

/// Throws InvalidParameter for an unknown group or integrator name or repetitions < 1 (RunBenchSuite calls it).
void ValidateBenchOptions(const BenchOptions& options);

nlohmann::json RunBenchSuite(const BenchOptions& options);

/// Human-readable tables of a RunBenchSuite result (Markdown).
std::string FormatBenchReport(const nlohmann::json& result);

}  // namespace impactlab::bench
