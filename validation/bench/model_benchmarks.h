// Cost per step of every registered integrator on the benchmark models of `impactlab bench`
// (docs/performance.md). Each model is a scenario file of validation/scenarios with overrides, advanced from
// its initial state by `steps` calls of Integrator::Step at the scenario's dt (no observers, no event
// location): ns per step (min/median/max), RHS evaluations and Newton iterations per step. An integrator
// that cannot advance a model (e.g. "exact" needs the power-law oscillator) or whose step is rejected at that dt is
// listed with the reason instead of a time; one on dense whole-system matrices (IntegratorTraits::dense_matrices:
// Siconos, CVODE with its dense direct solver asked for) is skipped above 2000 unknowns, with the count in the reason.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/timing.h"

namespace impactlab::bench {

struct BenchModel {
  std::string label;                   ///< key in the JSON output ("hertz_oscillator", "chain_10000", ...)
  std::string scenario;                ///< path relative to the source tree
  std::vector<std::string> overrides;  ///< "key=value"
  long steps = 1000;                   ///< steps per timed call
};

/// The default model list (quick: shorter runs, chain up to 10⁴ all the same).
std::vector<BenchModel> DefaultBenchModels(bool quick);

/// {label: {integrator: {ns_per_step: {...}, rhs_per_step, newton_iterations_per_step} | {skipped: reason}}}
nlohmann::json RunModelBenchmarks(const std::vector<BenchModel>& models, const std::vector<std::string>& integrators,
                                  const TimingOptions& options, bool progress);

/// Simo–Tarnow vs velocity Verlet per step on the undamped Hertz oscillator at dt = Δt_crit (Feng's effective
/// stiffness bound, lib/exact/critical_time_step), plus ST's mean Newton iterations per step.
nlohmann::json RunSimoTarnowVsVerlet(const TimingOptions& options);

/// The chain's initial state for the scaling benchmark.
enum class ChainWorkload {
  /// Every neighbour contact closed: the chain of hertz_chain.toml compressed uniformly by δ₀ = 1 µm in every
  /// contact (u_i = −i δ₀, v = 0) and released, 200 steps at every N. Every pair evaluates the law in every
  /// force evaluation at every N, and the release waves from both ends cover the same ≈ 10 beads whatever N,
  /// so a bead-step is the same work at every N: the cost per unit of work (the target's key).
  kCompressed,
  /// The scenario's own start: the striker hits the resting chain, 200 000/N steps (2 000 at N = 10², 20 at
  /// 10⁴). The work per bead-step differs with N (reported, no target; docs/performance.md, "Why the missed
  /// targets are missed"): the rounded rest lattice leaves a share of resting pairs at δ ≈ +1e-17 m that
  /// grows with N (18 of 99 at 10², 5 437 of 9 999 at 10⁴) and evaluates the law, and Newton's work per step
  /// differs between a run that follows the wave across the chain and one that stops behind the striker.
  kStriker,
};

/// ns per bead-step of velocity Verlet and Simo–Tarnow on the Hertz bead chain for each N.
nlohmann::json RunChainScaling(const std::vector<int>& sizes, ChainWorkload workload, const TimingOptions& options,
                               bool progress);

/// ns per particle-step of velocity Verlet on disk_cloud.toml with num_disks = N, from its initial state, with
/// the cell-list broad phase ("cell_list", the default) and with the full loop over all N(N−1)/2 pairs
/// ("all_pairs", ParticleAssembly::set_broad_phase(false)), same run: {cell_list: {N: spread}, all_pairs: ...,
/// same_result: {N: both paths end in bitwise the same q}}.
nlohmann::json RunDiskCloudScaling(const std::vector<int>& sizes, const TimingOptions& options, bool progress);

}  // namespace impactlab::bench
