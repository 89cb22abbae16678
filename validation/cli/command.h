// CLI commands: each command lives in its own file and adds a CLI11 sub-command whose callback stores the
// action to run in `action` (returning the process exit code). main.cpp lists the Add*Command calls.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace impactlab::cli {

using Action = std::function<int()>;

void AddListCommand(CLI::App& app, Action& action);
void AddRunCommand(CLI::App& app, Action& action);
void AddValidateCommand(CLI::App& app, Action& action);
void AddCalibrateCommand(CLI::App& app, Action& action);
void AddExactCommand(CLI::App& app, Action& action);     // exact_command.cpp
void AddDtcritCommand(CLI::App& app, Action& action);    // dtcrit_command.cpp
void AddConvergeCommand(CLI::App& app, Action& action);  // converge_command.cpp
void AddBenchCommand(CLI::App& app, Action& action);     // bench_command.cpp
void AddSweepCommand(CLI::App& app, Action& action);     // sweep_command.cpp

}  // namespace impactlab::cli
