// The shifted step grid of the run driver (integrators/simulation.h, SimulationOptions::grid_offset): with
// θ ∈ (0, 1) the steps end at θ·dt, (1 + θ)·dt, … and at t_end; θ = 0 is the plain grid n·dt, bit for bit.
// `impactlab converge --grid-shifts` runs every dt on such grids (docs/convergence.md "Grid shifts").
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/errors.h"
#include "integrators/simulation.h"
#include "integrators/velocity_verlet.h"
#include "support/analytic_problems.h"

using namespace impactlab;

namespace {

struct StepTimes final : StepObserver {
  std::vector<double> t;
  void OnStep(const MechanicalSystem&, const MechanicalState& s) override { t.push_back(s.t); }
};

}  // namespace

TEST_CASE("simulation grid offset: steps end at (n + theta) dt and at t_end, the plain grid is unchanged") {
  const testing::HarmonicOscillator sys(1.0, 1.0, 1.0, 0.0);
  SimulationOptions o;
  o.t_end = 1.0;
  o.dt = 0.1;
  VelocityVerlet vv;
  StepTimes plain;
  const SimulationRecord r0 = Simulate(sys, vv, sys.InitialState(), o, {&plain});
  REQUIRE(plain.t.size() == 10);
  for (size_t n = 0; n < plain.t.size(); ++n) CHECK(plain.t[n] == doctest::Approx(0.1 * (n + 1)).epsilon(1e-14));

  o.grid_offset = 0.25;
  VelocityVerlet vv_shifted;
  StepTimes shifted;
  const SimulationRecord r1 = Simulate(sys, vv_shifted, sys.InitialState(), o, {&shifted});
  // 0.025, 0.125, ..., 0.925, then 1.0: eleven steps, the first θ·dt and the last 0.075 s.
  REQUIRE(shifted.t.size() == 11);
  for (size_t n = 0; n + 1 < shifted.t.size(); ++n) CHECK(shifted.t[n] == doctest::Approx(0.1 * (n + 0.25)).epsilon(1e-14));
  CHECK(shifted.t.back() == 1.0);
  CHECK(r1.final_state.t == 1.0);
  // Both grids are second order for the smooth oscillator: the two results differ by O(dt²), not O(1).
  const double x_exact = sys.ExactPosition(1.0);
  CHECK(std::abs(r0.final_state.q[0] - x_exact) < 1e-2);
  CHECK(std::abs(r1.final_state.q[0] - x_exact) < 1e-2);
  CHECK(r1.final_state.q[0] != r0.final_state.q[0]);

  o.grid_offset = 1.0;
  CHECK_THROWS_AS(o.Validate(), InvalidParameter);
  o.grid_offset = -0.1;
  CHECK_THROWS_AS(o.Validate(), InvalidParameter);
}
