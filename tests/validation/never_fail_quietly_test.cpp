// Runs that never fail quietly (issue 17, item 4; docs/reliability.md): each behaviour on the real binary,
// asserting the message and the exit code — progress of long runs, partial results on a stop, the
// resolution warning, the "unstable" flag, one error for an unwritable --out in every command, no empty
// folder after a failure, CLI parse errors, printed digits, one critical-step estimate.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_impactlab.h"

namespace {

namespace fs = std::filesystem;
using Output = impactlab::test::CliOutput;
Output Run(const std::string& args) { return impactlab::test::RunImpactlab(args); }

const std::string kScenarios = std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/";
const std::string kHertz = "run " + kScenarios + "hertz_impact.toml --integrator velocity_verlet";
const std::string kCone = "run " + kScenarios + "cone_p2.toml --integrator velocity_verlet";

fs::path Scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("impactlab_quiet_test_" + std::to_string(getpid())) / name;
  fs::remove_all(d);
  return d;
}
struct Cleanup {
  ~Cleanup() {
    std::error_code ec;
    fs::remove_all(fs::temp_directory_path() / ("impactlab_quiet_test_" + std::to_string(getpid())), ec);
  }
} cleanup;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  return lines;
}

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = 0; (pos = text.find(what, pos)) != std::string::npos; ++pos) ++n;
  return n;
}

/// The first number after `prefix` in `text`.
double NumberAfter(const std::string& text, const std::string& prefix) {
  const auto pos = text.find(prefix);
  REQUIRE_MESSAGE(pos != std::string::npos, prefix);
  return std::stod(text.substr(pos + prefix.size()));
}

}  // namespace

TEST_CASE("never quiet: progress lines on stderr for a run over 1 s, none with --quiet or off a terminal") {
  // Velocity Verlet on the Hertz impact at dt = 4e-12 s. The run must last well over the meter's 1 s delay on
  // whatever build runs the test (Release ≈ 1e7 steps/s; the sanitized build of scripts/sanitize.sh is far slower),
  // so a probe of 2.5e6 steps, start-up included, sets t_end for ≈ 3 s, never below the probe's own length.
  const std::string base = kHertz + " --dt 4e-12 --set t_end=";
  const auto probe_start = std::chrono::steady_clock::now();
  REQUIRE(Run(base + "1e-5 --quiet").status == 0);
  const double probe_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - probe_start).count();
  const double t_end = std::max(1e-5, 1e-5 * 3.0 / probe_s);
  CAPTURE(probe_s);
  CAPTURE(t_end);
  char t_end_text[32];
  std::snprintf(t_end_text, sizeof t_end_text, "%.6g", t_end);  // as the meter prints it
  const std::string args = base + t_end_text;
  const Output shown = Run(args + " --progress");
  CAPTURE(shown.out);
  CHECK(shown.status == 0);
  CHECK(shown.out.find("impactlab: progress 'velocity_verlet': t = ") != std::string::npos);
  CHECK(shown.out.find(std::string(" of ") + t_end_text + " s (") != std::string::npos);
  CHECK(shown.out.find(" steps/s, ETA ") != std::string::npos);
  CHECK(shown.out.find(" steps/s, finished in ") != std::string::npos);
  const auto quiet_start = std::chrono::steady_clock::now();
  const Output quiet = Run(args + " --quiet");  // stderr is a pipe here: quiet anyway, and with --quiet
  const double quiet_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - quiet_start).count();
  CHECK(quiet.status == 0);
  CHECK(quiet_s > 1.0);  // long enough that the meter would have spoken
  CHECK(quiet.out.find("progress") == std::string::npos);
  CHECK(Run(args + " --quiet --progress").status == 2);  // contradictory flags: bad input
}

