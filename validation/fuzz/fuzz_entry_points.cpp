#include "fuzz/fuzz_entry_points.h"

#include <exception>
#include <new>
#include <sstream>
#include <typeinfo>
#include <vector>

#include "cli/cli_app.h"
#include "run/scenario_runner.h"
#include "scenario/scenario.h"

namespace impactlab::fuzz {

namespace {

/// An exception is a clear report when it has a message and is not resource exhaustion (bad_alloc or
/// length_error mean a size came from the input without a range check).
void RequireClearError(const std::exception& e, const char* where) {
  const std::string what = e.what();
  if (what.empty()) throw FuzzFinding(std::string(where) + ": exception with an empty message");
  if (dynamic_cast<const std::bad_alloc*>(&e) || dynamic_cast<const std::length_error*>(&e))
    throw FuzzFinding(std::string(where) + ": unchecked size from the input (" + what + ")");
}

}  // namespace

ScenarioOutcome FuzzScenarioText(std::string_view bytes, std::string* error) {
  try {
    RunRequest request;
    request.scenario = ParseScenario(bytes, "<fuzz input>");
    (void)PrepareScenarioRun(request);
    return ScenarioOutcome::kPrepared;
  } catch (const FuzzFinding&) {
    throw;
  } catch (const std::exception& e) {
    RequireClearError(e, "scenario");
    if (error) *error = e.what();
    return ScenarioOutcome::kRejected;
  }
}

int FuzzCliArguments(std::string_view bytes) {
  std::vector<std::string> words{"impactlab"};
  bool in_word = false;
  for (const char c : bytes) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
    if (space) {
      in_word = false;
    } else {
      if (!in_word) words.emplace_back();
      in_word = true;
      words.back().push_back(c);
    }
  }
  std::vector<const char*> argv;
  for (const auto& w : words) argv.push_back(w.c_str());  // a NUL byte ends the word, as in a real argv
  argv.push_back(nullptr);
  std::ostringstream out, err;
  int code = 0;
  try {
    code = cli::RunCli(static_cast<int>(words.size()), argv.data(), cli::CliMode::kCheckOnly, out, err);
  } catch (const std::exception& e) {
    throw FuzzFinding(std::string("an exception escaped RunCli (std::terminate in main): ") + e.what());
  }
  std::istringstream lines(err.str());
  for (std::string line; std::getline(lines, line);)
    if (line == "impactlab: error: " || line == "impactlab: numerical failure: ")
      throw FuzzFinding("error line without a message");
  return code;
}

}  // namespace impactlab::fuzz
