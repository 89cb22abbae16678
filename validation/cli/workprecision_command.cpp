// `impactlab workprecision SCENARIO.toml --integrator A ... [--repeats N] [ladder options,
// cli/ladder_arguments.h]`: work–precision diagram (error against the reference vs wall time, as
// DiffEqDevTools' WorkPrecisionSet): fixed-step schemes on a dt ladder, adaptive ones on a tolerance ladder,
// each point the median wall time of N runs (default 3) with its min–max spread; DIR/workprecision.{json,csv}
// and workprecision_<metric>.png (every integrator its own colour and marker, points at the round-off floor
// hollow, reference slopes) (docs/workprecision.md).
#include "cli/command.h"
#include "cli/ladder_arguments.h"

namespace impactlab::cli {

void AddWorkprecisionCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("workprecision", "work-precision diagram on any scenario (docs/workprecision.md)");
  auto args = std::make_shared<LadderArguments>();
  args->repeats = 3;
  AddLadderOptions(*sub, *args);
  sub->add_option("--repeats", args->repeats, "runs per point; wall time = median (default 3)");
  sub->callback([&action, args] { action = [args] { return RunLadderCommand(*args, "workprecision"); }; });
}

}  // namespace impactlab::cli