TEST_CASE("never quiet: max_steps stops the run, results up to that time written, summary says where and why") {
  const fs::path dir = Scratch("max_steps");
  const Output o = Run(kCone + " --set max_steps=1234 --out " + dir.string());
  CAPTURE(o.out);
  CHECK(o.status == 3);
  CHECK(Count(o.out, "impactlab: numerical failure: ") == 1);
  CHECK(o.out.find("'velocity_verlet' stopped: max_steps = 1234 reached at t = 1.234 s of t_end = 5 s; ") !=
        std::string::npos);
  CHECK(o.out.find("results up to that time written to " + (dir / "velocity_verlet.csv").string()) != std::string::npos);
  // The time series holds every step up to the stop (dt = 1e-3 s, one row per step), the last at t = 1.234 s.
  const auto rows = Lines(ReadFile(dir / "velocity_verlet.csv"));
  REQUIRE(rows.size() == 1 + 1 + 1234);  // header, t = 0, 1234 steps
  CHECK(std::stod(rows[1]) == 0.0);
  CHECK(std::stod(rows.back()) == doctest::Approx(1.234).epsilon(1e-12));
  for (size_t i = 2; i < rows.size(); ++i) CHECK(std::stod(rows[i]) > std::stod(rows[i - 1]));
  const auto summary = nlohmann::json::parse(ReadFile(dir / "summary.json"));
  const auto& run = summary["runs"][0];
  CHECK(run["status"] == "stopped");
  CHECK(run["stopped_at"].get<double>() == doctest::Approx(1.234).epsilon(1e-12));
  CHECK(run["stop_reason"].get<std::string>().find("max_steps = 1234 reached") != std::string::npos);
  CHECK(run["steps"].get<long>() == 1234);
}

TEST_CASE("never quiet: a step failure mid-run keeps the rows up to the failure time") {
  // Newton limited to one iteration on the Hertz impact from a gap of 1e-5 m at 1 m/s, dt = 2e-6 s: the five
  // free-flight steps (linear) converge, step 6, the first in contact (t = 1e-5 s), does not; with no
  // halvings the run stops there.
  const fs::path dir = Scratch("newton");
  const Output o = Run("run " + kScenarios + "hertz_impact.toml --integrator implicit_midpoint --dt 2e-6 "
                       "--set initial_gap=1e-5 --set newton_max_iterations=1 --set max_step_halvings=0 --out " +
                       dir.string());
  CAPTURE(o.out);
  CHECK(o.status == 3);
  CHECK(Count(o.out, "impactlab: numerical failure: ") == 1);
  CHECK(o.out.find("'implicit_midpoint' stopped: integrator 'implicit_midpoint' cannot complete step ") !=
        std::string::npos);
  CHECK(o.out.find("Newton did not converge") != std::string::npos);
  CHECK(o.out.find("results up to that time written to " + (dir / "implicit_midpoint.csv").string()) !=
        std::string::npos);
  CHECK(o.out.find("cannot complete step 6 at t = 1e-05 (dt = 2e-06") != std::string::npos);
  const double t_stop = NumberAfter(o.out, " at t = ");  // "cannot complete step 6 at t = ..."
  CHECK(t_stop == doctest::Approx(1e-5).epsilon(1e-9));
  // header + t = 0 and the five accepted steps, the last at the failure time, none after it
  const auto rows = Lines(ReadFile(dir / "implicit_midpoint.csv"));
  REQUIRE(rows.size() == 1 + 6);
  for (size_t i = 1; i < rows.size(); ++i)
    CHECK(std::stod(rows[i]) == doctest::Approx(2e-6 * static_cast<double>(i - 1)).epsilon(1e-9));
  CHECK(std::stod(rows.back()) == doctest::Approx(t_stop).epsilon(1e-9));
  const auto summary = nlohmann::json::parse(ReadFile(dir / "summary.json"));
  CHECK(summary["runs"][0]["status"] == "stopped");
  CHECK(summary["runs"][0]["stopped_at"].get<double>() == doctest::Approx(t_stop).epsilon(1e-9));
}

TEST_CASE("never quiet: a contact resolved with fewer than 20 steps is warned about") {
  // Hertz impact, e = 0.8: t_c = 6.5e-5 s; dt = 6e-6 s gives 10.8 steps per contact (e = 0.816).
  const Output o = Run(kHertz + " --set e=0.8 --dt 6e-6");
  CAPTURE(o.out);
  CHECK(o.status == 0);
  CHECK(o.out.find("impactlab: warning: under-resolved contact with 'velocity_verlet': the shortest contact (") !=
        std::string::npos);
  CHECK(o.out.find("steps of dt = 6e-06 s, fewer than 20") != std::string::npos);
  const Output fine = Run(kHertz + " --set e=0.8");  // the scenario's own dt: 300+ steps per contact
  CHECK(fine.status == 0);
  CHECK(fine.out.find("under-resolved") == std::string::npos);
}

