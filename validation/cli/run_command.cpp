// `impactlab run SCENARIO.toml [--set key=value]... [--integrator NAME]... [--dt DT] [--out DIR] [--json]
//  [--strict] [--allow-unstable] [--quiet | --progress]`. Guard warnings (dt above the stability estimate,
// unphysical overlap, under-resolved contact) go to stderr as "impactlab: warning: ..." lines; --strict turns
// them into errors. A run flagged unstable exits 3 unless --allow-unstable; a run that stops early writes
// its results up to that time and exits 3 saying where and why. Progress lines for runs over 1 s go to stderr
// when it is a terminal (--quiet: never; --progress: also when it is not) (docs/reliability.md).
#include <unistd.h>

#include <cmath>
#include <iostream>

#include "cli/command.h"
#include "core/errors.h"
#include "run/scenario_runner.h"

namespace impactlab::cli {

void AddRunCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("run", "run a scenario with one or more integrators");
  struct Args {
    std::string scenario, out;
    std::vector<std::string> sets, integrators;
    double dt = 0.0;
    bool json = false, strict = false, allow_unstable = false, quiet = false, progress = false;
  };
  auto args = std::make_shared<Args>();
  sub->add_option("scenario", args->scenario, "scenario TOML file")->required();
  sub->add_option("--set", args->sets, "override a scenario key: key=value (repeatable)");
  sub->add_option("--integrator", args->integrators, "integrator name (repeatable; see `impactlab list`)");
  auto* dt_option = sub->add_option("--dt", args->dt, "time step [s] (overrides the scenario's dt)");
  sub->add_option("--out", args->out, "output directory for CSV time series and summary.json");
  sub->add_flag("--json", args->json, "print the summary JSON on stdout");
  sub->add_flag("--strict", args->strict,
                "treat guard warnings as errors: dt above an explicit scheme's estimated stability limit (exit 2), "
                "unphysical overlap (exit 3)");
  sub->add_flag("--allow-unstable", args->allow_unstable,
                "exit 0 even when a run is flagged unstable (energy or restitution grown without a source)");
  auto* quiet = sub->add_flag("--quiet", args->quiet, "no progress lines on stderr");
  sub->add_flag("--progress", args->progress, "progress lines on stderr even when it is not a terminal")
      ->excludes(quiet);
  sub->callback([&action, args, dt_option] {
    const bool dt_given = dt_option->count() > 0;
    action = [args, dt_given] {
      RunRequest req;
      req.scenario = LoadScenario(args->scenario);
      for (const auto& s : args->sets) ApplyOverride(req.scenario, s);
      req.integrators = args->integrators;
      if (dt_given) {
        if (!(std::isfinite(args->dt) && args->dt > 0.0))
          throw InvalidParameter("--dt", args->dt, "> 0 and finite [s]");
        req.dt = args->dt;
      }
      req.out_dir = args->out;
      req.strict = args->strict;
      req.warn = [](const std::string& w) { std::cerr << "impactlab: warning: " << w << "\n"; };
      req.fail_if_unstable = !args->allow_unstable;
      const bool terminal = isatty(STDERR_FILENO) != 0;
      if (args->progress || (terminal && !args->quiet)) {
        req.progress = [terminal](const std::string& line, bool final) {
          if (terminal) std::cerr << "\r" << line << "\x1b[K" << (final ? "\n" : "") << std::flush;
          else std::cerr << line << std::endl;
        };
      }
      if (CheckOnly()) {
        (void)PrepareScenarioRun(req);
        return 0;
      }
      const nlohmann::json summary = RunScenario(req);
      if (args->json) {
        std::cout << summary.dump(2) << "\n";
      } else {
        std::cout << FormatSummaryTable(summary);
        if (!args->out.empty()) std::cout << "wrote " << args->out << "/summary.json and one CSV per integrator\n";
      }
      return 0;
    };
  });
}

}  // namespace impactlab::cli
