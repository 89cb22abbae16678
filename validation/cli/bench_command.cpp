// `impactlab bench [--json] [--quick] [--repetitions N] [--only GROUP]... [--integrator NAME]... [--out FILE]
//                  [--out-dir DIR] [--no-lammps]`,  `impactlab bench --from bench.json [--out-dir DIR] [--json]`
// Performance figures with same-run peer ratios and the targets marked met/missed (docs/performance.md). --out-dir
// writes bench.json, bench.md, one CSV per table and the scaling figures (bench/bench_tables.h); --out and
// DIR/bench.json hold the partial result ("complete": false) after every group, so a failure keeps what was measured.
// --from prints the tables of a saved result and, with --out-dir, writes its files again; it times nothing.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "bench/bench_suite.h"
#include "bench/bench_tables.h"
#include "cli/command.h"
#include "core/errors.h"
#include "io/atomic_file.h"
#include "io/writable_directory.h"
#include "report/report_writer.h"

namespace impactlab::cli {
namespace {

// bench.md, the CSV tables and the figures of a result into `dir` (bench.json is written by the caller).
void WriteBenchFiles(const nlohmann::json& result, const std::filesystem::path& dir) {
  WriteFileAtomically(dir / "bench.md", bench::FormatBenchReport(result));
  bench::WriteBenchTables(result, dir);
  RenderFigures(dir);
}

void RequireBenchDirectory(const std::filesystem::path& dir) {
  std::vector<std::string> names = bench::BenchTableFileNames();
  names.insert(names.end(), {"bench.json", "bench.md"});
  RequireWritableDirectory(dir, names, "--out-dir");
}

// `bench --from FILE`: the tables of a saved result on stdout (or its JSON with --json) and, with --out-dir, its files.
int WriteSavedResult(const std::filesystem::path& from, const std::filesystem::path& dir, bool json) {
  std::ifstream in(from);
  const nlohmann::json result = nlohmann::json::parse(in, nullptr, false);
  if (result.is_discarded() || !result.is_object() || !result.contains("targets") || !result["targets"].is_array())
    throw InvalidParameter("--from", "\"" + from.string() + "\"",
                           "a result written by `impactlab bench --out FILE` or `--out-dir DIR` (a JSON object with a "
                           "\"targets\" array)");
  if (CheckOnly()) return 0;  // the input is valid; no output
  // A result edited by hand may lack a key the tables read: that is bad input too, named with the key's error.
  try {
    const std::string tables = bench::FormatBenchReport(result);
    if (!dir.empty()) {
      RequireBenchDirectory(dir);
      WriteFileAtomically(dir / "bench.json", result.dump(2) + "\n");
      WriteBenchFiles(result, dir);
    }
    if (json) std::cout << result.dump(2) << "\n";
    else std::cout << tables;
  } catch (const nlohmann::json::exception& e) {
    throw InvalidParameter("--from", "\"" + from.string() + "\"",
                           std::string("a complete result of `impactlab bench` (") + e.what() + ")");
  }
  return 0;
}

}  // namespace

void AddBenchCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("bench", "benchmarks: ns per step, peer ratios (hand loop, Boost.Odeint, CVODE), targets");
  struct Args {
    bool json = false, quick = false, no_lammps = false;
    int repetitions = 7;
    std::vector<std::string> only, integrators;
    std::string out, out_dir, from;
  };
  auto args = std::make_shared<Args>();
  sub->add_flag("--json", args->json, "print the result JSON on stdout (tables otherwise)");
  auto* quick = sub->add_flag("--quick", args->quick, "fewer repetitions and shorter runs");
  auto* repetitions = sub->add_option("--repetitions", args->repetitions, "repetitions per timing (>= 1, default 7)");
  auto* only = sub->add_option("--only", args->only, "groups to run: peers, models, implicit, chain, cells, exact, sweep, matched, assembly (repeatable)");
  auto* integrators = sub->add_option("--integrator", args->integrators, "integrators of the per-model table (repeatable; default all)");
  auto* out = sub->add_option("--out", args->out,
                               "also write the JSON to this file (atomically; the partial result after each group)");
  sub->add_option("--out-dir", args->out_dir,
                  "also write bench.json, bench.md, a CSV per table and the scaling figures (PNG) into this directory");
  auto* no_lammps = sub->add_flag("--no-lammps", args->no_lammps,
                                  "assembly group: do not run the LAMMPS peer even when lmp is installed");
  // A saved result: its tables (and with --out-dir its files) without timing anything, so no timing option.
  sub->add_option("--from", args->from,
                  "print the tables of a saved result (bench.json) and, with --out-dir, write its files; times nothing")
      ->check(CLI::ExistingFile)
      ->excludes(quick)
      ->excludes(repetitions)
      ->excludes(only)
      ->excludes(integrators)
      ->excludes(out)
      ->excludes(no_lammps);
  sub->callback([&action, args] {
    action = [args] {
      if (!args->from.empty()) return WriteSavedResult(args->from, args->out_dir, args->json);
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
      const std::filesystem::path dir = args->out_dir;
      if (!dir.empty()) RequireBenchDirectory(dir);
      // The result so far after each group: a later failure or an interrupted run keeps what was measured.
      auto write_json = [args, dir](const nlohmann::json& result) {
        const std::string text = result.dump(2) + "\n";
        if (!args->out.empty()) WriteFileAtomically(args->out, text);
        if (!dir.empty()) WriteFileAtomically(dir / "bench.json", text);
      };
      o.group_done = write_json;
      const nlohmann::json result = bench::RunBenchSuite(o);
      write_json(result);
      if (!dir.empty()) WriteBenchFiles(result, dir);
      if (args->json) std::cout << result.dump(2) << "\n";
      else std::cout << bench::FormatBenchReport(result);
      return 0;
    };
  });
}

}  // namespace impactlab::cli
