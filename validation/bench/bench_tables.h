// The tables of a bench result as files: one CSV per table that FormatBenchReport prints, and plot requests
// (report/figure_spec.h) for the scaling figures, written by `impactlab bench --out-dir DIR` next to bench.json and
// bench.md (docs/performance.md, "Bench output files"). Plain CSV, one row per measured item (pandas reads each as is);
// a time is the median over the run's repetitions with its min and max beside it, in ns unless the column says s;
// an empty cell is a figure this run did not measure. Rows and columns come from the result JSON alone
// (RunBenchSuite's keys, bench/bench_suite.h): nothing is timed here.
//
//   targets.csv                        key, value, target, status, note (issue 19's acceptance list first)
//   same_run_ratios.csv                ours vs the peer in the same process (peers group; Simo–Tarnow vs Verlet)
//   chain_ns_per_bead_step.csv         bead chain, both workloads, ns per bead-step against N
//   disk_cloud_ns_per_particle_step.csv  cell list vs all pairs
//   assembly_ns_per_particle_step.csv  sphere assembly against N: ours per integrator and LAMMPS
//   assembly_openmp.csv                1 vs 2 contact threads, with the machine's two-thread ceiling of the run
//   exact.csv, sweep.csv, matched_energy.csv, models.csv
//   <name>.plot.json                   figures: the assembly, chain and disk-cloud scaling, work at matched accuracy
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace impactlab::bench {

/// Writes the CSV files and plot requests of the groups present in `result` into `dir` (which must exist), each
/// atomically; returns the names written, in order. Rendering the PNGs is the caller's (RenderFigures).
std::vector<std::string> WriteBenchTables(const nlohmann::json& result, const std::filesystem::path& dir);

/// The file names WriteBenchTables may write (for RequireWritableDirectory before a run starts).
std::vector<std::string> BenchTableFileNames();

}  // namespace impactlab::bench
