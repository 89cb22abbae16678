// Planar models: the ellipse_box / ellipses_multi configurations reject bad input with the key named; the
// PlanarEllipses MechanicalSystem side (used by the explicit and ODE baselines) reproduces the rigid rolling
// limit with velocity Verlet; a spring projected onto the friction cone slips outward and sticks inward whatever the
// rounding of K_T, so dopri5 crosses the carom's first impact at ordinary step sizes; the ellipse_box scenario summary
// carries the per-impact Routh comparison.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "core/errors.h"
#include "integrators/odeint_runge_kutta.h"
#include "integrators/velocity_verlet.h"
#include "models/ellipse_box.h"
#include "models/ellipses_multi.h"
#include "run/scenario_runner.h"

using namespace impactlab;

TEST_CASE("ellipse_box and ellipses_multi reject bad parameters, naming the key") {
  ParameterSet p;
  p.Set("y0", 0.01);  // the ellipse (h = 0.0606 m at 50°) would start inside the floor
  CHECK_THROWS_AS(EllipseBoxParameters::FromParameterSet(p), InvalidParameter);
  ParameterSet q;
  q.Set("K_N", -1.0);
  try {
    (void)EllipseBoxParameters::FromParameterSet(q);
    FAIL("no throw");
  } catch (const InvalidParameter& e) {
    CHECK(e.parameter() == "K_N");
  }
  ParameterSet r;
  r.Set("reference_hypothesis", std::string("maxwell"));
  CHECK_THROWS_AS(EllipseBoxParameters::FromParameterSet(r), InvalidParameter);
  ParameterSet m;
  m.Set("n", 201.0);
  try {
    (void)MakeEllipsesMultiConfig(m);
    FAIL("no throw");
  } catch (const InvalidParameter& e) {
    CHECK(e.parameter() == "n");
    CHECK(std::string(e.what()).find("[2, 200]") != std::string::npos);
  }
  m.Set("n", 200.0);  // the largest: 200 ellipses on a 15 x 15 lattice
  CHECK(MakeEllipsesMultiConfig(m).bodies.size() == 200);
  ParameterSet frac;
  frac.Set("n", 20.5);
  CHECK_THROWS_AS(MakeEllipsesMultiConfig(frac), InvalidParameter);
  ParameterSet s;
  s.Set("spacing", 0.05);  // < 2 max(a, b): initial overlap
  CHECK_THROWS_AS(MakeEllipsesMultiConfig(s), InvalidParameter);
}

TEST_CASE("PlanarEllipses with velocity Verlet: sliding disk reaches rolling at 2/3 v0") {
  // Same rigid closed form as the EFDA test; here the return-mapped spring of UpdateHistory does the work.
  // Verlet's explicit spring update is first order in the stick/slip transition: 1e-2 relative.
  constexpr double kVerletRollingTol = 1e-2;
  PlanarEllipsesConfig c;
  const double r = 0.05, m = 1.0, g = 9.81, mu = 0.3, v0 = 1.0;
  c.bodies = {Ellipse{r, r, m}};
  c.walls = {Wall::Through({0, 0}, {0, 1})};
  c.gravity = g;
  c.penalty.normal_stiffness = 1e7;
  c.penalty.tangential_stiffness = 1e7;
  c.penalty.normal_damping_ratio = 0.2;  // settle the normal oscillation
  c.penalty.friction_coefficient = mu;
  c.q0.resize(3);
  c.v0.resize(3);
  c.q0 << 0.0, r - m * g / c.penalty.normal_stiffness, 0.0;
  c.v0 << v0, 0.0, 0.0;
  PlanarEllipses sys(c);
  VelocityVerlet vv;
  MechanicalState s = sys.InitialState();
  const double t_roll = v0 / (mu * g * 3.0);
  for (double t = 0; t < 1.5 * t_roll; t += 1e-5) REQUIRE(vv.Step(sys, s, 1e-5).status == StepStatus::kAccepted);
  CHECK(s.v[0] == doctest::Approx(2.0 / 3.0 * v0).epsilon(kVerletRollingTol));
  CHECK(-s.v[2] * r == doctest::Approx(2.0 / 3.0 * v0).epsilon(kVerletRollingTol));
}

