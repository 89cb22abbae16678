// The sphere assembly at scale in `impactlab bench` (issue 19, items 3 and 6; docs/performance.md, "Sphere
// assembly"): ns per particle-step of velocity Verlet at 10³, 10⁴, 10⁵ spheres and of Simo–Tarnow at 10³ (10⁴),
// peak memory per particle, and LAMMPS on the same packing in the same run.
//
// Velocity Verlet (in this process): the scenario's model (validation/scenarios/sphere_assembly_1eK.toml) is built,
// advanced `warmup` steps from its initial state by Integrator::Step (contacts, history slots and caches set up:
// the "settled start"), and then `timed` steps from that state are timed, no observers, model set-up not timed;
// ns per particle-step = wall / (timed × N). Each repetition times ours and then runs LAMMPS on the same packing
// (lammps_peer.h: `run warmup` then `run timed`, its second "Loop time" parsed), so a change of machine load hits
// both; assembly_vs_lammps_ratio = median over repetitions of ours / LAMMPS.
// Peak memory: a child `impactlab run SCENARIO --set t_end=2dt --integrator NAME` (the whole program: model,
// driver, energy ledger) measured by wait4's ru_maxrss (child_process.h); per particle = peak RSS / N, so at 10³
// it is dominated by the program's fixed ≈ 15 MB. LAMMPS's the same way (the peak RSS of its timing runs).
// OpenMP (issue 19 item 5, core/contact_threads.h): for the cases marked `openmp`, the same timed steps with 1 and
// with 2 contact threads, interleaved per repetition; openmp_speedup_2_threads = median of t(1)/t(2), and
// openmp_same_result = the final states of both are bitwise equal. Needs a free second core: on a loaded machine a
// second contact thread waits for a core (the header of core/contact_threads.h); `uptime` belongs next to it.
// Simo–Tarnow (in this process, as velocity Verlet: `warmup` steps, then `timed` steps per repetition; Newton
// iterations per step from the integrator's statistics; the 10⁴ case also with 1 vs 2 contact threads): its Newton
// Jacobian is assembled sparse from the model's per-contact blocks (system/discrete_contact_jacobian.h), so memory
// and time per step are O(N) up to the linear solver. Peak memory: a child `impactlab run` of one step under an
// address-space limit and a timeout (a child that exceeds either is reported with the reason, never a number).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/two_thread_ceiling.h"

namespace impactlab::bench {

struct AssemblyCase {
  std::string label;                   ///< key in the JSON ("1e3", "1e4", "1e5")
  std::string scenario;                ///< path relative to the source tree
  std::vector<std::string> overrides;  ///< "key=value"
  long warmup_steps = 10;
  long timed_steps = 100;
  bool compare_with_lammps = false;    ///< also compare the final state with LAMMPS's (small cases)
  bool openmp = false;                 ///< also time 1 vs 2 contact threads (core/contact_threads.h)
};

/// The most windows one timing sample runs (AssemblyBenchOptions::min_sample_seconds).
inline constexpr int kMaxWindowsPerSample = 64;

struct AssemblyBenchOptions {
  std::vector<AssemblyCase> verlet_cases;
  std::vector<AssemblyCase> simo_tarnow_cases;  ///< timed in this process; peak memory in a child process
  int repetitions = 3;                          ///< ≥ 1
  /// Each timing sample runs the case's window (its timed steps from the same start) as many times as a first timed
  /// window says it takes to last this long, at most kMaxWindowsPerSample (≥ 0; 0: one window). A 20-step window of
  /// 10³ spheres lasts ≈ 18 ms, short enough for a burst of outside load to move one sample.
  double min_sample_seconds = 0.1;
  std::filesystem::path impactlab_executable;   ///< for the memory and Simo–Tarnow children (empty: not measured)
  bool lammps = true;                           ///< run the LAMMPS peer when `lmp` is installed
  std::filesystem::path work_directory;         ///< LAMMPS and child files (empty: a fresh temporary directory)
  double simo_tarnow_timeout_seconds = 900.0;
  long long simo_tarnow_address_space_bytes = 0;  ///< 0: half the physical memory
  bool progress = true;
  /// The machine's two-thread ceiling measured first (bench/two_thread_ceiling.h); its repetitions are at least 5.
  TwoThreadCeilingOptions two_thread_ceiling;
};

/// The default cases (quick: 10³ and 10⁴ Verlet with fewer steps, no 10⁵, no Simo–Tarnow).
AssemblyBenchOptions DefaultAssemblyBenchOptions(bool quick);

/// {velocity_verlet: {label: {...}}, simo_tarnow: {label: {...} | {not_measurable: reason}}, lammps: {...},
///  two_thread_ceiling: {...}}
nlohmann::json RunAssemblyBenchmarks(const AssemblyBenchOptions& options);

}  // namespace impactlab::bench
