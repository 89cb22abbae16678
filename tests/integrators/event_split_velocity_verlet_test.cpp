// velocity_verlet_event vs velocity_verlet on the 1-D contact oscillator [docs/theory.md §12.3, §7].
//
//  1. Linear spring–dashpot calibrated to e = 0.5 (unclipped force, so e = exp(−πξ/√(1−ξ²)) exactly,
//     Seed000 eq. 23): the restitution error, taken as the worst case over several step phases of the
//     onset, converges at order ≈ 2 with event splitting and ≈ 1 without (the dashpot force jumps to c v₀
//     at onset and from −c v_out at release).
//  2. Undamped Hertz: the energy error left after separation vs the peak in-contact energy error.
//  3. A free particle (with and without gravity, no contact) is integrated exactly.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <vector>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "contact/restitution_calibration.h"
#include "integrators/event_split_velocity_verlet.h"
#include "integrators/velocity_verlet.h"
#include "models/contact_oscillator.h"
#include "convergence/order_fit.h"

using namespace impactlab;

namespace {

constexpr double kMass = 1.0;         // [kg]
constexpr double kStiffness = 1e4;    // [N/m] (linear) or [N/m^1.5] (Hertz)
constexpr double kImpactSpeed = 1.0;  // [m/s]
// Onset phases: initial gap = φ v₀ h, so contact starts at the fraction φ of a step. φ = 0.001 (onset just
// after a step boundary) is where plain Verlet's O(h) restitution error lives: a 400-phase scan at 20..160
// steps per contact gives a sup error 3.5e-2, 1.7e-2, 8.7e-3, 4.3e-3 (order 1) inside a phase window
// φ ≲ 0.5/N, and O(h²) (median 6.0e-4 .. 9.3e-6) elsewhere (docs/event-splitting.md).
const std::vector<double> kPhases = {0.001, 0.13, 0.37, 0.61, 0.89};

struct ImpactRun {
  double restitution = 0.0;         ///< v_final / v₀ after separation (free flight, g = 0: v is constant)
  double peak_energy_error = 0.0;   ///< max |E + D − E₀| over in-contact steps [J]
  double final_energy_error = 0.0;  ///< |E + D − E₀| after separation [J]
  int located_events = 0;
  int retries = 0;                  ///< steps redone as two half steps
};

ImpactRun RunImpact(Integrator& integrator, const ContactOscillator& proto, double h, double phase) {
  ContactOscillatorParameters p = proto.parameters();
  p.initial_gap = phase * p.impact_velocity * h;
  const ContactOscillator osc(p, proto.law());
  MechanicalState s = osc.InitialState();
  const double e0 = osc.TotalEnergy(s);
  integrator.Reset();
  ImpactRun run;
  bool touched = false;
  std::vector<double> d(1), r(1);
  for (int n = 0; n < 1'000'000; ++n) {
    StepResult result = integrator.Step(osc, s, h);
    if (result.status == StepStatus::kRetrySmallerStep) {
      // What the Simulate driver does: two half steps. (Plain velocity_verlet's fixed point can miss its
      // 1e-15 relative test when v ≈ 0 at maximum penetration.)
      ++run.retries;
      for (int k = 0; k < 2 && result.status != StepStatus::kFailed; ++k) {
        result = integrator.Step(osc, s, 0.5 * h);
        INFO(integrator.name() << " phase " << phase << " t " << s.t << ": " << result.message);
        REQUIRE(result.status == StepStatus::kAccepted);
        run.located_events += static_cast<int>(result.events.size());
      }
    } else {
      INFO(integrator.name() << " phase " << phase << " t " << s.t << ": " << result.message);
      REQUIRE(result.status == StepStatus::kAccepted);
      run.located_events += static_cast<int>(result.events.size());
    }
    osc.ContactOverlaps(s, d, r);
    const double err = std::abs(osc.TotalEnergy(s) + s.dissipated - e0);
    if (d[0] > 0.0) {
      touched = true;
      run.peak_energy_error = std::max(run.peak_energy_error, err);
    } else if (touched && s.v[0] > 0.0) {
      // Separated and moving away; a few more free-flight steps must not change anything.
      for (int k = 0; k < 3; ++k) REQUIRE(integrator.Step(osc, s, h).status == StepStatus::kAccepted);
      run.final_energy_error = std::abs(osc.TotalEnergy(s) + s.dissipated - e0);
      run.restitution = s.v[0] / p.impact_velocity;
      return run;
    }
  }
  FAIL("no separation");
  return run;
}

/// The observed order: the project's least-squares fit (validation/convergence/order_fit.h) over every level.
double FittedSlope(const std::vector<double>& h, const std::vector<double>& err) {
  const auto fit = FitOrder(h, err, std::vector<bool>(h.size(), true));
  REQUIRE(fit.has_value());
  return fit->order;
}

ContactOscillator Oscillator(DampedNormalLaw law) {
  ContactOscillatorParameters p;
  p.mass = kMass;
  p.impact_velocity = kImpactSpeed;
  return ContactOscillator(p, std::move(law));
}

}  // namespace

