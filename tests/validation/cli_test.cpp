// The command line as a user meets it: `list --json` content, `run --json` keys, and bad input giving a
// one-line error that names the key and the valid range, a non-zero exit code, and no crash.
#include <doctest/doctest.h>

#include "support/run_impactlab.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using Output = impactlab::test::CliOutput;
Output Run(const std::string& args) { return impactlab::test::RunImpactlab(args); }

const std::string kScenarios = std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/";

}  // namespace

TEST_CASE("impactlab list --json") {
  const Output o = Run("list --json");
  REQUIRE(o.status == 0);
  const auto j = nlohmann::json::parse(o.out);
  CHECK(j["integrators"].size() >= 6);
  CHECK(j["normal_laws"].size() >= 3);
  CHECK(j["damping_laws"].size() >= 4);
  bool oscillator = false;
  for (const auto& m : j["models"]) oscillator = oscillator || m["name"] == "contact_oscillator";
  CHECK(oscillator);
  for (const auto& i : j["integrators"]) {
    CHECK(i.contains("name"));
    // Whether the scheme works on dense whole-system matrices (IntegratorTraits::dense_matrices): Siconos' one
    // dynamical system does; CVODE by default does not (matrix-free GMRES above 64 unknowns), nor velocity Verlet.
    if (i["name"] == "siconos_moreau_jean") CHECK(i["dense_matrices"].get<bool>());
    if (i["name"] == "cvode_bdf") CHECK_FALSE(i["dense_matrices"].get<bool>());
    if (i["name"] == "velocity_verlet") CHECK_FALSE(i["dense_matrices"].get<bool>());
  }
}

TEST_CASE("[study] impactlab run: undamped Hertz impact, CVODE restitution within 1e-6 of 1") {
  const Output o = Run("run " + kScenarios + "hertz_impact.toml --integrator velocity_verlet --integrator rk4 "
                       "--integrator dopri5 --integrator cvode_bdf --json");
  REQUIRE(o.status == 0);
  const auto j = nlohmann::json::parse(o.out);
  REQUIRE(j["runs"].size() == 4);
  for (const auto& run : j["runs"]) {
    for (const char* key : {"integrator", "dt", "steps", "restitution", "contact_duration", "max_overlap",
                            "energy_error_max", "energy_balance_residual_max", "wall_time_s", "rhs_evaluations"})
      CHECK_MESSAGE(run.contains(key), key);
    CHECK(run["energy_error_max"].get<double>() >= 0.0);
    if (run["integrator"] == "cvode_bdf") CHECK(std::abs(run["restitution"].get<double>() - 1.0) < 1e-6);
  }
}

