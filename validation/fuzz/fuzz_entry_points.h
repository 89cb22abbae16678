// Fuzz entry points: the ordinary functions the libFuzzer targets in fuzz/ call on every input, kept in the
// library so that the doctest suite runs them on hand-picked nasty inputs in every build (docs/reliability.md).
//
// Contract: for ANY byte string the function returns normally. An impactlab error (core/errors.h) or another
// std::exception with a non-empty message is an expected outcome (bad input, reported clearly). A crash, a
// sanitizer report, an exception not derived from std::exception or an error with an empty message is a
// finding: the libFuzzer target aborts on it (FuzzFinding) so libFuzzer saves the input.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace impactlab::fuzz {

/// Thrown by an entry point when the input exposed a contract violation (empty error message, ...).
struct FuzzFinding : std::logic_error {
  using std::logic_error::logic_error;
};

enum class ScenarioOutcome { kPrepared, kRejected };

/// Parses `bytes` as scenario TOML (ParseScenario) and, when that succeeds, builds the model and every
/// integrator and checks for unknown keys exactly as `impactlab run` does before its first step
/// (PrepareScenarioRun) - without simulating. kRejected: a clear error was thrown (message in `error`).
ScenarioOutcome FuzzScenarioText(std::string_view bytes, std::string* error = nullptr);

/// Splits `bytes` into argv words at ASCII whitespace (a NUL byte ends a word, as it would in a real argv)
/// and runs the command line in check-only mode (RunCli with CliMode::kCheckOnly): arguments are parsed and
/// validated, scenario/config files are loaded and checked, but no simulation, fit or file output starts.
/// Returns the exit code (0 ok, 2 bad input, 3 numerical failure, 1 other error, CLI11's codes for
/// malformed command lines). CLI11 and error output is captured and checked, not printed.
int FuzzCliArguments(std::string_view bytes);

}  // namespace impactlab::fuzz
