// siconos_event_driven (integrators/siconos/siconos_event_driven.h): the ball on a floor under gravity
// (contact_oscillator with g). Each impact is located by LSODAR's root finding and resolved by the impact LCP,
// so the rebound ratio is Newton's e to round-off and the impact times are those of free flight
// [Acary & Brogliato 2008 ch. 8]: t₁ = (V − v₀)/g, t_{k+1} = t_k + 2 e^k V / g, V = √(v₀² + 2 g y₀).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "core/parameter_set.h"
#include "integrators/siconos/siconos_event_driven.h"
#include "registry/registries.h"

using namespace impactlab;

namespace {

ParameterSet BallKeys(double e) {
  ParameterSet p;
  p.Set("normal_law", std::string("linear"));
  p.Set("k", 1.0e6);
  p.Set("m", 1.0);
  p.Set("g", 9.81);
  p.Set("initial_gap", 1.0);
  p.Set("v0", 1.0);
  p.Set("e", e);
  return p;
}

}  // namespace

TEST_CASE("siconos_event_driven: ball on a floor, rebound ratio = e to 1e-12, impact times and books") {
  const double e = 0.8, g = 9.81, v0 = 1.0, y0 = 1.0;
  const ParameterSet p = BallKeys(e);
  const ModelInstance model = ModelRegistry().Get("contact_oscillator").make(p);
  SiconosEventDriven::Options o;
  o.restitution = e;
  SiconosEventDriven integrator(o);
  MechanicalState s = model.system->InitialState();
  const double e0 = model.system->TotalEnergy(s);
  const double speed = std::sqrt(v0 * v0 + 2.0 * g * y0);
  // Three impacts and a bit.
  const double t_end = (speed - v0) / g + 2.0 * e * speed / g + 2.0 * e * e * speed / g + 0.05;
  const double h = 1e-2;
  double balance = 0.0;
  while (s.t < t_end) {
    REQUIRE(integrator.Step(*model.system, s, h).status == StepStatus::kAccepted);
    balance = std::max(balance, std::abs(model.system->TotalEnergy(s) + s.dissipated - e0) / e0);
  }
  REQUIRE(integrator.impacts().size() == 3u);
  double t_exact = (speed - v0) / g, v_exact = speed;
  for (const auto& impact : integrator.impacts()) {
    const double ratio = -impact.v_after[0] / impact.v_before[0];
    MESSAGE("impact at t = " << doctest::toString(impact.t) << ", t - exact = " << impact.t - t_exact
                             << ", v- + exact = " << impact.v_before[0] + v_exact << ", ratio - e = " << ratio - e);
    CHECK(std::abs(ratio - e) <= 1e-12);
    CHECK(std::abs(impact.t - t_exact) <= 1e-6);
    CHECK(std::abs(-impact.v_before[0] - v_exact) <= 1e-6 * v_exact);
    CHECK(impact.kinetic_energy_loss == doctest::Approx(0.5 * (1 - e * e) * impact.v_before[0] * impact.v_before[0]).epsilon(1e-12));
    v_exact *= e;
    t_exact += 2.0 * v_exact / g;
  }
  MESSAGE("max |E + D - E0| / E0 = " << balance);
  CHECK(balance < 1e-7);  // LSODAR's smooth-phase error (rtol 1e-10); the impact losses themselves are exact
}

TEST_CASE("siconos_event_driven: Newton's cradle of 3 beads at e = 1, the impact LCP's (-1/3, 2/3, 2/3), momentum to 1e-12") {
  ParameterSet p;
  p.Set("num_beads", 3.0);
  p.Set("k", 1.0e6);
  p.Set("normal_law", std::string("linear"));
  p.Set("m", 0.5);
  p.Set("R", 0.01);
  p.Set("v0", 2.0);
  const ModelInstance model = ModelRegistry().Get("bead_chain").make(p);
  auto integrator = IntegratorRegistry().Get("siconos_event_driven").make(p);
  MechanicalState s = model.system->InitialState();
  const Eigen::Vector3d p0 = *model.system->LinearMomentum(s);
  for (int i = 0; i < 20; ++i)
    REQUIRE(integrator->Step(*model.system, s, 1e-4).status == StepStatus::kAccepted);
  MESSAGE("event-driven cradle final velocities: " << s.v.transpose());
  CHECK((*model.system->LinearMomentum(s) - p0).norm() <= 1e-12 * p0.norm());
  // All three beads touch at the impact: one impact LCP over both contacts, the simultaneous-impact answer.
  const double v0 = 2.0;
  CHECK(std::abs(s.v[0] + v0 / 3.0) <= 1e-9 * v0);
  CHECK(std::abs(s.v[1] - 2.0 * v0 / 3.0) <= 1e-9 * v0);
  CHECK(std::abs(s.v[2] - 2.0 * v0 / 3.0) <= 1e-9 * v0);
}
