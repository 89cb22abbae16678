// Parallel, resumable, interruptible parameter sweep over a scenario (`impactlab sweep`, docs/sweeps.md).
//
// Cases are the cartesian product of the axes ("key=v1,v2,...", "key=start:stop:count" or
// "key=log:start:stop:count", the first axis varying slowest); every case is the base scenario plus one `key=value` override per axis (parsed exactly
// like --set), run once per integrator through RunScenario (no time-series files). One result row per
// case x integrator: row index r = case * n_integrators + integrator.
//
// Nothing lost: with an output directory, every finished row is stored at once in DIR/sweep.csv, rewritten
// atomically (io/resumable_table.h), rows always in row order whatever the completion order, numbers in
// shortest round-trip form. The CSV is plain (header line, then rows: pandas.read_csv and
// numpy.genfromtxt(names=True, delimiter=",") read it with no options); what it is lives in the sidecar
// DIR/sweep.meta.json, written with the first stored row (format, fingerprint, rows, spec, columns with
// units).
// Rerunning the same sweep skips the rows present (resume); a file written by a different sweep
// (fingerprint of model, base parameters, axes, integrators, reference and columns) is refused.
// The output directory is checked for writability before any case runs. On StopRequested()
// (core/interrupt.h) the workers finish the case they are computing, start no new one, and RunSweep returns
// with `interrupted` set.
//
// Determinism: cases are independent (each worker builds its own model and integrator from the registries,
// whose construction is a thread-safe function-local static), nothing depends on timing except the last
// column wall_time_s, so DIR/sweep.csv without that column is byte-identical for any thread count and run
// to run.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run/scenario_runner.h"
#include "scenario/scenario.h"

namespace impactlab {

/// One swept key and its override texts, in order.
struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
};

/// Parses "key=v1,v2,..." (each value as for --set), "key=start:stop:count" (count values equally spaced
/// from start to stop, both included; count = 1 gives start) or "key=log:start:stop:count" (geometric
/// spacing, start, stop > 0). InvalidParameter on malformed text.
SweepAxis ParseSweepAxis(const std::string& text);

struct SweepSpec {
  Scenario scenario;                     ///< base scenario (with --set overrides applied)
  std::vector<SweepAxis> axes;           ///< at least one
  std::vector<std::string> integrators;  ///< empty: the scenario's list, else velocity_verlet
  std::vector<std::string> metrics;      ///< extra summary keys stored as columns (after the default ones)
  /// Named reference (convergence/reference_spec.h, e.g. "cvode_bdf:cvode_rtol=1e-12"); non-empty adds the
  /// columns restitution_error (absolute), contact_duration_error and max_overlap_error (relative), each
  /// against the reference run of the same case.
  std::string reference;
};

struct SweepOptions {
  int threads = 1;       ///< worker threads (<= 0: hardware concurrency)
  std::string out_dir;   ///< empty: nothing written (results only in the returned SweepResult)
  /// Receives one progress line per finished row (may be called from worker threads, one at a time).
  std::function<void(const std::string&)> progress;
  /// Computes the summary of case `c` x integrator `i` (`request` = SweepCase(spec, c) with that integrator);
  /// empty: RunScenario(request)["runs"][0] in the calling worker thread. A StepFailure it throws makes a
  /// step_failure row. The MPI layer (sweep/mpi_sweep.h) sets it to hand the case to another rank.
  std::function<nlohmann::json(size_t c, size_t i, const RunRequest& request)> run_case;
};

struct SweepResult {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  ///< rows done, in row order (cells as in the CSV)
  size_t rows_total = 0, rows_done = 0, rows_resumed = 0, rows_failed = 0;
  bool interrupted = false;
  int threads = 0;           ///< worker threads used
  double wall_time_s = 0.0;  ///< of the computing phase (threads running)
  std::string fingerprint;
  std::string csv;  ///< the CSV text (= DIR/sweep.csv)
  nlohmann::json json;  ///< = DIR/sweep.json (spec, columns, rows; no timings)
};

/// Default metric columns (RunScenario summary keys).
const std::vector<std::string>& DefaultSweepMetrics();
/// Column names of the results table: row, case, <axis keys>, integrator, status, <default metrics>,
/// <--metric keys>, [<reference error columns>], wall_time_s (always last: the only column that depends on
/// timing).
std::vector<std::string> SweepColumns(const SweepSpec& spec);
/// Integrator names of the sweep (--integrator, else the scenario's list, else velocity_verlet).
std::vector<std::string> SweepIntegrators(const SweepSpec& spec);
/// Scenario of case `c` (0 <= c < number of cases): the base scenario plus one override per axis.
Scenario SweepCase(const SweepSpec& spec, size_t c);
/// "key=value key=value" of case `c`.
std::string SweepCaseLabel(const SweepSpec& spec, size_t c);
/// Number of rows = product of axis sizes x number of integrators.
size_t SweepRowCount(const SweepSpec& spec);
/// 16 hex digits identifying what the sweep computes (not where it writes or how many threads).
std::string SweepFingerprint(const SweepSpec& spec);

/// Runs (or resumes) the sweep. Throws InvalidParameter for bad input or an unusable output directory
/// before any case runs (and for a failing write later; rows stored until then stay intact). A case whose
/// integrator fails a step gives a row with status "step_failure" and empty metrics.
SweepResult RunSweep(const SweepSpec& spec, const SweepOptions& options);

/// For benchmarks: runs the sweep in memory with `threads` workers; wall time of the computing phase.
struct SweepTiming {
  int threads = 1;
  size_t rows = 0;
  double wall_time_s = 0.0;
};
SweepTiming TimeSweep(const SweepSpec& spec, int threads);

/// Best-of-`repeats` wall times with 1 and 2 threads and their ratio (what `impactlab bench` reports as
/// sweep_speedup_2_threads). The minimum over repeats filters out time stolen by other processes.
struct SweepScaling {
  double wall_1_thread_s = 0.0, wall_2_threads_s = 0.0, speedup_2_threads = 0.0;
  size_t rows = 0;
};
SweepScaling MeasureSweepScaling(const SweepSpec& spec, int repeats);

/// The reference scaling sweep of docs/sweeps.md: validation/scenarios/ellipsoid_wall.toml (Seed000 base
/// case) with dt = 1e-6 s, theta_deg = 0:75:6 x e_cn = 0.3,0.5,0.7,0.9 (24 cases, velocity Verlet, ~5e4
/// steps each).
SweepSpec ReferenceScalingSweep();

}  // namespace impactlab
