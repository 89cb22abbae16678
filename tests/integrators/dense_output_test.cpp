// Dense output and event interpolation: dopri5's continuous extension and the driver's cubic Hermite
// interpolant against the exact harmonic oscillator inside one step.
#include <doctest/doctest.h>

#include <cmath>

#include "integrators/odeint_runge_kutta.h"
#include "integrators/simulation.h"
#include "support/analytic_problems.h"

using namespace impactlab;

TEST_CASE("dopri5 dense output inside the last step") {
  const testing::HarmonicOscillator osc(1.0, 4.0, 0.2, -0.3);
  OdeintRungeKutta dopri(OdeintMethod::kDopri5, {1e-12, 1e-12});
  MechanicalState s = osc.InitialState();
  REQUIRE(dopri.Step(osc, s, 0.4).status == StepStatus::kAccepted);
  for (double t : {0.0, 0.05, 0.13, 0.27, 0.4}) {
    auto mid = dopri.Interpolate(osc, t);
    REQUIRE(mid.has_value());
    CHECK(mid->q[0] == doctest::Approx(osc.ExactPosition(t)).epsilon(1e-9));
    CHECK(mid->v[0] == doctest::Approx(osc.ExactVelocity(t)).epsilon(1e-9));
  }
  CHECK_FALSE(dopri.Interpolate(osc, 0.5).has_value());  // outside the step
}

TEST_CASE("cubic Hermite interpolation between exact end points is O(h^4)") {
  const testing::HarmonicOscillator osc(1.0, 1.0, 1.0, 0.0);
  auto exact = [&](double t) {
    MechanicalState s = osc.InitialState();
    s.t = t;
    s.q[0] = osc.ExactPosition(t);
    s.v[0] = osc.ExactVelocity(t);
    return s;
  };
  double previous = 0;
  for (double h : {0.2, 0.1, 0.05}) {
    const MechanicalState mid = HermiteInterpolate(osc, exact(0.0), exact(h), 0.5 * h);
    const double err = std::abs(mid.q[0] - osc.ExactPosition(0.5 * h));
    if (previous > 0) CHECK(previous / err == doctest::Approx(16.0).epsilon(0.05));
    previous = err;
  }
}
