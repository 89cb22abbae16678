// Measured (never declared) orders [THEORY.md §12.9]: global error at fixed T on the undamped harmonic
// oscillator against the exact solution, for h = h0/2^k, least-squares slope of log error vs log h within
// ±0.15 of the nominal order. Adaptive odeint steppers are run with a tolerance so loose that they take
// exactly one internal step per outer step, which exposes the order of the propagated solution.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "registry/registries.h"
#include "support/analytic_problems.h"

using namespace impactlab;

namespace {

double GlobalError(Integrator& integrator, const testing::HarmonicOscillator& osc, double t_end, int n) {
  MechanicalState s = osc.InitialState();
  integrator.Reset();
  const double h = t_end / n;
  for (int i = 0; i < n; ++i) REQUIRE(integrator.Step(osc, s, h).status == StepStatus::kAccepted);
  return std::hypot(s.q[0] - osc.ExactPosition(t_end), (s.v[0] - osc.ExactVelocity(t_end)) / osc.omega());
}

double FittedSlope(const std::vector<double>& h, const std::vector<double>& err) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(h.size());
  for (size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(err[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace

TEST_CASE("observed order on the undamped linear oscillator") {
  const testing::HarmonicOscillator osc(2.0, 8.0, 0.3, 0.7);  // ω = 2
  const double t_end = 2.0 * std::numbers::pi;                  // two periods
  struct Case {
    const char* name;
    double nominal;
    int n0;  ///< coarsest number of steps (chosen so all levels are asymptotic and above round-off)
    int levels = 4;
  };
  const std::vector<Case> cases = {{"velocity_verlet", 2, 64}, {"rk4", 4, 32},   {"mclachlan4", 4, 16},
                                   {"dopri5", 5, 16},          {"rkf78", 8, 16, 3}};
  ParameterSet loose;  // one internal step per outer step for the adaptive odeint steppers
  loose.Set("rk_atol", 1e6);
  loose.Set("rk_rtol", 1e6);
  for (const auto& c : cases) {
    SUBCASE(c.name) {
      auto integrator = IntegratorRegistry().Get(c.name).make(loose);
      std::vector<double> hs, errs;
      for (int k = 0; k < c.levels; ++k) {
        const int n = c.n0 << k;
        hs.push_back(t_end / n);
        errs.push_back(GlobalError(*integrator, osc, t_end, n));
      }
      const double slope = FittedSlope(hs, errs);
      INFO("coarsest error " << errs.front() << ", finest " << errs.back());
      CHECK(std::abs(slope - c.nominal) <= 0.15);
      CHECK(errs.back() > 1e-13);  // above round-off: the fit measured truncation, not noise
    }
  }
}

TEST_CASE("CVODE BDF: error proportional to the tolerance") {
  const testing::HarmonicOscillator osc(1.0, 1.0, 1.0, 0.0);
  const double t_end = 2.0 * std::numbers::pi;
  for (double rtol : {1e-6, 1e-9}) {
    ParameterSet p;
    p.Set("cvode_rtol", rtol);
    p.Set("cvode_atol", rtol * 1e-3);
    auto integrator = IntegratorRegistry().Get("cvode_bdf").make(p);
    const double err = GlobalError(*integrator, osc, t_end, 10);
    INFO("rtol " << rtol << " error " << err);
    CHECK(err < 300.0 * rtol);  // BDF global error is a modest multiple of rtol over two periods
    CHECK(err > 1e-3 * rtol);   // and not suspiciously exact
  }
}
