// The two fuzz entry points (validation/fuzz/fuzz_entry_points.h) on hand-picked nasty inputs, so that every
// build - not only the libFuzzer one - checks the contract: a clear error or success, never a crash, a hang or
// a message-less error. Fuzzer findings become regression cases here (docs/reliability.md "Fuzzing").
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/cli_app.h"
#include "core/errors.h"
#include "fuzz/fuzz_entry_points.h"
#include "scenario/scenario.h"

using impactlab::fuzz::FuzzCliArguments;
using impactlab::fuzz::FuzzScenarioText;
using impactlab::fuzz::ScenarioOutcome;

namespace {

const std::string kScenarioDir = std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/";

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// hertz_impact.toml with the line starting `key =` replaced by `key = value`.
std::string HertzWith(const std::string& key, const std::string& value) {
  std::istringstream in(ReadText(kScenarioDir + "hertz_impact.toml"));
  std::string out;
  for (std::string line; std::getline(in, line);)
    out += (line.rfind(key + " =", 0) == 0 ? key + " = " + value : line) + "\n";
  return out;
}

/// Rejected with a message containing `needle`.
void CheckRejected(const std::string& text, const std::string& needle) {
  CAPTURE(text.substr(0, 200));
  CAPTURE(needle);
  std::string error;
  const ScenarioOutcome outcome = FuzzScenarioText(text, &error);
  CAPTURE(error);
  CHECK(outcome == ScenarioOutcome::kRejected);
  CHECK(error.find(needle) != std::string::npos);
}

}  // namespace

TEST_CASE("fuzz entry: every shipped scenario prepares (the seed corpus is valid input)") {
  for (const auto& entry : std::filesystem::directory_iterator(kScenarioDir)) {
    if (entry.path().extension() != ".toml") continue;
    CAPTURE(entry.path().string());
    std::string error;
    CHECK(FuzzScenarioText(ReadText(entry.path().string()), &error) == ScenarioOutcome::kPrepared);
    CAPTURE(error);
    // ParseScenario(text) and LoadScenario(path) agree.
    const auto a = impactlab::LoadScenario(entry.path().string());
    const auto b = impactlab::ParseScenario(ReadText(entry.path().string()), entry.path().string());
    CHECK(a.model == b.model);
    CHECK(a.integrators == b.integrators);
    CHECK(a.parameters.values() == b.parameters.values());
  }
}

TEST_CASE("fuzz entry: every saved fuzzer finding (fuzz/regressions/) now gives a clear outcome") {
  const std::filesystem::path dir = std::filesystem::path(IMPACTLAB_SOURCE_DIR) / "fuzz" / "regressions";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "scenario")) {
    CAPTURE(entry.path().string());
    std::string error;
    CHECK_NOTHROW((void)FuzzScenarioText(ReadText(entry.path().string()), &error));
    ++files;
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir / "cli")) {
    CAPTURE(entry.path().string());
    CHECK_NOTHROW((void)FuzzCliArguments(ReadText(entry.path().string())));
    ++files;
  }
  CHECK(files >= 2);
}

TEST_CASE("fuzz entry: nasty scenario text gives a clear error") {
  CheckRejected("", "");                                   // empty: the model's required keys are missing
  CheckRejected(std::string("\0\0\0", 3), "scenario");     // NUL bytes: not TOML
  CheckRejected(std::string("dt = 1\0", 7), "scenario");
  CheckRejected("\xff\xfe garbage = [", "scenario");
  CheckRejected("a = " + std::string(100000, '['), "nested");   // would overflow toml11's recursion
  CheckRejected("a = " + std::string(100000, '{'), "nested");
  CheckRejected(HertzWith("dt", "-2e-7"), "dt");
  CheckRejected(HertzWith("dt", "0.0"), "dt");
  CheckRejected(HertzWith("dt", "nan"), "dt");
  CheckRejected(HertzWith("t_end", "inf"), "t_end");
  CheckRejected(HertzWith("t_end", "-inf"), "t_end");
  CheckRejected(HertzWith("m", "1e999"), "m");             // toml11 alone would store DBL_MAX silently
  CheckRejected(HertzWith("v0", "[1.0, -1e999]"), "v0");
  CheckRejected(HertzWith("m", "-0.0"), "m");
  CheckRejected(HertzWith("E_star", "nan"), "E_star");
  CheckRejected(HertzWith("v0", "[1, 2]"), "v0");
  CheckRejected(HertzWith("normal_law", "\"\""), "normal_law");
  CheckRejected(HertzWith("model", "\"no_such_model\""), "model");
  CheckRejected(HertzWith("model", "3"), "model");
  CheckRejected(HertzWith("integrators", "[\"rk4\", 7]"), "integrators");
  CheckRejected(HertzWith("integrators", "[\"no_such_integrator\"]"), "integrator");
  CheckRejected(HertzWith("cvode_rtol", "-1"), "cvode_rtol");
  CheckRejected(HertzWith("t_end", "1e300") + "output_every = 1e300\n", "output_every");
  CheckRejected(HertzWith("dt", "1e-300") + "unknown_key = 1\n", "unknown_key");
  // Fuzzer finding (scenario_parser_fuzzer, 180 s run): invalid UTF-8 inside a TOML literal string made
  // toml11 3.7 read out of bounds (ASan heap-buffer-overflow in parse_literal_string). Minimised inputs:
  CheckRejected("a = 'x\xffy'\n", "UTF-8");
  CheckRejected("'x\xffy' = 1\n", "UTF-8");
  CheckRejected("a = \"x\xffy\"\n", "UTF-8");
  CheckRejected("a = '\xc0\xaf'\n", "UTF-8");          // overlong '/'
  CheckRejected("a = '\xed\xa0\x80'\n", "UTF-8");      // surrogate U+D800
  CheckRejected("a = '\xf4\x90\x80\x80'\n", "UTF-8");  // beyond U+10FFFF
  CheckRejected("a = '\xe2\x82'", "UTF-8");            // truncated sequence at the end
  CheckRejected("[table]\nx = 1\n", "table");
  CheckRejected("d = 1979-05-27T07:32:00Z\n", "d");
}

