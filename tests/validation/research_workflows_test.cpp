// Research workflows (issue 17, items 1-3; docs/convergence.md, docs/workprecision.md, docs/sweeps.md), on
// the real binary: a sweep CSV that pandas and numpy load with no options (log range, wall time, reference
// errors), `converge` on any model (fitted orders with uncertainty, adaptive schemes on a tolerance ladder,
// points outside the asymptotic range left out), `workprecision` (JSON, CSV, PNG).
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "support/run_impactlab.h"

namespace {

namespace fs = std::filesystem;
using Output = impactlab::test::CliOutput;
Output Run(const std::string& args) { return impactlab::test::RunImpactlab(args); }

const std::string kScenarios = std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/";

fs::path Scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("impactlab_research_test_" + std::to_string(getpid())) / name;
  fs::remove_all(d);
  return d;
}
struct Cleanup {
  ~Cleanup() {
    std::error_code ec;
    fs::remove_all(fs::temp_directory_path() / ("impactlab_research_test_" + std::to_string(getpid())), ec);
  }
} cleanup;

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

/// Runs a Python snippet with Debian's python3 (pandas, numpy); returns its exit status, output in `out`.
int Python(const fs::path& dir, const std::string& code, std::string& out) {
  const fs::path script = dir / "check.py", log = dir / "check.log";
  std::ofstream(script) << code;
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const int rc = std::system((python + " '" + script.string() + "' > '" + log.string() + "' 2>&1").c_str());
  out = ReadFile(log);
  return rc;
}

nlohmann::json Fit(const nlohmann::json& j, const std::string& integrator, const std::string& metric) {
  for (const auto& s : j["series"])
    if (s["integrator"] == integrator) return s["fit"][metric];
  FAIL("no series " << integrator);
  return nullptr;
}

}  // namespace

TEST_CASE("sweep CSV loads with pandas.read_csv and numpy.genfromtxt - log range, wall time, reference errors") {
  const fs::path dir = Scratch("sweep");
  const Output o = Run("sweep " + kScenarios + "hertz_impact.toml --vary dt=log:1e-7:1e-6:3 --vary e=0.5,1 "
                       "--integrator velocity_verlet --integrator rk4 --reference exact --threads 2 --out " +
                       dir.string());
  CAPTURE(o.out);
  REQUIRE(o.status == 0);
  CHECK(ReadFile(dir / "sweep.csv").rfind("row,case,dt,e,integrator,status,", 0) == 0);
  const auto meta = nlohmann::json::parse(ReadFile(dir / "sweep.meta.json"));
  CHECK(meta["format"] == "impactlab sweep v2");
  CHECK(meta["reference"] == "exact");
  CHECK(meta["columns"].back()["name"] == "wall_time_s");
  CHECK(meta["columns"].back()["unit"] == "s");
  std::string out;
  const int rc = Python(dir, R"PY(
import math, sys
import numpy, pandas
path = sys.argv[1] if len(sys.argv) > 1 else ")PY" + (dir / "sweep.csv").string() + R"PY("
df = pandas.read_csv(path)
assert len(df) == 12, len(df)
for c in ["dt", "e", "integrator", "status", "restitution", "wall_time_s", "restitution_error",
          "max_overlap_error", "contact_duration_error", "unstable"]:
    assert c in df.columns, c
assert (df["status"] == "ok").all()
assert (df["wall_time_s"] > 0).all()
dts = sorted(set(df["dt"]))
expected = [1e-7, 10 ** -6.5, 1e-6]
assert all(abs(a - b) <= 1e-15 * b for a, b in zip(dts, expected)), dts
# errors against the exact solution fall with dt for each scheme and e
for (name, e), g in df.groupby(["integrator", "e"]):
    err = g.sort_values("dt")["max_overlap_error"].tolist()
    assert err[0] < err[1] < err[2], (name, e, err)
a = numpy.genfromtxt(path, names=True, delimiter=",")
assert a.shape == (12,), a.shape
assert "wall_time_s" in a.dtype.names and "restitution_error" in a.dtype.names
assert numpy.all(a["wall_time_s"] > 0)
assert numpy.allclose(a["dt"], df["dt"].to_numpy(), rtol=0, atol=0)
print("OK", len(df), "rows")
)PY", out);
  CAPTURE(out);
  CHECK(rc == 0);
  CHECK(out.find("OK 12 rows") != std::string::npos);
}

