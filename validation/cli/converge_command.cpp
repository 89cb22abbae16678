// `impactlab converge SCENARIO.toml --integrator A ... [ladder options, cli/ladder_arguments.h]`: observed
// orders of convergence of any integrator on any scenario (convergence/error_ladder.h): fixed-step schemes
// on a dt ladder, adaptive ones on a tolerance ladder (a slope, never a dt "order"), against the exact
// solution where the model has one, else a named Richardson-checked reference; fitted order ± standard
// error with its 95 % interval; points above the stability estimate or at the round-off / reference floor
// marked and left out of the fit; DIR/convergence.{json,csv} and convergence_<metric>.png with reference
// slopes (docs/convergence.md).
#include "cli/command.h"
#include "cli/ladder_arguments.h"

namespace impactlab::cli {

void AddConvergeCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("converge", "observed orders of convergence on any scenario (docs/convergence.md)");
  auto args = std::make_shared<LadderArguments>();
  AddLadderOptions(*sub, *args);
  sub->callback([&action, args] { action = [args] { return RunLadderCommand(*args, "convergence"); }; });
}

}  // namespace impactlab::cli
