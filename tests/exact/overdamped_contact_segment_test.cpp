// OverdampedContactSegment: p = 1 against the linear over-damped oscillator through an arbitrary state,
// the semigroup property for p > 1, and the exact stepper on such states.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "core/errors.h"
#include "exact/overdamped_contact_segment.h"
#include "integrators/exact_oscillator_stepper.h"
#include "models/contact_oscillator.h"

using namespace impactlab;

namespace {
// p = 1: δ = x and t = s exactly; only exp/log round-off remains.
constexpr double kClosedFormTol = 1e-12;

// Linear over-damped oscillator m δ̈ + c δ̇ + k δ = 0 through (δ0, v0), ζ = c/(2√(mk)) > 1.
double LinearDelta(double w0, double zeta, double d0, double v0, double t) {
  const double sg = std::sqrt(zeta * zeta - 1), r1 = w0 * (-zeta + sg), r2 = w0 * (-zeta - sg);
  const double a1 = (v0 - r2 * d0) / (r1 - r2), a2 = (r1 * d0 - v0) / (r1 - r2);
  return a1 * std::exp(r1 * t) + a2 * std::exp(r2 * t);
}
}  // namespace

TEST_CASE("OverdampedContactSegment p = 1 equals the linear over-damped oscillator") {
  const double m = 2.0, k = 8.0, w0 = 2.0, zeta = 1.5, alpha = 2 * zeta;  // α = 2ζ at p = 1
  const double d0 = 0.3;
  const double sg = std::sqrt(zeta * zeta - 1), r1 = -zeta + sg, r2 = -zeta - sg;
  // exits (R < r2) and stays (r2 < R < r1)
  for (double big_r : {1.3 * r2, 0.5 * (r1 + r2)}) {
    const double v0 = big_r * w0 * d0;
    const OverdampedContactSegment seg(m, k, 1.0, alpha, d0, v0);
    CHECK(seg.exits() == (big_r < r2));
    if (seg.exits()) {
      const double tz = std::log((r1 - big_r) / (r2 - big_r)) / (r1 - r2) / w0;
      CHECK(seg.time_to_exit() == doctest::Approx(tz).epsilon(kClosedFormTol));
      CHECK(LinearDelta(w0, zeta, d0, v0, tz) == doctest::Approx(0.0).epsilon(1e-13).scale(d0));
      CHECK(seg.exit_velocity() < 0.0);
    }
    for (double t : {0.01, 0.2, 0.5}) {
      if (seg.exits() && t >= seg.time_to_exit()) continue;
      CHECK(seg.StateAfter(t).delta == doctest::Approx(LinearDelta(w0, zeta, d0, v0, t)).epsilon(kClosedFormTol));
    }
  }
}

TEST_CASE("OverdampedContactSegment p = 2.5: semigroup property and monotone energy") {
  const double m = 1.0, k = 3.0, p = 2.5, zeta = 1.2, alpha = zeta * std::sqrt(2 * (p + 1));
  const double d0 = 0.5;
  // R = δ̇/(Ω₀x₀) with x₀ = 0.2247, Ω₀ = √3; r₂ = −1.863, r₁ = −0.537: v0 = −20 exits (R < r₂),
  // v0 = −0.4 (R = −1.03 ∈ (r₂, r₁)) stays in contact forever.
  for (double v0 : {-20.0, -0.4}) {
    const OverdampedContactSegment seg(m, k, p, alpha, d0, v0);
    CHECK(seg.exits() == (v0 < -1.0));
    const double h1 = seg.exits() ? 0.4 * seg.time_to_exit() : 0.3, h2 = h1 * 0.9;
    const auto a = seg.StateAfter(h1);
    const OverdampedContactSegment seg2(m, k, p, alpha, a.delta, a.delta_dot);
    const auto b = seg2.StateAfter(h2);
    const auto c = seg.StateAfter(h1 + h2);
    CHECK(b.delta == doctest::Approx(c.delta).epsilon(1e-11));
    CHECK(b.delta_dot == doctest::Approx(c.delta_dot).epsilon(1e-10));
    auto energy = [&](double d, double dd) { return 0.5 * m * dd * dd + k * std::pow(d, p + 1) / (p + 1); };
    CHECK(energy(c.delta, c.delta_dot) < energy(a.delta, a.delta_dot));
    if (seg.exits()) CHECK(seg.time_to_exit() == doctest::Approx(h1 + seg2.time_to_exit()).epsilon(1e-11));
  }
  CHECK_THROWS_AS(OverdampedContactSegment(m, k, p, 0.5, d0, -1.0), InvalidParameter);
}

TEST_CASE("exact stepper follows an over-damped state off the entry trajectories out of the wall") {
  const double p = 1.5, alpha = 1.5 * std::sqrt(2 * (p + 1));
  ContactOscillatorParameters op;
  auto sys = std::make_shared<ContactOscillator>(
      op, DampedNormalLaw{std::make_shared<PowerLaw>(1.0, p), std::make_shared<TsujiDamping>(alpha, 1.0, 1.0, p)});
  MechanicalState s = sys->InitialState();
  s.q[0] = -0.2;  // δ = 0.2
  s.v[0] = 5.0;   // δ̇ = −5: leaving fast, faster than any entry trajectory allows
  const OverdampedContactSegment seg(1.0, 1.0, p, alpha, 0.2, -5.0);
  REQUIRE(seg.exits());
  ExactOscillatorStepper stepper;
  const double h = 0.3 * seg.time_to_exit();
  for (int n = 0; n < 6; ++n) REQUIRE(stepper.Step(*sys, s, h).status == StepStatus::kAccepted);
  // after exit: free flight with the exit speed
  CHECK(-s.v[0] == doctest::Approx(seg.exit_velocity()).epsilon(1e-10));
  CHECK(-s.q[0] == doctest::Approx(seg.exit_velocity() * (6 * h - seg.time_to_exit())).epsilon(1e-10));
}
