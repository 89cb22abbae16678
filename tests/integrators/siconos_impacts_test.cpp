// The impacts the two Siconos schemes record (integrators/rigid_contact_scheme.h: RigidImpact {t, contact, u⁻, u⁺,
// P}) and the run summary built from them (validation/run/scenario_runner.cpp).
//
// Ball on a floor (contact_oscillator with g, dropped from the gap y₀ at v₀ towards the floor): free flight to the
// first impact at t₁ = (V − v₀)/g with V = √(v₀² + 2 g y₀), u⁻ = −V; Newton's law u⁺ = −e u⁻, impulse
// P = m (1 + e) V [Moreau 1988; Acary & Brogliato 2008 eq. 3.113]. Event-driven locates t₁ by LSODAR's root finding
// (ch. 8) and imposes the law at it; Moreau–Jean imposes U_{n+1} = −e U_n on the step velocities (§10.1), so its
// ratio is e to round-off for the constant Jacobian of the floor; its impact time is the start t_n of the step
// whose predicted gap y_n + h/2 v_n closes, so t_n − t₁ ∈ [−h/2, h/2] up to the gap's curvature g h²/8 / V, and its
// impulse also carries the step's gravity: P = m ((1 + e)|u⁻| + g h).
// Newton's cradle of 3 equal beads touching, striker at v₀, e = 1: one impact LCP over both contacts gives
// (−1/3, 2/3, 2/3) v₀, i.e. the impulses P₁ = (4/3) m v₀ on the striking contact and P₂ = (2/3) m v₀ on the other,
// with u⁻ = (−v₀, 0) and u⁺ = (v₀, 0): two contacts receive an impulse in the same impact.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/parameter_set.h"
#include "integrators/rigid_contact_scheme.h"
#include "integrators/simulation.h"
#include "registry/registries.h"
#include "run/scenario_runner.h"
#include "scenario/scenario.h"

using namespace impactlab;

namespace {

constexpr double kMass = 1.0, kG = 9.81, kY0 = 1.0, kV0 = 1.0;

ParameterSet BallKeys(double e) {
  ParameterSet p;
  p.Set("normal_law", std::string("linear"));
  p.Set("k", 1.0e6);
  p.Set("m", kMass);
  p.Set("g", kG);
  p.Set("initial_gap", kY0);
  p.Set("v0", kV0);
  p.Set("e", e);
  return p;
}

double ImpactSpeed() { return std::sqrt(kV0 * kV0 + 2.0 * kG * kY0); }

// Runs the ball through the driver (Simulate) over three bounces and a bit; returns the scheme's impacts.
std::vector<RigidImpact> BallImpacts(const std::string& scheme, double e, double dt) {
  const ParameterSet p = BallKeys(e);
  const ModelInstance model = ModelRegistry().Get("contact_oscillator").make(p);
  auto integrator = IntegratorRegistry().Get(scheme).make(p);
  const double speed = ImpactSpeed();
  SimulationOptions options;
  options.dt = dt;
  options.t_end = (speed - kV0) / kG + 2.0 * speed / kG * (e + e * e) + 0.5 * e * e * e * speed / kG;
  (void)Simulate(*model.system, *integrator, model.system->InitialState(), options, {});
  const auto* rigid = dynamic_cast<const RigidContactScheme*>(integrator.get());
  REQUIRE(rigid != nullptr);
  return rigid->rigid_impacts();
}

std::vector<RigidImpact> CradleImpacts(const std::string& scheme, double dt, int steps, double v0) {
  ParameterSet p;
  p.Set("num_beads", 3.0);
  p.Set("k", 1.0e6);
  p.Set("normal_law", std::string("linear"));
  p.Set("m", 0.5);
  p.Set("R", 0.01);
  p.Set("v0", v0);
  p.Set("e", 1.0);
  const ModelInstance model = ModelRegistry().Get("bead_chain").make(p);
  auto integrator = IntegratorRegistry().Get(scheme).make(p);
  MechanicalState s = model.system->InitialState();
  for (int i = 0; i < steps; ++i) REQUIRE(integrator->Step(*model.system, s, dt).status == StepStatus::kAccepted);
  return dynamic_cast<const RigidContactScheme&>(*integrator).rigid_impacts();
}

void CheckCradle(const std::vector<RigidImpact>& impacts, double v0, double m) {
  REQUIRE(impacts.size() == 2u);
  CHECK(impacts[0].contact == 0);
  CHECK(impacts[1].contact == 1);
  CHECK(impacts[0].t == impacts[1].t);
  CHECK(std::abs(impacts[0].u_minus + v0) <= 1e-12 * v0);
  CHECK(std::abs(impacts[0].u_plus - v0) <= 1e-9 * v0);
  CHECK(std::abs(impacts[1].u_minus) <= 1e-12 * v0);
  CHECK(std::abs(impacts[1].u_plus) <= 1e-9 * v0);
  CHECK(std::abs(impacts[0].impulse - 4.0 / 3.0 * m * v0) <= 1e-9 * m * v0);
  CHECK(std::abs(impacts[1].impulse - 2.0 / 3.0 * m * v0) <= 1e-9 * m * v0);
}

}  // namespace