TEST_CASE("scenario files: missing, a directory or a device is a clear error, never an endless read") {
  for (const std::string path : {"/nonexistent/file.toml", "/dev/zero", "/dev/null", "/tmp"}) {
    CAPTURE(path);
    try {
      (void)impactlab::LoadScenario(path);
      FAIL("LoadScenario accepted ", path);
    } catch (const impactlab::InvalidParameter& e) {
      CHECK(std::string(e.what()).find("readable TOML file") != std::string::npos);
    }
  }
}

TEST_CASE("scenario text: valid UTF-8 (2-, 3- and 4-byte sequences) in strings and comments is accepted") {
  impactlab::Scenario sc;
  CHECK_NOTHROW(sc = impactlab::ParseScenario("# \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\nnote = '\xce\xb4_max'\n", "utf8"));
  CHECK(sc.parameters.GetString("note") == "\xce\xb4_max");
}

TEST_CASE("fuzz entry: the nesting guard does not count brackets inside strings or comments") {
  const std::string deep_in_string = "s = \"" + std::string(1000, '[') + "\"\n";
  const std::string deep_in_comment = "# " + std::string(1000, '{') + "\n";
  for (const std::string& extra : {deep_in_string, deep_in_comment}) {
    std::string error;
    (void)FuzzScenarioText(extra, &error);
    CAPTURE(error);
    CHECK(error.find("nested") == std::string::npos);
  }
}

TEST_CASE("fuzz entry: nasty command lines give a clear exit code in check-only mode") {
  const std::string hertz = kScenarioDir + "hertz_impact.toml";
  struct Case {
    std::string line;
    int code;
  };
  const Case cases[] = {
      {"run " + hertz, 0},  // valid: check-only returns before the simulation
      {"run " + hertz + " --integrator rk4 --dt 1e-7 --set e=0.5", 0},
      {"exact --p 1.5 --e 0.5", 0},
      {"dtcrit --p 1.5", 0},
      {"list", 0},
      {"", 2},
      {"run", 2},
      {"no_such_command", 2},
      {"run " + hertz + " --dt", 2},
      {"run " + hertz + " --dt abc", 2},
      {std::string("run\0 x", 6), 2},  // the NUL ends the word "run"; "x" is a missing scenario
      {"run /nonexistent/file.toml", 2},
      {"run /dev/zero", 2},  // not a regular file: reading it would never end
      {"run " + kScenarioDir, 2},
      {"run " + hertz + " --dt -1", 2},
      {"run " + hertz + " --dt nan", 2},
      {"run " + hertz + " --dt inf", 2},
      {"run " + hertz + " --set dt=-1e-7", 2},
      {"run " + hertz + " --set =3", 2},
      {"run " + hertz + " --set m=1e999", 2},
      {"run " + hertz + " --integrator nope", 2},
      {"exact --p nan --e 0.5", 2},
      {"exact --p 1.5 --e 2", 2},
      {"exact --p 1.5", 2},
      {"dtcrit --p 1.5 --m -1", 2},
      {"dtcrit --p inf", 2},
      {"converge " + hertz + " --integrator rk4 --dt-min 1e-3 --dt-max 1e-4", 2},
      {"converge " + hertz + " --integrator rk4 --dt-min 1e-4 --dt-max 1e-3 --levels 1", 2},
      {"calibrate /nonexistent.toml", 2},
      {"calibrate /dev/zero", 2},
      {"calibrate " + std::string(IMPACTLAB_SOURCE_DIR) + "/validation/calibration/examples/ellipsoid_e_cn.toml --data /dev/zero", 2},
  };
  for (const auto& c : cases) {
    CAPTURE(c.line);
    CHECK(FuzzCliArguments(c.line) == c.code);  // a malformed command line is bad input too (exit 2)
  }
}

TEST_CASE("RunCli check-only mode stops before the computation") {
  // `validate` in check-only mode must not run the suite (it would take minutes and write a report).
  const char* argv[] = {"impactlab", "validate", "--out", "/nonexistent-dir/should-not-be-created"};
  std::ostringstream out, err;
  CHECK(impactlab::cli::RunCli(4, argv, impactlab::cli::CliMode::kCheckOnly, out, err) == 0);
  CHECK(!std::filesystem::exists("/nonexistent-dir"));
}