TEST_CASE("PlanarEllipses: a spring on the friction cone slips while pushed outward, sticks while unloaded") {
  // A disk pressed δ = 1e-4 m into the floor (F_N = K_N δ = 100 N, μ = 0.3, no dashpots), dragged 1 mm along it
  // in one step: UpdateHistory's return mapping leaves the spring at g_max = μ F_N / K_T exactly. Moving on in the
  // same direction (ṡ = +1 m/s) it slips, dissipating μ F_N |ṡ| = 30 W; moving back (ṡ = −1 m/s) it unloads
  // elastically and dissipates nothing. K_T (μ|F_N|/K_T) rounds above or below μ|F_N| depending on K_T, and that
  // rounding decided both answers before: of these 101 stiffnesses, 5 gave 0 W while slipping and 96 gave 30 W
  // while unloading.
  const double r = 0.05, delta = 1e-4, mu = 0.3, k_n = 1e6;
  int checked = 0;
  for (double k_t = 1e5; k_t < 1e7; k_t *= 1.0471) {
    PlanarEllipsesConfig c;
    c.bodies = {Ellipse{r, r, 1.0}};
    c.walls = {Wall::Through({0, 0}, {0, 1})};
    c.penalty.normal_stiffness = k_n;
    c.penalty.tangential_stiffness = k_t;
    c.penalty.friction_coefficient = mu;
    c.q0 = Eigen::Vector3d(0.0, r - delta, 0.0);
    c.v0 = Eigen::Vector3d(1.0, 0.0, 0.0);
    const PlanarEllipses sys(c);
    const MechanicalState before = sys.InitialState();
    MechanicalState after = before;
    after.q[0] += 1e-3;
    sys.UpdateHistory(before, after);
    REQUIRE(after.z.size() == 1);
    CAPTURE(k_t);
    const double f_n = k_n * delta;
    CHECK(std::abs(after.z[0]) == doctest::Approx(mu * f_n / k_t).epsilon(1e-9));
    CHECK(sys.DissipationPower(after) == doctest::Approx(mu * f_n * 1.0).epsilon(1e-9));
    after.v[0] = -1.0;
    CHECK(sys.DissipationPower(after) == 0.0);
    ++checked;
  }
  CHECK(checked == 101);
}

TEST_CASE("PlanarEllipses with dopri5: the carom's first floor impact at ordinary step sizes") {
  // The 100 outer steps of 2e-5 s around the first floor impact (t = 0.09849 s, sliding contact). While the slip
  // power came and went with the rounding of K_T (test above), dopri5's error estimate of the dissipated work D saw
  // a discontinuous integrand and shrank its steps to ~1e-12 s: 1 884 022 right-hand sides in these 100 outer steps
  // (up to 873 631 in one). Now 1 018 (16 rejected trial steps).
  EllipseBoxParameters p;
  const PlanarEllipses sys(MakeEllipseBoxConfig(p));
  MechanicalState s = sys.InitialState();
  VelocityVerlet approach;  // free flight to just before the impact (no contact force yet: exact)
  const double h = 2e-5;
  for (int i = 0; i < 4920; ++i) REQUIRE(approach.Step(sys, s, h).status == StepStatus::kAccepted);
  REQUIRE(s.t < 0.09849);
  OdeintRungeKutta dopri5(OdeintMethod::kDopri5);
  for (int i = 0; i < 100; ++i) REQUIRE(dopri5.Step(sys, s, h).status == StepStatus::kAccepted);
  CHECK(s.dissipated > 0.0);  // the impact slipped
  CAPTURE(dopri5.statistics().rhs_evaluations);
  CAPTURE(dopri5.statistics().rejected_steps);
  CHECK(dopri5.statistics().rhs_evaluations < 20 * 100);
}

TEST_CASE("ellipse_box scenario with efda: per-impact data and Routh comparison in the summary") {
  RunRequest req;
  req.scenario.path = "<test>";
  req.scenario.model = "ellipse_box";
  req.scenario.parameters.Set("t_end", 0.2);
  req.scenario.parameters.Set("dt", 2e-5);
  req.integrators = {"efda"};
  const nlohmann::json summary = RunScenario(req);
  const auto& run = summary["runs"][0];
  REQUIRE(run.contains("carom"));
  const auto& first = run["carom"]["impacts"][0];
  // docs/theory.md §8: contact at t = 0.09849 s; the rigid post-impact v+ = (0.90622, −0.04999), ω+ = −11.721.
  CHECK(first["t_start"].get<double>() == doctest::Approx(0.09849).epsilon(1e-4));
  CHECK(first["reference"]["v_plus"][0].get<double>() == doctest::Approx(0.90622).epsilon(1e-5));
  // Compliant (K_N = 1e6) vs rigid: |Δv+| ≈ 1e-3 (docs/efda.md §5, O(K_N^-1/2)).
  CHECK(first["local_routh"]["velocity_error"].get<double>() < 2e-3);
  CHECK(run["energy_balance_residual_max"].get<double>() < 1e-12);
  CHECK(run["momentum_drift_max"].is_null());  // walls: momentum is not an invariant
}