TEST_CASE("bad input: one-line error naming the key and the range, exit code != 0") {
  const std::string hertz = kScenarios + "hertz_impact.toml";
  const std::string cone = kScenarios + "cone_p2.toml";
  struct Case {
    std::string args, must_contain;
  };
  const std::filesystem::path bad_toml = std::filesystem::temp_directory_path() / "impactlab_malformed.toml";
  {
    std::ofstream f(bad_toml);
    f << "model = \"contact_oscillator\"\nk = = 3\n";
  }
  const Case cases[] = {
      {"run " + hertz + " --integrator nope", "integrator"},
      {"run " + cone + " --set p=0.5", "p = 0.5"},
      {"run " + cone + " --set e=1.5", "e = 1.5"},
      {"run " + cone + " --set e=0", "e = 0"},
      {"run " + cone + " --set m=-1", "m = -1"},
      {"run " + cone + " --set k=-2", "k = -2"},
      {"run " + cone + " --dt -1", "dt"},
      {"run " + cone + " --set dt=0", "dt = 0"},
      {"run " + cone + " --set typo_key=3", "typo_key"},
      {"run " + bad_toml.string(), "scenario"},
      {"run /nonexistent/file.toml", "scenario"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const Output o = Run(c.args);
    CAPTURE(o.out);
    CHECK(o.status != 0);
    CHECK(o.status < 128);  // no crash (signal)
    CHECK(o.out.find(c.must_contain) != std::string::npos);
    CHECK(o.out.find("valid") != std::string::npos);  // the range is stated
  }
}

TEST_CASE("impactlab bench --out-dir: the run's files, and a path that is not a directory refused before any timing") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "impactlab_bench_out_dir";
  std::filesystem::remove_all(dir);
  const Output o = Run("bench --quick --repetitions 1 --only exact --no-lammps --out-dir " + dir.string());
  CAPTURE(o.out);
  REQUIRE(o.status == 0);
  for (const char* name : {"bench.json", "bench.md", "exact.csv", "targets.csv"}) {
    CAPTURE(name);
    CHECK(std::filesystem::exists(dir / name));
  }
  std::ifstream in(dir / "bench.json");
  const auto j = nlohmann::json::parse(in);
  CHECK(j["complete"].get<bool>());  // the final result replaced the partial one
  CHECK(j.contains("exact_restitution_ns"));
  std::filesystem::remove_all(dir);

  // A file where the directory should be: exit 2 naming the option, and the file is left as it was.
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "impactlab_bench_out_file";
  {
    std::ofstream f(file);
    f << "kept\n";
  }
  const Output bad = Run("bench --quick --repetitions 1 --only exact --out-dir " + file.string());
  CAPTURE(bad.out);
  CHECK(bad.status == 2);
  CHECK(bad.out.find("--out-dir") != std::string::npos);
  CHECK(bad.out.find("exact solution") == std::string::npos);  // refused before the group ran (no progress line)
  std::ifstream kept(file);
  std::string line;
  std::getline(kept, line);
  CHECK(line == "kept");
  std::filesystem::remove(file);
}

TEST_CASE("impactlab bench --from: the committed run's files are what the code writes from its bench.json") {
  // docs/figures/bench/ holds a whole run (docs/performance.md, "Bench output files"): its tables and figure specs
  // must be exactly those the current code writes from its bench.json, so the docs stay true to the code.
  const std::filesystem::path committed = std::filesystem::path(IMPACTLAB_SOURCE_DIR) / "docs" / "figures" / "bench";
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "impactlab_bench_from";
  std::filesystem::remove_all(dir);
  const Output o = Run("bench --from " + (committed / "bench.json").string() + " --out-dir " + dir.string());
  CAPTURE(o.out);
  REQUIRE(o.status == 0);
  auto text = [](const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  int compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(committed)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".png") continue;  // drawn by matplotlib: not byte-stable across versions
    CAPTURE(name);
    CHECK(text(entry.path()) == text(dir / name));
    ++compared;
  }
  CHECK(compared >= 16);  // 10 CSV tables, 4 figure specs, bench.md, bench.json
  std::filesystem::remove_all(dir);

  // Bad input: exit 2 naming --from, never a crash; nothing is timed. A result edited by hand may lack a key the
  // tables read.
  const std::filesystem::path edited = std::filesystem::temp_directory_path() / "impactlab_bench_edited.json";
  {
    std::ofstream f(edited);
    f << R"({"targets": [{"key": "verlet_vs_odeint_ratio"}], "peers": {"verlet_vs_hand_loop": 3}})" << "\n";
  }
  for (const std::string& args : {std::string("bench --from /nonexistent/bench.json"),
                                  "bench --from " + std::string(IMPACTLAB_SOURCE_DIR) + "/README.md",
                                  "bench --from " + edited.string(),
                                  "bench --from " + (committed / "bench.json").string() + " --only peers"}) {
    CAPTURE(args);
    const Output bad = Run(args);
    CAPTURE(bad.out);
    CHECK(bad.status == 2);
    CHECK(bad.out.find("--from") != std::string::npos);
  }
  std::filesystem::remove(edited);
}
