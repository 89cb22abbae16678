// Seed-000 study plumbing: the resumable table keeps finished rows across runs (and drops them when the
// layout changes); the shipped scenario file reproduces the acceptance keys of issue 5 through the same
// RunScenario path as `impactlab run`.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include "run/scenario_runner.h"
#include "scenario/scenario.h"
#include "studies/seed000_common.h"

using namespace impactlab;

TEST_CASE("seed000: resumable table round trip") {
  const auto dir = std::filesystem::temp_directory_path() / "impactlab_seed000_table_test";
  std::filesystem::remove_all(dir);
  const auto path = dir / "t.csv";
  {
    seed000::ResumableTable t(path, {"key", "x", "y"});
    CHECK(!t.Has("a|1"));
    t.Put("a|1", {1.5, -2.25});
    t.Put("b|2", {std::nan(""), 3.0});
  }
  seed000::ResumableTable again(path, {"key", "x", "y"});
  REQUIRE(again.Has("a|1"));
  CHECK(again.Get("a|1")[1] == -2.25);
  CHECK(std::isnan(again.Get("b|2")[0]));
  seed000::ResumableTable other(path, {"key", "x", "y", "z"});  // new layout: nothing reused
  CHECK(!other.Has("a|1"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("seed000: shipped ellipsoid_wall scenario gives the acceptance summary") {
  RunRequest r;
  r.scenario = LoadScenario(std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/ellipsoid_wall.toml");
  ApplyOverride(r.scenario, "K_n=1e3");
  ApplyOverride(r.scenario, "e_cn=0.5");
  const auto run = RunScenario(r)["runs"][0];
  CHECK(run["integrator"] == "velocity_verlet");
  CHECK(std::round(run["m_n_star_initial"].get<double>() * 1000) == 648);
  for (const char* key : {"e_cn", "e_E", "e_E_impulsive", "delta_max_over_rho", "energy_balance_residual_max",
                          "v_z_after", "omega_y_after"})
    CHECK_MESSAGE(run[key].is_number(), key);
  // the same numbers as the independent reimplementation (docs/theory.md §10 row 4: Verlet Δt = 1e-5 gives 0.493, 0.7139)
  CHECK(run["e_cn"].get<double>() == doctest::Approx(0.493).epsilon(5e-4 / 0.493));
  CHECK(run["e_E"].get<double>() == doctest::Approx(0.7139).epsilon(5e-5 / 0.7139));
  CHECK(run["e_E_impulsive"].get<double>() == doctest::Approx(0.7169).epsilon(5e-5 / 0.7169));
}
