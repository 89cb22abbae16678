// FengPowerLawSolution against CVODE (rtol 1e-12) on the ContactOscillator model, and the "exact" stepper
// against the solution: grid of p, e, v0 with m ≠ 1, k ≠ 1 [docs/theory.md §5, §10 row 11].
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "contact/restitution_calibration.h"
#include "core/errors.h"
#include "exact/feng_power_law_solution.h"
#include "integrators/cvode_bdf.h"
#include "integrators/exact_oscillator_stepper.h"
#include "integrators/simulation.h"
#include "integrators/velocity_verlet.h"
#include "metrics/contact_metrics.h"
#include "models/contact_oscillator.h"

using namespace impactlab;

namespace {
// CVODE at rtol 1e-12 / atol 1e-14 (root finding at δ = 0) reproduces e, δ_max to ~1e-11 and t_c to ~1e-10
// in this grid; the claims of issue 3 are 1e-9 (e, δ_max) and 1e-8 (t_c).
constexpr double kCvodeRestitutionTol = 1e-9;
constexpr double kCvodeMaxOverlapTol = 1e-9;
constexpr double kCvodeContactTimeTol = 1e-8;
// Exact stepper vs solution: both are the same closed form; only quadrature/root round-off (1e-13).
constexpr double kExactStepperTol = 1e-12;

std::shared_ptr<ContactOscillator> Oscillator(double m, double k, double p, double alpha, double v0, double gap,
                                              double gravity = 0.0) {
  ContactOscillatorParameters op;
  op.mass = m;
  op.impact_velocity = v0;
  op.initial_gap = gap;
  op.gravity = gravity;
  auto elastic = std::make_shared<PowerLaw>(k, p);
  std::shared_ptr<const DampingLaw> damping;
  if (alpha > 0.0)
    damping = std::make_shared<TsujiDamping>(alpha, m, k, p);
  else
    damping = std::make_shared<NoDamping>();
  return std::make_shared<ContactOscillator>(op, DampedNormalLaw{elastic, damping});
}

ContactMetrics RunFirstContact(const MechanicalSystem& sys, Integrator& integrator, double t_end, double dt) {
  SimulationOptions so;
  so.t_end = t_end;
  so.dt = dt;
  so.stop_after_separation = dt;
  const auto rec = Simulate(sys, integrator, sys.InitialState(), so, {});
  return FirstContactMetrics(rec.events, 0);
}
}  // namespace

TEST_CASE("FengPowerLawSolution agrees with CVODE (rtol 1e-12) on a grid of p, e, v0, m, k") {
  CvodeBdf::Options co;
  co.rel_tol = 1e-12;
  co.abs_tol = 1e-14;
  for (double p : {1.0, 1.5, 2.5, 3.0}) {
    for (double e : {0.2, 0.8}) {
      for (double v0 : {0.4, 3.0}) {
        const double m = 0.3, k = 25.0;
        CAPTURE(p);
        CAPTURE(e);
        CAPTURE(v0);
        const auto sol = FengPowerLawSolution::FromRestitution(m, k, p, e, v0);
        auto sys = Oscillator(m, k, p, TsujiAlphaFromRestitution(e, p), v0, 0.0);
        CvodeBdf cvode(co);
        const auto cm = RunFirstContact(*sys, cvode, 1.5 * sol.contact_time(), sol.contact_time() / 200);
        REQUIRE(cm.rebounds);
        CHECK(*cm.restitution == doctest::Approx(sol.restitution()).epsilon(kCvodeRestitutionTol));
        CHECK(*cm.max_overlap == doctest::Approx(sol.max_overlap()).epsilon(kCvodeMaxOverlapTol));
        CHECK(*cm.contact_duration == doctest::Approx(sol.contact_time()).epsilon(kCvodeContactTimeTol));
      }
    }
  }
}

