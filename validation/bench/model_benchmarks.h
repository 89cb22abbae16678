// Cost per step of every registered integrator on the benchmark models of `impactlab bench`
// (docs/performance.md). Each model is a scenario file of validation/scenarios with overrides, advanced from
// its initial state by `steps` calls of Integrator::Step at the scenario's dt (no observers, no event
// location): ns per step (min/median/max), RHS evaluations and Newton iterations per step. An integrator
// that cannot advance a model (e.g. EFDA needs a planar contact system, "exact" the power-law oscillator)
// is listed with the reason instead of a time; CVODE's dense direct solver is skipped above 2000 unknowns.
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

/// ns per bead-step of velocity Verlet and Simo–Tarnow on the Hertz bead chain for each N.
nlohmann::json RunChainScaling(const std::vector<int>& sizes, const TimingOptions& options, bool progress);

/// ns per particle-step of velocity Verlet on disk_cloud.toml with num_disks = N, from its initial state, with
/// the cell-list broad phase ("cell_list", the default) and with the full loop over all N(N−1)/2 pairs
/// ("all_pairs", ParticleAssembly::set_broad_phase(false)), same run: {cell_list: {N: spread}, all_pairs: ...,
/// same_result: {N: both paths end in bitwise the same q}}.
nlohmann::json RunDiskCloudScaling(const std::vector<int>& sizes, const TimingOptions& options, bool progress);

}  // namespace impactlab::bench