TEST_CASE("velocity_verlet_event: restitution of the linear spring-dashpot converges at order 2") {
  const double e = 0.5;
  const double xi = DampingRatioFromRestitution(e);
  const ContactOscillator osc = Oscillator(DampedNormalLaw{
      std::make_shared<LinearLaw>(kStiffness), std::make_shared<LinearViscousDamping>(2 * xi * std::sqrt(kMass * kStiffness))});
  const double e_exact = RestitutionFromDampingRatio(xi);
  const double t_contact = std::numbers::pi / (std::sqrt(kStiffness / kMass) * std::sqrt(1 - xi * xi));
  // 4 levels, 20 .. 160 steps per contact (asymptotic, far above round-off).
  constexpr double kPlainMaxSlope = 1.5;  // plain Verlet: O(h) exit/onset error of docs/theory.md §12.3 (measured ≈ 1)
  constexpr double kEventMinSlope = 1.8;  // event split: second order restored (nominal 2)
  VelocityVerlet plain;
  EventSplitVelocityVerlet event;
  std::vector<double> hs, err_plain, err_event;
  for (int level = 0; level < 4; ++level) {
    const double h = t_contact / (20 << level);
    double worst_plain = 0, worst_event = 0;
    for (double phase : kPhases) {
      worst_plain = std::max(worst_plain, std::abs(RunImpact(plain, osc, h, phase).restitution - e_exact));
      const ImpactRun ev = RunImpact(event, osc, h, phase);
      CHECK(ev.located_events == 2);  // onset and release
      worst_event = std::max(worst_event, std::abs(ev.restitution - e_exact));
    }
    hs.push_back(h);
    err_plain.push_back(worst_plain);
    err_event.push_back(worst_event);
    std::printf("[vv_event] linear dashpot e=0.5, %4d steps/contact: |e-e_exact| plain %.3e  event %.3e\n",
                20 << level, worst_plain, worst_event);
  }
  const double slope_plain = FittedSlope(hs, err_plain), slope_event = FittedSlope(hs, err_event);
  std::printf("[vv_event] restitution error order: plain velocity_verlet %.3f, velocity_verlet_event %.3f\n",
              slope_plain, slope_event);
  CHECK(slope_plain < kPlainMaxSlope);
  CHECK(slope_event >= kEventMinSlope);
  CHECK(err_event.back() < err_plain.back());
  CHECK(err_event.back() > 1e-13);  // the fit measured truncation, not round-off
}

TEST_CASE("velocity_verlet_event: energy error left after separation, undamped linear and Hertz") {
  struct Case {
    const char* law;
    std::shared_ptr<const NormalContactLaw> elastic;
    double event_ratio_max;  ///< asserted bound on (error after separation) / (peak in-contact error), event
    double plain_ratio_min;  ///< ... lower bound for plain Verlet (0: not asserted)
  };
  // Linear: W'' jumps at δ = 0. Measured worst ratios over the phases at 80 steps/contact: event 3e-4,
  // plain 1.9e-2 (docs/event-splitting.md), so 1e-3 (the target) and 1e-2 separate them.
  // Hertz: force and W'' continuous at δ = 0 — splitting gains little; measured ratios 0.02–0.09 for both
  // (the 1e-3 target is NOT met for Hertz; bound 0.2 asserts only "well below the peak").
  const std::vector<Case> cases = {{"linear", std::make_shared<LinearLaw>(kStiffness), 1e-3, 1e-2},
                                   {"hertz", std::make_shared<HertzLaw>(kStiffness), 0.2, 0.0}};
  VelocityVerlet plain;
  EventSplitVelocityVerlet event;
  for (const auto& c : cases) {
    CAPTURE(c.law);
    const ContactOscillator osc = Oscillator(DampedNormalLaw{c.elastic, std::make_shared<NoDamping>()});
    const double t_contact = std::numbers::pi / std::sqrt(kStiffness / kMass);  // linear; Hertz: same order
    const double h = t_contact / 80.0;
    double plain_peak = 0, plain_after = 0, event_peak = 0, event_after = 0;
    for (double phase : kPhases) {
      const ImpactRun a = RunImpact(plain, osc, h, phase);
      const ImpactRun b = RunImpact(event, osc, h, phase);
      plain_peak = std::max(plain_peak, a.peak_energy_error);
      plain_after = std::max(plain_after, a.final_energy_error);
      event_peak = std::max(event_peak, b.peak_energy_error);
      event_after = std::max(event_after, b.final_energy_error);
    }
    std::printf("[vv_event] %s undamped, h = t_c/80, worst over phases: plain peak %.3e after %.3e (ratio %.2e) | "
                "event peak %.3e after %.3e (ratio %.2e)\n",
                c.law, plain_peak, plain_after, plain_after / plain_peak, event_peak, event_after,
                event_after / event_peak);
    CHECK(event_after <= c.event_ratio_max * event_peak);
    if (c.plain_ratio_min > 0) CHECK(plain_after >= c.plain_ratio_min * plain_peak);
    CHECK(event_after < plain_after);
  }
}

TEST_CASE("velocity_verlet_event: a free particle is integrated exactly") {
  for (double g : {0.0, 9.81}) {
    CAPTURE(g);
    ContactOscillatorParameters p;
    p.mass = 2.0;
    p.impact_velocity = 0.5;
    p.initial_gap = 10.0;  // never reaches the wall within t_end
    p.gravity = g;
    const ContactOscillator osc(p, DampedNormalLaw{std::make_shared<LinearLaw>(kStiffness),
                                                   std::make_shared<LinearViscousDamping>(3.0)});
    EventSplitVelocityVerlet integrator;
    MechanicalState s = osc.InitialState();
    const double h = 0.01;
    for (int n = 0; n < 100; ++n) {
      const StepResult r = integrator.Step(osc, s, h);
      REQUIRE(r.status == StepStatus::kAccepted);
      CHECK(r.events.empty());
    }
    const double t = s.t;
    CHECK(t == doctest::Approx(1.0).epsilon(1e-14));
    CHECK(s.q[0] == doctest::Approx(10.0 - 0.5 * t - 0.5 * g * t * t).epsilon(1e-13));
    CHECK(s.v[0] == doctest::Approx(-0.5 - g * t).epsilon(1e-13));
    CHECK(s.dissipated == 0.0);
  }
}