TEST_CASE("exact stepper reproduces the solution across entry, contact and exit (any step size)") {
  for (double p : {1.0, 1.5, 3.0}) {
    for (double h_frac : {0.013, 0.3, 2.5}) {  // many steps per contact, few, and one step over the whole contact
      const double m = 2.0, k = 7.0, v0 = 1.3, e = 0.4, gap = 0.05;
      const auto sol = FengPowerLawSolution::FromRestitution(m, k, p, e, v0);
      auto sys = Oscillator(m, k, p, TsujiAlphaFromRestitution(e, p), v0, gap);
      ExactOscillatorStepper stepper;
      MechanicalState s = sys->InitialState();
      const double t_hit = gap / v0, h = h_frac * sol.contact_time();
      for (int n = 0; n < 12; ++n) {
        REQUIRE(stepper.Step(*sys, s, h).status == StepStatus::kAccepted);
        const double tc = s.t - t_hit;
        const double delta_expected = tc < 0 ? -(gap - v0 * s.t) : sol.StateAtTime(tc).delta;
        const double rate_expected = tc < 0 ? v0 : sol.StateAtTime(tc).delta_dot;
        CHECK(std::abs(-s.q[0] - delta_expected) <= kExactStepperTol * (sol.max_overlap() + std::abs(s.q[0])));
        CHECK(std::abs(-s.v[0] - rate_expected) <= kExactStepperTol * v0);
        // energy books: E + D = E0 exactly
        const double e_total = sys->TotalEnergy(s) + s.dissipated;
        CHECK(e_total == doctest::Approx(0.5 * m * v0 * v0).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("exact stepper in the simulation driver: located events equal the closed forms") {
  const double m = 0.5, k = 3.0, p = 2.5, e = 0.6, v0 = 0.8, gap = 0.01;
  const auto sol = FengPowerLawSolution::FromRestitution(m, k, p, e, v0);
  auto sys = Oscillator(m, k, p, TsujiAlphaFromRestitution(e, p), v0, gap);
  ExactOscillatorStepper stepper;
  const auto cm = RunFirstContact(*sys, stepper, 2 * sol.contact_time(), sol.contact_time() / 7);
  REQUIRE(cm.rebounds);
  CHECK(*cm.restitution == doctest::Approx(e).epsilon(kExactStepperTol));
  CHECK(*cm.contact_duration == doctest::Approx(sol.contact_time()).epsilon(kExactStepperTol));
  CHECK(*cm.max_overlap == doctest::Approx(sol.max_overlap()).epsilon(kExactStepperTol));
  CHECK(cm.t_start == doctest::Approx(gap / v0).epsilon(1e-15));
}

TEST_CASE("exact stepper: over-damped body creeps back and never leaves") {
  const double p = 1.5, alpha = 1.3 * std::sqrt(2 * (p + 1));
  auto sys = Oscillator(1.0, 1.0, p, alpha, 1.0, 0.0);
  ExactOscillatorStepper stepper;
  MechanicalState s = sys->InitialState();
  double delta_max = 0;
  for (int n = 0; n < 40; ++n) {
    REQUIRE(stepper.Step(*sys, s, 0.5).status == StepStatus::kAccepted);
    delta_max = std::max(delta_max, -s.q[0]);
    CHECK(-s.q[0] > 0.0);
  }
  FengPowerLawParameters fp;
  fp.exponent = p;
  fp.alpha = alpha;
  const FengPowerLawSolution sol(fp);
  CHECK(-s.q[0] == doctest::Approx(sol.StateAtTime(20.0).delta).epsilon(1e-10));
  CHECK(delta_max <= sol.max_overlap() * (1 + 1e-13));
}

TEST_CASE("exact stepper refuses systems it cannot solve, naming why") {
  ExactOscillatorStepper stepper;
  auto with_gravity = Oscillator(1, 1, 1.5, 0.2, 1, 0.1, 9.81);
  MechanicalState s = with_gravity->InitialState();
  const MechanicalState s0 = s;
  CHECK_THROWS_WITH_AS((void)stepper.Step(*with_gravity, s, 0.1), doctest::Contains("gravity"), InvalidParameter);
  CHECK(s.q == s0.q);  // state restored
  ContactOscillatorParameters op;
  auto kk = std::make_shared<ContactOscillator>(
      op, DampedNormalLaw{std::make_shared<HertzLaw>(1.0), std::make_shared<KuwabaraKonoDamping>(0.1)});
  s = kk->InitialState();
  CHECK_THROWS_WITH_AS((void)stepper.Step(*kk, s, 0.1), doctest::Contains("kuwabara_kono"), InvalidParameter);
}

TEST_CASE("ContactOscillator exposes its power-law Tsuji structure for every Tsuji-form damping") {
  ContactOscillatorParameters op;
  op.mass = 2.0;
  const double k = 5.0, xi = 0.3;
  auto alpha_of = [&](std::shared_ptr<const NormalContactLaw> el, std::shared_ptr<const DampingLaw> d) {
    ContactOscillator osc(op, DampedNormalLaw{std::move(el), std::move(d)});
    std::string why;
    const auto s = osc.PowerLawOscillator(&why);
    CAPTURE(why);
    REQUIRE(s.has_value());
    CHECK(s->mass == 2.0);
    CHECK(s->stiffness == k);
    CHECK(s->overlap_per_coordinate == -1.0);
    return s->alpha;
  };
  for (double p : {1.0, 1.5, 2.0, 3.0}) {
    auto el = std::make_shared<PowerLaw>(k, p);
    // universal C = 2ξ√(m k_eff) is Tsuji with α = √(2(p+1)) ξ [docs/theory.md §3]
    CHECK(alpha_of(el, std::make_shared<UniversalDamping>(xi, 2.0, el)) ==
          doctest::Approx(std::sqrt(2 * (p + 1)) * xi).epsilon(1e-14));
    CHECK(alpha_of(el, std::make_shared<TsujiDamping>(0.7, 2.0, k, p)) == doctest::Approx(0.7).epsilon(1e-14));
    CHECK(alpha_of(el, std::make_shared<NoDamping>()) == 0.0);
  }
  CHECK(alpha_of(std::make_shared<LinearLaw>(k), std::make_shared<LinearViscousDamping>(1.5)) ==
        doctest::Approx(1.5 / std::sqrt(2.0 * k)).epsilon(1e-14));
  CHECK(alpha_of(std::make_shared<PowerLaw>(k, 2.0), std::make_shared<KuwabaraKonoDamping>(0.4)) ==
        doctest::Approx(0.4 / std::sqrt(2.0 * k)).epsilon(1e-14));
  // not of the form: a Tsuji law bound to another exponent, linear dashpot on Hertz
  std::string why;
  ContactOscillator wrong_p(op, DampedNormalLaw{std::make_shared<PowerLaw>(k, 1.5),
                                                std::make_shared<TsujiDamping>(0.7, 2.0, k, 2.5)});
  CHECK_FALSE(wrong_p.PowerLawOscillator(&why).has_value());
  CHECK(why.find("not bound") != std::string::npos);
  ContactOscillator dashpot_hertz(op, DampedNormalLaw{std::make_shared<HertzLaw>(k), std::make_shared<LinearViscousDamping>(1.0)});
  CHECK_FALSE(dashpot_hertz.PowerLawOscillator(&why).has_value());
  CHECK(why.find("linear_viscous") != std::string::npos);
}
