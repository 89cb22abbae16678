// The options `impactlab converge` and `impactlab workprecision` share (convergence/error_ladder.h):
//   SCENARIO [--set k=v]... --integrator NAME... [--dt-min X] [--dt-max Y] [--tol-min A] [--tol-max B]
//   [--levels N] [--grid-shifts K] [--metric M]... [--reference NAME[:key=value]...] [--out DIR] [--json]
// Defaults: dt from the scenario's dt down to dt/16, tolerances 1e-4 down to 1e-10, 5 levels, log-spaced.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "convergence/error_ladder.h"
#include "scenario/scenario.h"

namespace impactlab::cli {

struct LadderArguments {
  std::string scenario, out, reference;
  std::vector<std::string> sets, integrators, metrics;
  double dt_min = 0.0, dt_max = 0.0, tol_min = 1e-10, tol_max = 1e-4;
  int levels = 5, repeats = 1, grid_shifts = 1;
  bool json = false;
};

void AddLadderOptions(CLI::App& sub, LadderArguments& args);

/// Loads the scenario (with --set) and builds the validated ladder options.
void BuildLadder(const LadderArguments& args, Scenario& scenario, LadderOptions& options);

/// Runs the ladder and writes / prints the outputs (`kind`: "convergence" or "workprecision"); exit code.
int RunLadderCommand(const LadderArguments& args, const std::string& kind);

}  // namespace impactlab::cli
