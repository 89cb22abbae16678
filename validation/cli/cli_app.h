// The impactlab command line as a function: builds the CLI11 app with every command (cli/command.h), parses
// argv and maps errors to exit codes. main.cpp is `return RunCli(argc, argv);`; the CLI fuzz target and the
// tests call it in check-only mode.
//
// Exit codes: 0 ok; 2 bad input (InvalidParameter, one line naming the parameter, value and valid range);
// 3 numerical failure (StepFailure or an unstable run); 1 any other std::exception; a malformed command line
// or an unknown sub-command is bad input too (exit 2, one line, "did you mean" for sub-commands); --help
// gives 0. Other exception types propagate. On a non-zero exit, output folders the command created and left
// empty are removed.
#pragma once

#include <iosfwd>

namespace impactlab::cli {

enum class CliMode {
  kRun,        ///< the real thing
  kCheckOnly,  ///< parse and validate arguments and input files, then stop: no simulation, fit or file output
};

int RunCli(int argc, const char* const* argv, CliMode mode = CliMode::kRun);
/// As above, CLI11 messages (usage, --help) and error lines written to `out` / `err`.
int RunCli(int argc, const char* const* argv, CliMode mode, std::ostream& out, std::ostream& err);

}  // namespace impactlab::cli
