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
