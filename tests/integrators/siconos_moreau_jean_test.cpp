// siconos_moreau_jean (integrators/siconos/siconos_moreau_jean.h) on the models whose contacts Siconos expresses:
// the ball on a floor under gravity (contact_oscillator with g) and Newton's cradle (bead_chain). Closed forms:
// free flight between impacts, rebound speed e·V at each impact [Moreau 1988; Acary & Brogliato 2008 §10.1];
// for 3 equal beads in contact struck at v₀ with e = 1 the simultaneous-impact LCP gives (−1/3, 2/3, 2/3) v₀
// [Acary & Brogliato 2008 §10.1 / the cradle example of Siconos; Brogliato 2016 "Nonsmooth Mechanics" §6].
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/parameter_set.h"
#include "registry/registries.h"

using namespace impactlab;

namespace {

struct Ball {
  double m = 1.0, g = 9.81, y0 = 1.0, v0 = 1.0, e = 0.8;
  double impact_speed() const { return std::sqrt(v0 * v0 + 2.0 * g * y0); }
  ParameterSet Keys() const {
    ParameterSet p;
    p.Set("normal_law", std::string("linear"));
    p.Set("k", 1.0e6);
    p.Set("m", m);
    p.Set("g", g);
    p.Set("initial_gap", y0);
    p.Set("v0", v0);
    p.Set("e", e);
    return p;
  }
};

// Apex heights of the first `n` rebounds (the maximum height between two impacts, from the step states) and
// the largest |E + D − E₀| / E₀ over the run.
struct BallRun {
  std::vector<double> apexes;
  double balance = 0.0;
};

BallRun RunBall(const Ball& ball, double h, int n, const std::string& integrator_name, ParameterSet extra = {}) {
  ParameterSet p = ball.Keys();
  for (const auto& [k, v] : extra.values()) p.Set(k, v);
  const ModelInstance model = ModelRegistry().Get("contact_oscillator").make(p);
  auto integrator = IntegratorRegistry().Get(integrator_name).make(p);
  MechanicalState s = model.system->InitialState();
  const double e0 = model.system->TotalEnergy(s);
  BallRun out;
  double apex = -1.0;
  bool rising = false;
  double t_end = 0.0, speed = ball.impact_speed();
  t_end += (speed - ball.v0) / ball.g;
  for (int k = 1; k <= n + 1; ++k) { speed *= ball.e; t_end += 2.0 * speed / ball.g; }
  while (s.t < t_end && static_cast<int>(out.apexes.size()) < n) {
    const double v_before = s.v[0];
    REQUIRE(integrator->Step(*model.system, s, h).status == StepStatus::kAccepted);
    // The books at states with the gap open: inside a penetrated step (|y| ≤ h|v|) the model's energy also counts
    // the compliant law's W(δ), which the rigid problem does not have.
    if (s.q[0] >= 0.0)
      out.balance = std::max(out.balance, std::abs(model.system->TotalEnergy(s) + s.dissipated - e0) / e0);
    if (v_before <= 0.0 && s.v[0] > 0.0) { rising = true; apex = s.q[0]; }
    if (rising) apex = std::max(apex, s.q[0]);
    if (rising && s.v[0] < 0.0) { out.apexes.push_back(apex); rising = false; }
  }
  return out;
}

}  // namespace

