// rk4_event splits its step at a located stick → slip switch (MechanicalSystem::SwitchFunctions;
// docs/event-splitting.md) [docs/convergence.md, "Why the orders are what they are"].
//
// sphere_wall_thornton (Hertz + Mindlin, μ = 0.1) sticks from 1.28e-5 s to ≈ 1.00784e-4 s, then slips until the
// release at 1.26e-4 s. The stick → slip switch is a kink of F_t(t): a fixed step straddling it makes an O(h²)
// local error, so plain rk4 converges at order 2 in the final state. Split at the located switch, rk4_event is
// limited only by the Hertz onset, order 2.5 [docs/exact-solution.md §5]. Errors: the largest over 8 step grids
// shifted by k·dt/8 (LadderOptions::grid_shifts), against rk4_event at dt = 3.125e-9 s.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "convergence/error_ladder.h"
#include "scenario/scenario.h"

using namespace impactlab;

TEST_CASE("rk4_event: split at the stick-slip switch, sphere_wall_thornton converges at the Hertz onset order 2.5") {
  Scenario scenario =
      LoadScenario(std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/sphere_wall_thornton.toml");
  ApplyOverride(scenario, "t_end=1.5e-4");
  LadderOptions options;
  options.integrators = {"rk4_event", "rk4"};
  options.dts = {4e-7, 2e-7, 1e-7, 5e-8, 2.5e-8};
  options.metrics = {"final_state"};
  options.reference = "rk4_event:dt=3.125e-9";
  options.grid_shifts = 8;
  const nlohmann::json ladder = RunErrorLadder(scenario, options);
  auto order = [&](const std::string& integrator) {
    for (const nlohmann::json& series : ladder["series"])
      if (series["integrator"] == integrator) {
        REQUIRE(series["fit"]["final_state"].is_object());
        CHECK(series["fit"]["final_state"]["points"].get<int>() == 5);
        return series["fit"]["final_state"]["order"].get<double>();
      }
    FAIL("no series for " << integrator);
    return 0.0;
  };
  const double split = order("rk4_event"), plain = order("rk4");
  std::printf("[stick-slip] sphere_wall_thornton final-state order (8 grid shifts): rk4_event %.3f  rk4 %.3f\n", split,
              plain);
  // Measured 2.514 and 1.985 (docs/convergence.md); without the split rk4_event gave 1.93, like rk4.
  CHECK(split >= 2.35);
  CHECK(split <= 2.65);
  CHECK(plain >= 1.85);
  CHECK(plain <= 2.15);
}
