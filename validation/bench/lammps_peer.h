// LAMMPS as the peer of the sphere assembly in `impactlab bench` (issue 19, item 6; docs/performance.md, "LAMMPS
// peer"): the same packing written as a LAMMPS data file (the same N, radius, density, centres and velocities, bit
// for bit in %.17g), an input script with the same contact physics, gravity, walls, dt and number of steps, run with
// Debian's `lmp` on one core (one MPI rank, OMP_NUM_THREADS=1, no accelerator suffix), and its "Loop time" parsed.
//
// Parameter mapping (LAMMPS documentation, pair_style granular and fix wall/gran; units si):
//   normal   F_ne = 4/3 E_eff √R δ^{3/2}  (hertz/material E, ν)            ours: Hertz W' = k δ^{3/2}, k = 4/3 E* √R*
//            pair: LAMMPS E_eff = E/(2(1 − ν²)) for one type, so E_pair = 2(1 − ν²) E*_pair;
//            wall: LAMMPS 2022's fix wall/gran uses E_eff = E/(2(1 − ν)) (measured: a sphere pressed on the floor
//            feels (1 − ν²)/(1 − ν) = 1 + ν times 4/3 E* √R δ^{3/2}), so E_wall = 2(1 − ν) E*_wall; R_eff = R,
//            m_eff = m at a wall.
//   damping  F_nd = −η_n v_n, η_n = α_L(e_L) √(m_eff k_n a), k_n = 4/3 E_eff, a = √(Rδ)  (damping tsuji)
//            ours: C = α √(m* k) δ^{1/4} (Tsuji, Tanaka & Ishida 1992), the same form; α is ours (√5 ξ(e) calibrated,
//            docs/calibration.md) and LAMMPS takes e_L with α_L(e_L) = α from its polynomial fit
//            α_L(e) = 1.2728 − 4.2783 e + 11.087 e² − 22.348 e³ + 27.467 e⁴ − 18.022 e⁵ + 4.8218 e⁶, inverted here by
//            bisection (e_n = 0.5: α = 0.4818 → e_L = 0.3667): the damping force is the same, the e passed differs.
//   tangential  mindlin_rescale/force k_t 0 μ: F_t incremental in force, −k_t a Δξ per step, rescaled by a/a_prev
//            on unloading, capped at μ F_n0 (Mindlin 1949; Thornton, Cummins & Cleary 2013 eq. 18b) = ours
//            mindlin_rescaled_incremental with k_t a = 8 G* √(R δ): k_t = 8 G* is given explicitly for pair and wall
//            (fix wall/gran's NULL default is not 8 G* in this LAMMPS version); no tangential damping (x_γ,t = 0),
//            no rolling or twisting resistance, as ours.
//   Differences that remain (documented, small for a compressed packing over tens of steps): LAMMPS caps |F_t| at
//   μ |F_ne + F_nd| (ours: μ W'(δ)); its velocity Verlet evaluates the dashpot at the half-step velocity (ours
//   iterates the end velocity); its tangential increment is v_t,rel dt (ours: Δs from the positions at both ends);
//   and, not explained, LAMMPS's first-step wall kick differs by ≈ 0.5 % from the wall force it reports at the start
//   when the walls use tsuji damping (docs/performance.md, "The LAMMPS input and its parameter mapping"). The forces
//   at the start agree with ours to round-off (tests/validation/bench_assembly_test.cpp).
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/child_process.h"
#include "core/parameter_set.h"
#include "models/sphere_assembly.h"

namespace impactlab::bench {

/// LAMMPS's Tsuji α(e) polynomial (LAMMPS documentation, pair_style granular, damping tsuji).
double LammpsTsujiAlpha(double e);
/// The e in [0, 1] with LammpsTsujiAlpha(e) = alpha; throws InvalidParameter outside α_L's range [α_L(1), α_L(0)].
double LammpsRestitutionForTsujiAlpha(double alpha);

/// Everything the LAMMPS run of one packing needs, mapped from the model (see the header comment).
struct LammpsPacking {
  SphereAssemblyConfiguration configuration;  ///< the same centres, velocities, radius, density, gravity
  double lx = 0.0, ly = 0.0;                   ///< box walls at x = 0, lx and y = 0, ly; floor z = 0
  double poisson = 0.25;
  double pair_E = 0.0, pair_kt = 0.0, pair_e = 0.0;  ///< LAMMPS pair_coeff: E, k_t, e for tsuji
  double wall_E = 0.0, wall_kt = 0.0, wall_e = 0.0;  ///< fix wall/gran: E, k_t, e
  double pair_alpha = 0.0, wall_alpha = 0.0;         ///< ours (= LAMMPS's α at pair_e / wall_e)
  double mu = 0.0;
  double dt = 0.0;
  long warmup_steps = 0, timed_steps = 0;  ///< `run warmup` then `run timed` (the timed loop is the second)
  bool dump_final = false;  ///< write initial.dump (id fx fy fz at the start) and final.dump (id x v ω) after the timed run
  nlohmann::json ToJson() const;           ///< the mapping, for the bench JSON
};

/// Maps a sphere_assembly scenario's parameters and the model built from them; throws InvalidParameter naming what
/// has no LAMMPS counterpart here (a normal law other than hertz, damping other than tsuji, a tangential law other
/// than mindlin_rescaled_incremental, walls other than the floor-and-four-walls box).
LammpsPacking MapToLammps(const ParameterSet& scenario_parameters, const SphereAssembly& model, double dt,
                          long warmup_steps, long timed_steps);

std::string LammpsDataFile(const LammpsPacking& p);
std::string LammpsInputScript(const LammpsPacking& p);

/// The "Loop time" lines of a LAMMPS log (with dump_final the script runs `run 0` first to dump the initial forces,
/// so the timed loop is always the last one and the warm-up the one before it).
/// One "Loop time of T on P procs for N steps with M atoms" line of a LAMMPS log.
struct LammpsLoop {
  double seconds = 0.0;
  int procs = 0;
  long steps = 0, atoms = 0;
};
std::vector<LammpsLoop> ParseLammpsLoops(const std::string& log);

struct LammpsResult {
  std::string error;  ///< empty: ran and parsed
  LammpsLoop timed;   ///< the second loop (after the warm-up run)
  ChildRun child;     ///< exit code, peak RSS, wall
  std::vector<Eigen::Vector3d> x, v, omega;  ///< final state by atom id − 1 (dump_final only)
  std::vector<Eigen::Vector3d> initial_force;  ///< force on each atom at the start (dump_final only) [N]
  double ns_per_particle_step() const {
    return 1e9 * timed.seconds / (static_cast<double>(timed.steps) * static_cast<double>(timed.atoms));
  }
};

/// The LAMMPS executable: $IMPACTLAB_LAMMPS if set (a name on PATH or a path), else `lmp` on PATH; empty when
/// that is not an executable file.
std::filesystem::path FindLammps();

/// Writes packing.data and in.packing to `directory`, runs `lammps` there on one core and parses log.lammps.
LammpsResult RunLammpsPacking(const std::filesystem::path& lammps, const LammpsPacking& p,
                              const std::filesystem::path& directory);

}  // namespace impactlab::bench
