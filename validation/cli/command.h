// CLI commands: each command lives in its own file and adds a CLI11 sub-command whose callback stores the
// action to run in `action` (returning the process exit code). cli/cli_app.cpp lists the Add*Command calls.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace impactlab::cli {

using Action = std::function<int()>;

/// True while RunCli runs in CliMode::kCheckOnly: an action validates its arguments and input files, then
/// returns 0 before any long computation or file output (the CLI fuzz target relies on it).
bool CheckOnly();

void AddListCommand(CLI::App& app, Action& action);
void AddRunCommand(CLI::App& app, Action& action);
void AddValidateCommand(CLI::App& app, Action& action);
void AddCalibrateCommand(CLI::App& app, Action& action);
void AddExactCommand(CLI::App& app, Action& action);     // exact_command.cpp
void AddDtcritCommand(CLI::App& app, Action& action);    // dtcrit_command.cpp
void AddConvergeCommand(CLI::App& app, Action& action);  // converge_command.cpp
void AddBenchCommand(CLI::App& app, Action& action);     // bench_command.cpp
void AddSweepCommand(CLI::App& app, Action& action);     // sweep_command.cpp
void AddWorkprecisionCommand(CLI::App& app, Action& action);  // workprecision_command.cpp

}  // namespace impactlab::cli
