// `impactlab bench [--json] [--quick] [--repetitions N] [--only GROUP]... [--integrator NAME]... [--out FILE] [--no-lammps]`
// Performance figures with same-run peer ratios and the targets marked met/missed (docs/performance.md).
#include <filesystem>
#include <iostream>

#include "bench/bench_suite.h"
#include "cli/command.h"
#include "core/errors.h"
#include "io/atomic_file.h"
#include "io/writable_directory.h"

namespace impactlab::cli {

void AddBenchCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("bench", "benchmarks: ns per step, peer ratios (hand loop, Boost.Odeint, CVODE), targets");
  struct Args {
    bool json = false, quick = false, no_lammps = false;
    int repetitions = 7;
    std::vector<std::string> only, integrators;
    std::string out;
  };
  auto args = std::make_shared<Args>();
  sub->add_flag("--json", args->json, "print the result JSON on stdout (tables otherwise)");
  sub->add_flag("--quick", args->quick, "fewer repetitions and shorter runs");
  sub->add_option("--repetitions", args->repetitions, "repetitions per timing (>= 1, default 7)");
  sub->add_option("--only", args->only, "groups to run: peers, models, implicit, chain, cells, exact, sweep, matched, assembly (repeatable)");
  sub->add_option("--integrator", args->integrators, "integrators of the per-model table (repeatable; default all)");
  sub->add_option("--out", args->out, "also write the JSON to this file (atomically)");
  sub->add_flag("--no-lammps", args->no_lammps, "assembly group: do not run the LAMMPS peer even when lmp is installed");
  sub->callback([&action, args] {
    action = [args] {
      if (args->repetitions < 1) throw InvalidParameter("--repetitions", args->repetitions, ">= 1");
      bench::BenchOptions o;
      o.quick = args->quick;
      o.repetitions = args->repetitions;
      o.only = args->only;
      o.integrators = args->integrators;
      o.lammps = !args->no_lammps;
      // This program, for the assembly group's child runs (peak memory of `impactlab run`, Simo–Tarnow).
      std::error_code ec;
      const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
      if (!ec) o.impactlab_executable = self.string();
      if (CheckOnly()) {  // validate the selections without timing anything
        bench::ValidateBenchOptions(o);
        return 0;
      }
      if (!args->out.empty()) {  // before timing anything: an unwritable --out costs no computation
        const std::filesystem::path out = args->out;
        RequireWritableDirectory(out.has_parent_path() ? out.parent_path() : std::filesystem::path("."),
                                 {out.filename().string()}, "--out");
      }
      const nlohmann::json result = bench::RunBenchSuite(o);
      if (!args->out.empty()) WriteFileAtomically(args->out, result.dump(2) + "\n");
      if (args->json) std::cout << result.dump(2) << "\n";
      else std::cout << bench::FormatBenchReport(result);
      return 0;
    };
  });
}

}  // namespace impactlab::cli
