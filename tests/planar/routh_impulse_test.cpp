// Routh's rigid impulsive impact against closed forms: the carom first floor impact (docs/theory.md §8) and the
// solid-sphere gross-slip / stick formulas (docs/theory.md §6).
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "core/errors.h"
#include "planar/ellipse_wall_gap.h"
#include "planar/routh_impulse.h"

using namespace impactlab;

namespace {
// docs/theory.md §8 prints 5 significant digits: agreement to half a unit of the last printed digit.
constexpr double kPrinted5 = 5e-5;
constexpr double kExact = 1e-12;  // closed forms vs the piecewise-linear solver (round-off only)

RouthImpactInput CaromFirstImpact(double alpha_deg) {
  const Ellipse e{0.075, 0.03, 1.0};
  const double th = alpha_deg * std::numbers::pi / 180.0;
  const Wall floor = Wall::Through({0, 0}, {0, 1});
  // Free flight from (0.45, 0.1) with v = (1, −0.4): the floor gap vanishes at t = (0.1 − h)/0.4.
  const double h = EllipseWallGap(e, 0, {0, 0}, th, floor).delta;
  const double t = (0.1 - h) / 0.4;
  RouthImpactInput in;
  in.mass = e.mass;
  in.inertia = e.inertia();
  in.normal = {0, 1};
  in.lever = -e.SupportOffset(th, {0, 1});
  in.velocity = {1.0, -0.4};
  in.omega = 0.0;
  in.friction = std::tan(15.0 * std::numbers::pi / 180.0);
  in.restitution = 1.0;
  CHECK(t == doctest::Approx(0.09849).epsilon(kPrinted5 / 0.09849 * 10));
  return in;
}
}  // namespace

TEST_CASE("Routh: carom first floor impact reproduces docs/theory.md section 8") {
  for (auto hyp : {RestitutionHypothesis::kNewton, RestitutionHypothesis::kPoisson, RestitutionHypothesis::kStronge}) {
    RouthImpactInput in = CaromFirstImpact(50.0);
    CHECK(in.lever.x() == doctest::Approx(-0.038391).epsilon(1e-4));
    CHECK(in.lever.y() == doctest::Approx(-0.060603).epsilon(1e-4));
    in.hypothesis = hyp;
    const RouthImpactResult r = SolveRouthImpact(in);
    CHECK(r.velocity.x() == doctest::Approx(0.90622).epsilon(kPrinted5 / 0.9));
    CHECK(r.velocity.y() == doctest::Approx(-0.04999).epsilon(kPrinted5 / 0.05 * 0.1));
    CHECK(r.omega == doctest::Approx(-11.721).epsilon(kPrinted5));
    CHECK(r.normal_impulse / in.mass == doctest::Approx(0.35000).epsilon(kPrinted5));
    CHECK(r.tangential_impulse / in.mass * (-1.0) == doctest::Approx(-0.09378).epsilon(kPrinted5 * 10));
    CHECK(r.kinetic_energy_ratio == doctest::Approx(0.90332).epsilon(kPrinted5));
    CHECK_FALSE(r.stuck);
  }
  RouthImpactInput mirror = CaromFirstImpact(-50.0);
  const RouthImpactResult r = SolveRouthImpact(mirror);
  CHECK(r.velocity.x() == doctest::Approx(0.85910).epsilon(kPrinted5));
  CHECK(r.velocity.y() == doctest::Approx(0.12585).epsilon(kPrinted5));
  CHECK(r.omega == doctest::Approx(7.141).epsilon(1e-4));
  CHECK(r.kinetic_energy_ratio == doctest::Approx(0.72161).epsilon(kPrinted5));
}

TEST_CASE("Routh: solid sphere gross slip and stick match the closed forms of docs/theory.md section 6") {
  const double m = 2.0, radius = 0.1, inertia = 0.4 * m * radius * radius;
  for (double e : {1.0, 0.6}) {
    for (double mu : {0.05, 0.1, 0.4}) {
      for (double cot_gamma : {0.2, 1.0, 3.0}) {
        RouthImpactInput in;
        in.mass = m;
        in.inertia = inertia;
        in.normal = {0, 1};
        in.lever = {0, -radius};
        in.velocity = {1.5 * cot_gamma, -1.5};
        in.friction = mu;
        in.restitution = e;
        in.hypothesis = RestitutionHypothesis::kPoisson;
        const RouthImpactResult r = SolveRouthImpact(in);
        const double u_t_before = in.velocity.x(), u_t_after = r.velocity.x() - r.omega * (-radius) * 1.0;
        // u_t = v_x + ω (ẑ × r)_x = v_x − ω r_y; r_y = −R → u_t = v_x + ω R.
        const double slip_after = r.velocity.x() + r.omega * radius;
        (void)u_t_after;
        const double x = 3.5 * mu * (1 + e) / cot_gamma;  // (7/2) μ (1+e) |cot γ| with cot γ = |v_n/v_t|
        const double et = r.velocity.x() / u_t_before, beta = -slip_after / u_t_before;
        if (x < 1.0) {
          CHECK(et == doctest::Approx(1.0 - mu * (1 + e) / cot_gamma).epsilon(kExact));
          CHECK(beta == doctest::Approx(-1.0 + x).epsilon(kExact).scale(1.0));
          CHECK_FALSE(r.stuck);
        } else {
          CHECK(et == doctest::Approx(5.0 / 7.0).epsilon(kExact));
          CHECK(beta == doctest::Approx(0.0).epsilon(kExact).scale(1.0));
          CHECK(r.stuck);
        }
        CHECK(r.velocity.y() == doctest::Approx(1.5 * e).epsilon(kExact));
      }
    }
  }
}

TEST_CASE("Routh: rejects a separating contact point and bad parameters") {
  RouthImpactInput in;
  in.velocity = {0.0, 0.5};
  CHECK_THROWS_AS(SolveRouthImpact(in), InvalidParameter);
  in.velocity = {0.0, -0.5};
  in.restitution = 1.5;
  CHECK_THROWS_AS(SolveRouthImpact(in), InvalidParameter);
  CHECK_THROWS_AS(ParseRestitutionHypothesis("reference_hypothesis", "maxwell"), InvalidParameter);
}
