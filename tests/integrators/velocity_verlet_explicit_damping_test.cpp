// velocity_verlet_explicit_damping (integrators/velocity_verlet.h, VerletDamping::kHalfStepVelocity), the DEM codes' Verlet:
//  1. without velocity-dependent forces it is velocity_verlet bit for bit;
//  2. on the damped linear oscillator m ẍ + c ẋ + k x = 0 (closed form x(t) = e^{−ζω₀t}(x₀ cos ω_d t +
//     (v₀ + ζω₀x₀)/ω_d sin ω_d t)) it is FIRST order — the dampers see v_{n+½}, an O(h) lag — while
//     velocity_verlet, which iterates the end velocity, is second order on the same ladder;
//  3. one force evaluation per step, damped or not.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "integrators/velocity_verlet.h"
#include "models/harmonic_oscillator.h"
#include "support/analytic_problems.h"

using namespace impactlab;
using impactlab::testing::DampedOscillator;

namespace {

double FinalError(Integrator& integrator, const DampedOscillator& osc, double t_end, int steps) {
  MechanicalState s = osc.InitialState();
  integrator.Reset();
  const double h = t_end / steps;
  for (int n = 0; n < steps; ++n) REQUIRE(integrator.Step(osc, s, h).status == StepStatus::kAccepted);
  double x = 0.0, v = 0.0;
  osc.Exact(s.t, x, v);
  return std::hypot(s.q[0] - x, (s.v[0] - v) / osc.omega0());
}

double ObservedOrder(Integrator& integrator, const DampedOscillator& osc) {
  // T = 3.7 s (not a whole number of periods), h = 0.02 … 0.0025 s, least-squares slope of log e vs log h.
  std::vector<double> lh, le;
  for (int steps : {185, 370, 740, 1480}) {
    lh.push_back(std::log(3.7 / steps));
    le.push_back(std::log(FinalError(integrator, osc, 3.7, steps)));
  }
  double mh = 0.0, me = 0.0;
  for (size_t i = 0; i < lh.size(); ++i) mh += lh[i] / lh.size(), me += le[i] / le.size();
  double num = 0.0, den = 0.0;
  for (size_t i = 0; i < lh.size(); ++i) num += (lh[i] - mh) * (le[i] - me), den += (lh[i] - mh) * (lh[i] - mh);
  return num / den;
}

}  // namespace

TEST_CASE("velocity_verlet_explicit_damping: without dampers it is velocity_verlet bit for bit") {
  const HarmonicOscillator osc(2.0, 50.0, 0.1, -0.3);
  VelocityVerlet vv;
  VelocityVerlet dem(VerletDamping::kHalfStepVelocity);
  MechanicalState a = osc.InitialState(), b = osc.InitialState();
  for (int n = 0; n < 1000; ++n) {
    REQUIRE(vv.Step(osc, a, 0.01).status == StepStatus::kAccepted);
    REQUIRE(dem.Step(osc, b, 0.01).status == StepStatus::kAccepted);
  }
  CHECK(std::memcmp(a.q.data(), b.q.data(), sizeof(double)) == 0);
  CHECK(std::memcmp(a.v.data(), b.v.data(), sizeof(double)) == 0);
  CHECK(a.t == b.t);
  CHECK(dem.statistics().rhs_evaluations == 1001);  // one per step, plus a_0
}

TEST_CASE("velocity_verlet_explicit_damping: first order on the damped oscillator, velocity_verlet second") {
  const DampedOscillator osc(1.0, 1.0, 0.4, 1.0);  // ζ = 0.2
  VelocityVerlet dem(VerletDamping::kHalfStepVelocity);
  VelocityVerlet vv;
  const double p_dem = ObservedOrder(dem, osc), p_vv = ObservedOrder(vv, osc);
  INFO("observed orders: explicit damping " << p_dem << ", velocity_verlet " << p_vv);
  CHECK(p_dem == doctest::Approx(1.0).epsilon(0.15));
  CHECK(p_vv == doctest::Approx(2.0).epsilon(0.075));
  // One force evaluation per step also with dampers (velocity_verlet iterates its end velocity).
  dem.Reset();
  MechanicalState s = osc.InitialState();
  const long before = dem.statistics().rhs_evaluations;
  for (int n = 0; n < 100; ++n) REQUIRE(dem.Step(osc, s, 0.01).status == StepStatus::kAccepted);
  CHECK(dem.statistics().rhs_evaluations - before == 101);
}