TEST_CASE("siconos impacts: event-driven ball records each located impact with u+ = -e u- to 1e-12") {
  for (const double e : {0.8, 0.5}) {
    CAPTURE(e);
    const std::vector<RigidImpact> impacts = BallImpacts("siconos_event_driven", e, 1e-2);
    REQUIRE(impacts.size() == 3u);
    double t_exact = (ImpactSpeed() - kV0) / kG, speed = ImpactSpeed();
    for (size_t k = 0; k < impacts.size(); ++k) {
      const RigidImpact& impact = impacts[k];
      CAPTURE(k);
      MESSAGE("e = " << e << " impact " << k << ": t - exact = " << impact.t - t_exact << ", -u+/u- - e = "
                     << -impact.u_plus / impact.u_minus - e << ", u- + V_k = " << impact.u_minus + speed);
      CHECK(impact.contact == 0);
      CHECK(std::abs(-impact.u_plus / impact.u_minus - e) <= 1e-12);
      CHECK(std::abs(impact.t - t_exact) <= (k == 0 ? 1e-9 : 1e-8));
      CHECK(std::abs(impact.u_minus + speed) <= 1e-8 * speed);
      CHECK(std::abs(impact.impulse - kMass * (1.0 + e) * speed) <= 1e-8 * kMass * speed);
      t_exact += 2.0 * e * speed / kG;
      speed *= e;
    }
  }
}

TEST_CASE("siconos impacts: Moreau-Jean ball, one impact per bounce, ratio e to 1e-12, time within one step") {
  for (const double e : {0.8, 0.5}) {
    for (const double h : {1e-3, 3e-4}) {
      CAPTURE(e);
      CAPTURE(h);
      const std::vector<RigidImpact> impacts = BallImpacts("siconos_moreau_jean", e, h);
      REQUIRE(impacts.size() == 3u);
      const double t1 = (ImpactSpeed() - kV0) / kG;
      MESSAGE("e = " << e << ", h = " << h << ": first impact t - t1 = " << impacts[0].t - t1
                     << ", -u+/u- - e = " << -impacts[0].u_plus / impacts[0].u_minus - e);
      // The impact step [t_n, t_n + h] is the first whose predicted gap y_n + h/2 v_n ≤ 0: t_n − t1 ∈ [−h/2, h/2]
      // up to g h²/(8V) (slack 1e-3 h).
      CHECK(std::abs(impacts[0].t - t1) <= 0.5 * h * (1.0 + 1e-3));
      // u⁻ = v_n, the step-start velocity: −V − g (t_n − t1).
      CHECK(std::abs(impacts[0].u_minus + ImpactSpeed() + kG * (impacts[0].t - t1)) <= 1e-9);
      for (const RigidImpact& impact : impacts) {
        CHECK(impact.contact == 0);
        CHECK(std::abs(-impact.u_plus / impact.u_minus - e) <= 1e-12);
        const double p_exact = kMass * ((1.0 + e) * -impact.u_minus + kG * h);
        CHECK(std::abs(impact.impulse - p_exact) <= 1e-12 * p_exact);
      }
    }
  }
}

TEST_CASE("siconos impacts: 3-bead cradle, both contacts receive an impulse in the one impact LCP") {
  const double v0 = 2.0, m = 0.5;
  SUBCASE("Moreau-Jean") { CheckCradle(CradleImpacts("siconos_moreau_jean", 1e-4, 20, v0), v0, m); }
  SUBCASE("event-driven") { CheckCradle(CradleImpacts("siconos_event_driven", 1e-4, 20, v0), v0, m); }
}

