// `impactlab sweep SCENARIO.toml --vary key=v1,v2,... [--vary key=start:stop:count | key=log:start:stop:count]...
//  [--integrator NAME]... [--set key=value]... [--metric KEY]... [--reference NAME[:key=value]...] [--threads N]
//  --out DIR [--json]`
// Runs the cartesian product of the --vary lists in parallel (validation/sweep/parallel_sweep.h), storing
// each finished case at once in DIR/sweep.csv (atomic rewrite; plain CSV, metadata in DIR/sweep.meta.json)
// and DIR/sweep.json at the end. Ctrl-C (or
// SIGTERM) finishes the running cases, saves, and exits with status 130; rerunning the same command resumes.
// Under `mpirun -np N` the cases are computed on N ranks (sweep/mpi_sweep.h, docs/scaling.md).
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "core/errors.h"
#include "core/interrupt.h"
#include "convergence/reference_spec.h"
#include "mpi/mpi_world.h"
#include "mpi/rank_pool.h"
#include "sweep/mpi_sweep.h"
#include "sweep/parallel_sweep.h"

namespace impactlab::cli {

void AddSweepCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("sweep", "parallel, resumable parameter sweep over a scenario");
  struct Args {
    std::string scenario, out;
    std::vector<std::string> vary, sets, integrators, metrics;
    std::string reference;
    int threads = 0;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  sub->add_option("scenario", args->scenario, "scenario TOML file")->required();
  sub->add_option("--vary", args->vary,
                  "swept key: key=v1,v2,..., key=start:stop:count or key=log:start:stop:count (repeatable)")
      ->required();
  sub->add_option("--reference", args->reference,
                  "reference run per case for error columns: NAME[:key=value]... (e.g. cvode_bdf:cvode_rtol=1e-12)");
  sub->add_option("--integrator", args->integrators, "integrator name (repeatable; see `impactlab list`)");
  sub->add_option("--set", args->sets, "override a scenario key for every case: key=value (repeatable)");
  sub->add_option("--metric", args->metrics, "extra summary key stored as a column (repeatable)");
  sub->add_option("--threads", args->threads, "worker threads (default 0: all cores; under mpirun: per rank, 0 = 1; results do not depend on it)");
  sub->add_option("--out", args->out, "output directory (DIR/sweep.csv, DIR/sweep.json)")->required();
  sub->add_flag("--json", args->json, "print the sweep JSON on stdout");
  sub->callback([&action, args] {
    action = [args] {
      if (args->threads < 0) throw InvalidParameter("--threads", args->threads, ">= 0 (0: all cores)");
      auto build_spec = [args] {
        SweepSpec spec;
        spec.scenario = LoadScenario(args->scenario);
        for (const auto& s : args->sets) ApplyOverride(spec.scenario, s);
        for (const auto& v : args->vary) spec.axes.push_back(ParseSweepAxis(v));
        spec.integrators = args->integrators;
        spec.metrics = args->metrics;
        spec.reference = args->reference;
        if (!spec.reference.empty()) (void)ParseReferenceSpec(spec.reference);
        return spec;
      };
      // Under mpirun (sweep/mpi_sweep.h): ranks > 0 only compute what rank 0 hands out; rank 0 does the rest.
      std::unique_ptr<MpiSweep> mpi;
      if (MpiDistributed() && !CheckOnly()) {
        InstallInterruptHandlers();
        if (MpiWorldRank() > 0) return ServeSweepCases(build_spec, args->threads);
        mpi = std::make_unique<MpiSweep>(args->threads, args->out);
      }
      const SweepSpec spec = build_spec();
      SweepOptions options;
      options.threads = args->threads;
      options.out_dir = args->out;
      options.progress = [](const std::string& line) { std::cerr << line << std::endl; };
      if (CheckOnly()) {  // arguments and files checked (scenario, overrides, axes); the rows are not run
        if (spec.axes.empty()) throw InvalidParameter("--vary", "<none>", "at least one key=values axis");
        return 0;
      }
      InstallInterruptHandlers();
      if (mpi) mpi->Attach(spec, options);
      SweepResult r;
      try {
        r = RunSweep(spec, options);
      } catch (const RankEnded&) {
        return 1;  // under mpirun a rank ended: the one-line error is printed already (mpi/rank_pool.h)
      }
      if (args->json) {
        nlohmann::json j = r.json;
        j["wall_time_s"] = r.wall_time_s;
        j["threads"] = mpi ? mpi->compute_threads() : r.threads;
        j["interrupted"] = r.interrupted;
        std::cout << j.dump(2) << "\n";
      }
      if (r.interrupted) {
        std::cerr << "interrupted: " << r.rows_done << " of " << r.rows_total
                  << " cases done, rerun the same command to resume\n";
        return kInterruptedExitCode;
      }
      if (!args->json)
        std::cout << "sweep: " << r.rows_total << " rows (" << r.rows_resumed << " resumed, " << r.rows_failed
                  << " step failures) in " << r.wall_time_s << " s on " << (mpi ? mpi->compute_threads() : r.threads) << " threads"
                  << (mpi ? " (" + std::to_string(mpi->ranks()) + " MPI ranks)" : std::string()) << "; wrote " << args->out << "/sweep.csv and "
                  << args->out << "/sweep.json (columns and units: " << args->out << "/sweep.meta.json)\n";
      return 0;
    };
  });
}

}  // namespace impactlab::cli