namespace {
/// stdout only (progress lines go to stderr), parsed as JSON.
nlohmann::json RunJson(const std::string& args, int& status) {
  const fs::path err = Scratch("stderr_" + std::to_string(std::hash<std::string>{}(args))) ;
  fs::create_directories(err.parent_path());
  std::string out;
  FILE* pipe = popen((std::string(IMPACTLAB_BINARY) + " " + args + " 2>'" + err.string() + "'").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int rc = pclose(pipe);
  status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
  INFO(ReadFile(err));
  REQUIRE(status == 0);
  return nlohmann::json::parse(out);
}

const nlohmann::json& Series(const nlohmann::json& j, const std::string& integrator) {
  for (const auto& s : j["series"])
    if (s["integrator"] == integrator) return s;
  FAIL("no series " << integrator);
  return j;
}
}  // namespace

TEST_CASE("converge against the exact solution: fitted orders with uncertainty, adaptive schemes vs tolerance") {
  // Undamped Hertz oscillator, m = k = v0 = 1 (t_c = 3.2 s): documented orders (docs/convergence.md,
  // docs/exact-solution.md §5): velocity Verlet 2, rk4 p + 1 = 2.5 in delta_max (the Hertz force's (p+1)-th
  // derivative is singular at onset), the exact stepper at round-off (no order).
  int status = 0;
  const nlohmann::json j =
      RunJson("converge " + kScenarios + "hertz_unit_exact.toml --integrator velocity_verlet --integrator rk4 "
              "--integrator dopri5 --integrator exact --dt-max 0.04 --dt-min 0.0025 --levels 5 --metric final_state "
              "--metric max_overlap --metric contact_duration --metric trajectory --json",
              status);
  CHECK(j["reference"]["name"] == "exact");
  const auto vv = Fit(j, "velocity_verlet", "max_overlap");
  REQUIRE(vv.is_object());
  CHECK(vv["order"].get<double>() == doctest::Approx(2.0).epsilon(0.075));  // ±0.15
  CHECK(vv["standard_error"].get<double>() > 0.0);
  CHECK(vv["ci95"][0].get<double>() < vv["order"].get<double>());
  CHECK(vv["ci95"][1].get<double>() > vv["order"].get<double>());
  CHECK(vv["points"] == 5);
  CHECK(Fit(j, "velocity_verlet", "final_state")["order"].get<double>() == doctest::Approx(2.0).epsilon(0.075));
  CHECK(Fit(j, "velocity_verlet", "contact_duration")["order"].get<double>() == doctest::Approx(2.0).epsilon(0.075));
  // the trajectory at 20 sample times (Hermite interpolant between Verlet's step ends)
  CHECK(Fit(j, "velocity_verlet", "trajectory")["order"].get<double>() == doctest::Approx(2.0).epsilon(0.075));
  CHECK(Fit(j, "rk4", "max_overlap")["order"].get<double>() == doctest::Approx(2.5).epsilon(0.06));  // ±0.15
  // adaptive: a tolerance ladder, never a dt order
  const auto& dopri = Series(j, "dopri5");
  CHECK(dopri["adaptive"] == true);
  CHECK(dopri["ladder"] == "tolerance");
  CHECK(dopri["points"][0]["x"].get<double>() == doctest::Approx(1e-4));
  CHECK(dopri["points"][4]["x"].get<double>() == doctest::Approx(1e-10));
  CHECK(Series(j, "velocity_verlet")["ladder"] == "dt");
  // the exact stepper sits at round-off: every point left out, no order
  for (const auto& p : Series(j, "exact")["points"]) {
    CHECK(p["excluded"]["final_state"] == "at_floor");
    CHECK(p["errors"]["final_state"].get<double>() < 1e-12);
  }
  CHECK(Fit(j, "exact", "final_state").is_null());
}

TEST_CASE("converge marks a step above the stability estimate and leaves it out of the fit") {
  // hertz_unit_exact: dt_crit = 1.597 s (impactlab dtcrit); the ladder 2 ... 0.005 s starts above it.
  int status = 0;
  const nlohmann::json j = RunJson("converge " + kScenarios + "hertz_unit_exact.toml --integrator velocity_verlet "
                                   "--dt-max 2 --dt-min 0.005 --levels 6 --metric max_overlap --json",
                                   status);
  const auto& pts = Series(j, "velocity_verlet")["points"];
  REQUIRE(pts.size() == 6);
  CHECK(pts[0]["above_stability"] == true);
  CHECK(pts[0]["excluded"]["max_overlap"] == "above_stability");
  for (size_t i = 1; i < 6; ++i) CHECK(pts[i]["above_stability"] == false);
  const auto fit = Fit(j, "velocity_verlet", "max_overlap");
  REQUIRE(fit.is_object());
  CHECK(fit["points"] == 5);
}

TEST_CASE("converge on a model without an exact solution: named Richardson-checked reference, Verlet and Simo-Tarnow at order 2") {
  // A 20-bead Hertz chain (Newton's cradle), 2e-4 s: the default reference rk4 at dt_min/8, rerun at half
  // its step.
  int status = 0;
  const nlohmann::json j =
      RunJson("converge " + kScenarios + "hertz_chain.toml --set num_beads=20 --set t_end=2e-4 --integrator "
              "velocity_verlet --integrator simo_tarnow --json",
              status);
  CHECK(j["reference"]["name"] == "rk4:dt=7.8125e-09");
  CHECK(j["reference"]["richardson_check"].get<std::string>().find("rerun at dt / 2") != std::string::npos);
  CHECK(j["reference"]["error_estimate"]["final_state"].get<double>() < 1e-9);
  CHECK(Fit(j, "velocity_verlet", "final_state")["order"].get<double>() == doctest::Approx(2.0).epsilon(0.075));
  CHECK(Fit(j, "simo_tarnow", "final_state")["order"].get<double>() == doctest::Approx(2.0).epsilon(0.075));
}

TEST_CASE("workprecision on the Hertz chain: JSON, CSV and PNG - monotone error in dt, positive wall times, reference named") {
  const fs::path dir = Scratch("wp");
  int status = 0;
  const nlohmann::json j =
      RunJson("workprecision " + kScenarios + "hertz_chain.toml --set num_beads=10 --set t_end=1e-4 --integrator "
              "velocity_verlet --integrator rk4 --integrator dopri5 --integrator cvode_bdf --integrator simo_tarnow "
              "--levels 4 --repeats 3 --json --out " + dir.string(),
              status);
  CHECK(j["reference"]["name"].get<std::string>().rfind("rk4:dt=", 0) == 0);
  CHECK(j["repeats"] == 3);
  REQUIRE(j["series"].size() == 5);
  for (const auto& s : j["series"]) {
    CAPTURE(s["integrator"]);
    REQUIRE(s["points"].size() == 4);
    for (const auto& p : s["points"]) {
      CHECK(p["wall_time_s"].get<double>() > 0.0);
      CHECK(p["wall_time_min_s"].get<double>() <= p["wall_time_s"].get<double>());
      CHECK(p["wall_time_max_s"].get<double>() >= p["wall_time_s"].get<double>());
      CHECK(p["status"] == "ok");
    }
    const auto& pts = s["points"];
    if (s["integrator"] == "velocity_verlet" || s["integrator"] == "simo_tarnow") {
      for (size_t i = 1; i < pts.size(); ++i)  // dt halves: the error falls at every level
        CHECK(pts[i]["errors"]["final_state"].get<double>() < pts[i - 1]["errors"]["final_state"].get<double>());
    } else {  // rk4 (Hertz onset: erratic), adaptive schemes: finest below coarsest
      CHECK(pts[3]["errors"]["final_state"].get<double>() < pts[0]["errors"]["final_state"].get<double>());
    }
  }
  CHECK(fs::file_size(dir / "workprecision.csv") > 0);
  CHECK(fs::file_size(dir / "workprecision_final_state.png") > 10000);
  CHECK(nlohmann::json::parse(ReadFile(dir / "workprecision.json"))["reference"] == j["reference"]);
}

TEST_CASE("sweep refuses to resume into a sweep.csv of the older format or without its sidecar, file untouched") {
  const fs::path dir = Scratch("old_format");
  fs::create_directories(dir);
  const std::string old = "# impactlab sweep v1 fingerprint=0123456789abcdef rows=2\nrow,case,e,integrator,status\n";
  std::ofstream(dir / "sweep.csv") << old;
  const std::string args = "sweep " + kScenarios + "hertz_impact.toml --vary e=0.5,0.9 --integrator rk4 --out " + dir.string();
  const Output o = Run(args);
  CAPTURE(o.out);
  CHECK(o.status == 2);
  CHECK(o.out.find("(older format, header comment)") != std::string::npos);
  CHECK(ReadFile(dir / "sweep.csv") == old);
  // a plain table whose sidecar is missing is refused too
  std::ofstream(dir / "sweep.csv") << "row,case\n";
  const Output m = Run(args);
  CHECK(m.status == 2);
  CHECK(m.out.find("(no readable sweep.meta.json)") != std::string::npos);
}

TEST_CASE("converge with an adaptive named reference: rtol and atol name its tolerance keys") {
  int status = 0;
  const nlohmann::json j =
      RunJson("converge " + kScenarios + "hertz_impact.toml --integrator velocity_verlet --levels 4 "
              "--reference cvode_bdf:rtol=1e-12:atol=1e-18 --json",
              status);
  CHECK(j["reference"]["name"] == "cvode_bdf:rtol=1e-12:atol=1e-18");
  CHECK(j["reference"]["richardson_check"].get<std::string>().find("tolerances / 100") != std::string::npos);
  CHECK(Fit(j, "velocity_verlet", "max_overlap")["order"].get<double>() == doctest::Approx(2.0).epsilon(0.075));
  const Output bad = Run("converge " + kScenarios + "hertz_impact.toml --integrator velocity_verlet --reference rk4:rtol=1e-12");
  CHECK(bad.status == 2);
  CHECK(bad.out.find("invalid --reference = \"rk4:rtol=1e-12\" (valid: rtol / atol only with an adaptive reference") !=
        std::string::npos);
}

TEST_CASE("converge --grid-shifts: the damper's jump at first touch gives Verlet order 1 in the largest error of 8 grids") {
  // ellipsoid_wall: the contact-centric damper jumps from 0 to eta v_cn at onset, so a fixed step straddling
  // the onset commits an O(dt) error whose constant depends on the onset's phase in the step
  // (docs/convergence.md "Grid shifts"). The largest error over 8 shifted grids follows C dt^1.
  const std::string args = "converge " + kScenarios +
                           "ellipsoid_wall.toml --set t_end=0.15 --integrator velocity_verlet --metric final_state "
                           "--dt-max 1e-4 --dt-min 6.25e-6 --reference velocity_verlet_event:dt=6.25e-07 --json";
  int status = 0;
  const nlohmann::json shifted = RunJson(args + " --grid-shifts 8", status);
  CHECK(status == 0);
  const nlohmann::json plain = RunJson(args, status);
  CHECK(status == 0);
  const auto& s = Series(shifted, "velocity_verlet");
  CHECK(s["grid_shifts"] == 8);
  const auto& pts = s["points"];
  const auto& plain_pts = Series(plain, "velocity_verlet")["points"];
  REQUIRE(pts.size() == 5);
  REQUIRE(plain_pts.size() == 5);
  for (size_t i = 0; i < pts.size(); ++i) {
    const auto& by_shift = pts[i]["errors_by_shift"]["final_state"];
    REQUIRE(by_shift.size() == 8);
    // shift 0 is the plain grid, bit for bit; the point's error is the largest of the 8
    CHECK(by_shift[0].get<double>() == plain_pts[i]["errors"]["final_state"].get<double>());
    double worst = 0.0;
    for (const auto& e : by_shift) worst = std::max(worst, e.get<double>());
    CHECK(pts[i]["errors"]["final_state"].get<double>() == worst);
  }
  const auto fit = Fit(shifted, "velocity_verlet", "final_state");
  REQUIRE(fit.is_object());
  CHECK(fit["order"].get<double>() == doctest::Approx(1.0).epsilon(0.15));
  CHECK(fit["standard_error"].get<double>() < 0.1);
  // the option is checked like every other
  const Output bad = Run("converge " + kScenarios + "ellipsoid_wall.toml --integrator velocity_verlet --grid-shifts 0");
  CHECK(bad.status == 2);
  CHECK(bad.out.find("--grid-shifts") != std::string::npos);
}
