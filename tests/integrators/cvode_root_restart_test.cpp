// Regression: CVODE's root finder used to stop with CV_ILL_INPUT ("root found at and very near t") when it
// resumed from a contact-exit root of the ellipsoid-wall impact (K_n = 1e6, output step 2e-6 s). The
// adapter now restarts CVODE from the root state; the run completes and its restitution agrees with
// velocity Verlet at the same output step to the Verlet error level.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "run/scenario_runner.h"

using namespace impactlab;

TEST_CASE("[study] cvode_bdf survives a root at the stop time (ellipsoid_wall, K_n = 1e6)") {
  RunRequest r;
  r.scenario = LoadScenario(std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/ellipsoid_wall.toml");
  ApplyOverride(r.scenario, "K_n=1e6");
  ApplyOverride(r.scenario, "e_cn=1");
  ApplyOverride(r.scenario, "dt=2e-6");
  r.integrators = {"cvode_bdf", "velocity_verlet"};
  const auto summary = RunScenario(r);
  REQUIRE(summary["runs"].size() == 2);
  const auto& cvode = summary["runs"][0];
  const auto& verlet = summary["runs"][1];
  CHECK(cvode["energy_balance_residual_max"].get<double>() < 1e-9);
  CHECK(std::abs(cvode["e_cn"].get<double>() - verlet["e_cn"].get<double>()) < 1e-5);
}