TEST_CASE("never quiet: energy gained without a source is flagged unstable, exit 3 unless --allow-unstable") {
  // velocity Verlet above its stability limit (3.17e-5 s) on the undamped Hertz impact: e = 2.41.
  const Output o = Run(kHertz + " --dt 3.5e-5");
  CAPTURE(o.out);
  CHECK(o.status == 3);
  CHECK(Count(o.out, "impactlab: numerical failure: ") == 1);
  CHECK(o.out.find("unstable run 'velocity_verlet' (dt = 3.5e-05 s): the energy grew by ") != std::string::npos);
  CHECK(o.out.find("the restitution is 2.4132") != std::string::npos);
  CHECK(o.out.find("> 1 without a source (estimated stability limit 3.172630181e-05 s)") != std::string::npos);
  CHECK(o.out.find("use --allow-unstable to accept it") != std::string::npos);
  const Output allowed = Run(kHertz + " --dt 3.5e-5 --allow-unstable --json");
  CHECK(allowed.status == 0);
  const auto json = nlohmann::json::parse(allowed.out.substr(allowed.out.find('{')));
  CHECK(json["runs"][0]["unstable"] == true);
  CHECK(json["runs"][0]["status"] == "unstable");
  CHECK(json["runs"][0]["restitution"].get<double>() > 1.01);
  const Output table = Run(kHertz + " --dt 3.5e-5 --allow-unstable");
  CHECK(table.status == 0);
  CHECK(table.out.find("| unstable") != std::string::npos);
  // a resolved run is not flagged
  const Output ok = Run(kHertz + " --json");
  CHECK(ok.status == 0);
  CHECK(nlohmann::json::parse(ok.out)["runs"][0]["unstable"] == false);
}

TEST_CASE("never quiet: an unwritable --out is the same one-line error with exit 2 in every command") {
  const std::string hertz = kScenarios + "hertz_impact.toml";
  const std::vector<std::string> commands = {
      kHertz + " --out /proc/impactlab_no",
      "converge " + hertz + " --integrator velocity_verlet --levels 3 --out /proc/impactlab_no",
      "workprecision " + hertz + " --integrator velocity_verlet --levels 3 --out /proc/impactlab_no",
      "sweep " + hertz + " --vary e=0.5 --out /proc/impactlab_no",
      "validate --quick --only seed000_table3 --out /proc/impactlab_no",
  };
  for (const auto& c : commands) {
    CAPTURE(c);
    const Output o = Run(c);
    CAPTURE(o.out);
    CHECK(o.status == 2);
    CHECK(o.out.find("impactlab: error: invalid --out = \"/proc/impactlab_no\" (valid: a directory that exists or "
                     "can be created") != std::string::npos);
    CHECK(Lines(o.out).size() == 1);
    CHECK(o.out.find("filesystem error") == std::string::npos);
  }
  const Output b = Run("bench --quick --only exact --out /proc/impactlab_no/bench.json");  // a file: its folder
  CAPTURE(b.out);
  CHECK(b.status == 2);
  CHECK(b.out.find("impactlab: error: invalid --out = \"/proc/impactlab_no\" (valid: a directory that exists or "
                   "can be created") != std::string::npos);
  CHECK(Lines(b.out).size() == 1);
  const Output e = Run("exact --p 1.5 --e 0.5 --trajectory /proc/impactlab_no/t.csv");
  CAPTURE(e.out);
  CHECK(e.status == 2);
  CHECK(e.out.find("impactlab: error: invalid output file = \"/proc/impactlab_no/t.csv\"") != std::string::npos);
}

TEST_CASE("never quiet: a failed command leaves no empty output folder behind") {
  const fs::path root = Scratch("failed_sweep");
  fs::create_directories(root);
  const fs::path dir = root / "nested" / "out";
  // t_end = -1 is only rejected when a case is prepared, after the output folder was created.
  const Output o = Run("sweep " + kScenarios + "hertz_impact.toml --vary t_end=-1 --out " + dir.string());
  CAPTURE(o.out);
  CHECK(o.status == 2);
  CHECK(o.out.find("invalid t_end = -1") != std::string::npos);
  CHECK(!fs::exists(dir));
  CHECK(!fs::exists(dir.parent_path()));  // created for this command, empty: removed too
  CHECK(fs::is_directory(root));  // never what existed before
  // a folder that existed before is kept, even empty
  const fs::path existing = Scratch("existing");
  fs::create_directories(existing);
  CHECK(Run("sweep " + kScenarios + "hertz_impact.toml --vary t_end=-1 --out " + existing.string()).status == 2);
  CHECK(fs::is_directory(existing));
}