TEST_CASE("siconos impacts: run summary reports impacts, restitution and the first impact time") {
  RunRequest request;
  request.scenario.model = "contact_oscillator";
  request.scenario.parameters = BallKeys(0.8);
  request.scenario.parameters.Set("t_end", 2.0);  // impacts at 0.361, 1.102, 1.694 s
  request.scenario.parameters.Set("dt", 1e-4);
  request.scenario.parameters.Set("damping", std::string("linear_viscous"));
  request.integrators = {"siconos_event_driven", "siconos_moreau_jean", "velocity_verlet"};
  const nlohmann::json summary = RunScenario(request);
  const double t1 = (ImpactSpeed() - kV0) / kG;
  for (const auto& run : summary["runs"]) {
    const std::string name = run["integrator"].get<std::string>();
    CAPTURE(name);
    if (name == "velocity_verlet") {  // compliant: no impact keys, restitution from the located contact events
      CHECK_FALSE(run.contains("impacts"));
      CHECK_FALSE(run.contains("nonsmooth_problems"));
      REQUIRE(run["restitution"].is_number());
      continue;
    }
    REQUIRE(run["impacts"].is_number_integer());
    CHECK(run["impacts"].get<long>() == 3);
    REQUIRE(run["restitution"].is_number());
    CHECK(std::abs(run["restitution"].get<double>() - 0.8) <= 1e-12);
    CHECK(run["impact_restitution"].get<double>() == run["restitution"].get<double>());
    CHECK(run["rebounds"].get<bool>());
    CHECK(run["nonsmooth_problems"].get<long>() >= 3);
    // (Siconos/Numerics reports 0 pivots for the ball's 1 × 1 LCP; the cradle's 4 × 4 LCPs report 2 per step.)
    CHECK(run["nonsmooth_iterations"].get<long>() >= 0);
    const double t = run["first_impact_time"].get<double>();
    if (name == "siconos_event_driven") CHECK(std::abs(t - t1) <= 1e-9);
    else CHECK(std::abs(t - t1) <= 0.5e-4 * (1.0 + 1e-3));
  }
  const std::string table = FormatSummaryTable(summary);
  CHECK(table.find("impacts") != std::string::npos);
}

TEST_CASE("siconos impacts: 5-bead cradle touching to round-off, 4 contacts in one impact, no round-off impacts after") {
  // Same beads as the 5-bead test of siconos_moreau_jean_test.cpp: (−3/5, 2/5, 2/5, 2/5, 2/5) v₀, so the impulse on
  // contact k (between beads k and k+1) is P_k = m v₀ · 2(N − 1 − k)/N, k = 0 … 3. The resting contacts then get
  // LCP impulses of ~1e-18 N s per step; they must not count as impacts (impulse round-off 64 ε max m|v|).
  ParameterSet p;
  p.Set("num_beads", 5.0);
  p.Set("E_star", 1.15e11);
  p.Set("R_star", 0.0025);
  p.Set("R", 0.005);
  p.Set("m", 0.0041);
  p.Set("v0", 1.0);
  const double m = 0.0041, v0 = 1.0;
  const ModelInstance model = ModelRegistry().Get("bead_chain").make(p);
  for (const std::string name : {"siconos_moreau_jean", "siconos_event_driven"}) {
    CAPTURE(name);
    auto integrator = IntegratorRegistry().Get(name).make(p);
    MechanicalState s = model.system->InitialState();
    for (int i = 0; i < 4000; ++i) REQUIRE(integrator->Step(*model.system, s, 1e-7).status == StepStatus::kAccepted);
    const std::vector<RigidImpact>& impacts = dynamic_cast<const RigidContactScheme&>(*integrator).rigid_impacts();
    REQUIRE(impacts.size() == 4u);
    for (int k = 0; k < 4; ++k) {
      CHECK(impacts[k].contact == k);
      CHECK(impacts[k].t == 0.0);
      CHECK(std::abs(impacts[k].impulse - m * v0 * 2.0 * (4 - k) / 5.0) <= 1e-9 * m * v0);
    }
    CHECK(std::abs(-impacts[0].u_plus / impacts[0].u_minus - 1.0) <= 1e-12);
  }
}