TEST_CASE("siconos_moreau_jean: ball on a floor, apex heights within their O(h) bound, first order measured") {
  const Ball ball;
  const int n = 3;
  // Each level h is run at 7 step sizes h·(1 … 1.42): the apex error depends on where the impact falls inside its
  // step (a phase), so single runs scatter by a factor ~3 while the level's mean converges with the scheme's order.
  const std::vector<double> hs = {4e-3, 2e-3, 1e-3, 5e-4};
  std::vector<double> mean_errors;
  for (double level : hs) {
    double sum = 0.0;
    int runs = 0;
    for (double factor : {1.0, 1.07, 1.14, 1.21, 1.28, 1.35, 1.42}) {
      const double h = level * factor;
      const BallRun run = RunBall(ball, h, n, "siconos_moreau_jean");
      REQUIRE(run.apexes.size() == static_cast<size_t>(n));
      double worst = 0.0, speed = ball.impact_speed(), bound = 0.0;
      for (int k = 0; k < n; ++k) {
        // The impact step starts at a height y_n with |y_n| ≤ h/2 |v| (it is active when its predicted gap
        // y_n + h/2 v_n ≤ 0 and the step before was not); it sets v_{n+1} = −e v_n and moves y by h/2 v_n (1 − e).
        // Free flight is exact for θ = ½ and a constant force, so the apex after the impact misses the exact one
        // by y_n (1 − e²) − (1 − e) h |v_n| / 2 ∈ [−(1 − e)(2 + e), (1 − e) e] h |v_n| / 2, and the error of the
        // bounce before carries over as e² times itself; |v_n| ≤ V_k + g h.
        bound = ball.e * ball.e * bound + (1.0 - ball.e) * (2.0 + ball.e) * 0.5 * h * (speed + ball.g * h);
        speed *= ball.e;
        const double exact = speed * speed / (2.0 * ball.g);
        // + g h²/8: the apex is read from the step states, at most h/2 from the discrete trajectory's summit.
        CHECK(std::abs(run.apexes[k] - exact) <= bound + ball.g * h * h / 8.0);
        worst = std::max(worst, std::abs(run.apexes[k] - exact));
      }
      sum += worst;
      ++runs;
    }
    mean_errors.push_back(sum / runs);
    MESSAGE("h = " << level << " (x 1 ... 1.42): mean max apex error over " << n << " rebounds = " << sum / runs);
  }
  // Least-squares slope of log(mean error) against log(h).
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < hs.size(); ++i) {
    const double x = std::log(hs[i]), y = std::log(mean_errors[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double m = static_cast<double>(hs.size());
  const double order = (m * sxy - sx * sy) / (m * sxx - sx * sx);
  MESSAGE("measured order of the apex heights: " << order);
  CHECK(order > 0.8);
  CHECK(order < 1.3);
}

TEST_CASE("siconos_moreau_jean: ball on a floor, theta = 1/2 closes the energy books (impact losses in D)") {
  const Ball ball;
  const BallRun run = RunBall(ball, 1e-3, 3, "siconos_moreau_jean");
  REQUIRE(run.apexes.size() == 3u);
  CHECK(run.balance < 1e-12);
}

TEST_CASE("siconos_moreau_jean: e = 1 ball rebounds to the exact apex") {
  Ball ball;
  ball.e = 1.0;
  const BallRun run = RunBall(ball, 1e-3, 2, "siconos_moreau_jean");
  REQUIRE(run.apexes.size() == 2u);
  const double exact = ball.impact_speed() * ball.impact_speed() / (2.0 * ball.g);
  // e = 1: the impact step moves y by h/2 v_n (1 − e) = 0 and the flight is exact, so only the reading of the
  // apex from the step states (at most h/2 from the summit: g h²/8) separates it from the exact one.
  for (double a : run.apexes) CHECK(std::abs(a - exact) <= ball.g * 1e-6 / 8.0 + 1e-12 * exact);
  CHECK(run.balance < 1e-12);
}

TEST_CASE("siconos_moreau_jean: theta outside [0.5, 1] is refused naming the key") {
  ParameterSet p;
  p.Set("siconos_theta", 0.3);
  CHECK_THROWS_WITH_AS((void)IntegratorRegistry().Get("siconos_moreau_jean").make(p),
                       doctest::Contains("siconos_theta"), InvalidParameter);
}

TEST_CASE("siconos_moreau_jean: Newton's cradle of 3 beads at e = 1 gives the simultaneous-impact (-1/3, 2/3, 2/3)") {
  ParameterSet p;
  p.Set("num_beads", 3.0);
  p.Set("k", 1.0e6);
  p.Set("normal_law", std::string("linear"));
  p.Set("m", 0.5);
  p.Set("R", 0.01);
  p.Set("v0", 2.0);
  const ModelInstance model = ModelRegistry().Get("bead_chain").make(p);
  auto integrator = IntegratorRegistry().Get("siconos_moreau_jean").make(p);
  MechanicalState s = model.system->InitialState();
  const Eigen::Vector3d p0 = *model.system->LinearMomentum(s);
  const double e0 = model.system->TotalEnergy(s);
  double drift = 0.0;
  for (int i = 0; i < 20; ++i) {
    REQUIRE(integrator->Step(*model.system, s, 1e-4).status == StepStatus::kAccepted);
    drift = std::max(drift, (*model.system->LinearMomentum(s) - p0).norm() / p0.norm());
  }
  const double v0 = 2.0;
  CHECK(std::abs(s.v[0] - (-v0 / 3.0)) <= 1e-9 * v0);
  CHECK(std::abs(s.v[1] - 2.0 * v0 / 3.0) <= 1e-9 * v0);
  CHECK(std::abs(s.v[2] - 2.0 * v0 / 3.0) <= 1e-9 * v0);
  CHECK(drift <= 1e-12);
  // e = 1: (1/9 + 4/9 + 4/9) v₀² — the simultaneous impact keeps T; the books must close.
  CHECK(std::abs(model.system->TotalEnergy(s) + s.dissipated - e0) <= 1e-12 * e0);
}

TEST_CASE("siconos_moreau_jean: 5-bead cradle touching to round-off, all contacts in one LCP, (-3/5, 2/5, 2/5, 2/5, 2/5)") {
  // R = 5 mm: the reference offsets X_{i+1} − X_i (e.g. 0.03 − 0.02) differ from 2R by ±ε·L, so some "touching"
  // gaps are ±1e-18 m. Touching to round-off must count as touching; else a sequence of impacts results
  // ((−1/2, 1/4, 1/4, 1/4, 3/4) was observed before the activation threshold).
  ParameterSet p;
  p.Set("num_beads", 5.0);
  p.Set("E_star", 1.15e11);
  p.Set("R_star", 0.0025);
  p.Set("R", 0.005);
  p.Set("m", 0.0041);
  p.Set("v0", 1.0);
  const ModelInstance model = ModelRegistry().Get("bead_chain").make(p);
  auto integrator = IntegratorRegistry().Get("siconos_moreau_jean").make(p);
  MechanicalState s = model.system->InitialState();
  for (int i = 0; i < 50; ++i) REQUIRE(integrator->Step(*model.system, s, 1e-7).status == StepStatus::kAccepted);
  CHECK(std::abs(s.v[0] + 0.6) <= 1e-9);
  for (int i = 1; i < 5; ++i) CHECK(std::abs(s.v[i] - 0.4) <= 1e-9);
}