TEST_CASE("never quiet: CLI parse errors exit 2 with one line and a did-you-mean for sub-commands") {
  const Output typo = Run("runn " + kScenarios + "hertz_impact.toml");
  CAPTURE(typo.out);
  CHECK(typo.status == 2);
  CHECK(Lines(typo.out).size() == 1);
  CHECK(typo.out.find("impactlab: error: invalid command = \"runn\" (valid: ") != std::string::npos);
  CHECK(typo.out.find("did you mean 'run'?") != std::string::npos);
  const Output flag = Run(kHertz + " --dtt 1");
  CAPTURE(flag.out);
  CHECK(flag.status == 2);
  CHECK(Lines(flag.out).size() == 1);
  CHECK(flag.out.find("impactlab: error: ") == 0);
  CHECK(flag.out.find("--dtt") != std::string::npos);
  CHECK(flag.out.find("(see 'impactlab run --help')") != std::string::npos);
  const Output type = Run(kHertz + " --dt fast");
  CHECK(type.status == 2);
  CHECK(Lines(type.out).size() == 1);
  const Output none = Run("");
  CHECK(none.status == 2);
  CHECK(Run("--help").status == 0);
  CHECK(Run("run --help").status == 0);
}

TEST_CASE("never quiet: exact prints every time with enough significant digits") {
  const Output o = Run("exact --p 1.5 --e 0.5 --m 1e-3 --k 1e9 --v0 0.5");
  const Output j = Run("exact --p 1.5 --e 0.5 --m 1e-3 --k 1e9 --v0 0.5 --json");
  CAPTURE(o.out);
  REQUIRE(o.status == 0);
  const auto json = nlohmann::json::parse(j.out);
  const double t_c = json["t_contact"].get<double>();
  CHECK(t_c < 1e-3);  // small: a fixed-point format would show few digits
  const double printed = NumberAfter(o.out, "t_contact [s]            = ");
  CHECK(printed == doctest::Approx(t_c).epsilon(1e-10));
  CHECK(NumberAfter(o.out, "t_max [s]                = ") == doctest::Approx(json["t_max"].get<double>()).epsilon(1e-10));
}

TEST_CASE("never quiet: one critical-step estimate per model, the same in dtcrit and in the run warning") {
  for (const std::string scenario : {"hertz_impact", "cone_p2", "sphere_wall_thornton", "ellipse_box", "ellipsoid_wall"}) {
    CAPTURE(scenario);
    const Output d = Run("dtcrit " + kScenarios + scenario + ".toml --json");
    CAPTURE(d.out);
    REQUIRE(d.status == 0);
    const double crit = nlohmann::json::parse(d.out)["dt_crit"].get<double>();
    // a dt 10 % above it: the run guard names exactly this number (10 significant digits in both)
    std::ostringstream dt;
    dt.precision(10);
    dt << crit * 1.1;
    const Output w = Run("run " + kScenarios + scenario + ".toml --integrator velocity_verlet --dt " + dt.str() +
                         " --set t_end=" + dt.str() + " --strict");
    CAPTURE(w.out);
    CHECK(w.status == 2);
    CHECK(NumberAfter(w.out, "valid: <= the estimated stability limit ") == doctest::Approx(crit).epsilon(1e-9));
    const Output text = Run("dtcrit " + kScenarios + scenario + ".toml");
    CHECK(NumberAfter(text.out, "dt_crit [s] = ") == doctest::Approx(crit).epsilon(1e-9));
  }
  // the power-law form gives the model's estimate on its first line (cone_p2: p = 2, m = k = v0 = 1, e = 0.5)
  const Output cone = Run("dtcrit " + kScenarios + "cone_p2.toml --json");
  const double crit = nlohmann::json::parse(cone.out)["dt_crit"].get<double>();
  const Output p = Run("dtcrit --p 2 --e 0.5 --json");
  CHECK(nlohmann::json::parse(p.out)["dt_crit"].get<double>() == doctest::Approx(crit).epsilon(1e-12));
}
