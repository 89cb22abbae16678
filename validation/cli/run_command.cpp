// `impactlab run SCENARIO.toml [--set key=value]... [--integrator NAME]... [--dt DT] [--out DIR] [--json]
//  [--strict]`. Guard warnings (dt above the stability estimate, unphysical overlap) go to stderr as
// "impactlab: warning: ..." lines; --strict turns them into errors (docs/reliability.md).
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
    bool json = false, strict = false;
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
