// Chained rigid impacts (Routh + free flight) against closed forms: a frictionless disk reflecting
// specularly in a box, and a disk bouncing elastically under gravity (periodic impacts).
#include <doctest/doctest.h>

#include <cmath>

#include "planar/rigid_impact_sequence.h"

using namespace impactlab;

namespace {
// Impact instants are bisected to 1e-15 s; free flight is closed form, so only round-off remains.
constexpr double kTimeTol = 1e-12;
constexpr double kVelocityTol = 1e-12;

std::vector<Wall> Box() {
  return {Wall::Through({0, 0}, {0, 1}), Wall::Through({1, 0}, {-1, 0}), Wall::Through({0, 1}, {0, -1}),
          Wall::Through({0, 0}, {1, 0})};
}
}  // namespace

TEST_CASE("rigid impact sequence: frictionless disk reflects specularly in a box") {
  const double r = 0.1;
  RigidImpactSequenceOptions o;  // μ = 0, e = 1, no gravity
  const RigidImpactSequence seq(Ellipse{r, r, 1.0}, Box(), o);
  RigidBodyState2D s0;
  s0.x = {0.5, 0.3};
  s0.v = {0.7, -0.4};
  s0.omega = 2.0;
  const auto impacts = seq.Run(s0, 10.0, 4);
  REQUIRE(impacts.size() == 4);
  // Floor: y = r at t = (0.3 − 0.1)/0.4 = 0.5 s (x = 0.85 there); right wall: x = 0.9 at t = 0.4/0.7 = 0.571 s.
  // So the floor comes first, then the right wall.
  CHECK(impacts[0].wall == 0);
  CHECK(impacts[0].before.t == doctest::Approx(0.5).epsilon(kTimeTol));
  CHECK(impacts[0].after.v.x() == doctest::Approx(0.7).epsilon(kVelocityTol));
  CHECK(impacts[0].after.v.y() == doctest::Approx(0.4).epsilon(kVelocityTol));
  CHECK(impacts[0].after.omega == doctest::Approx(2.0).epsilon(kVelocityTol));  // no friction: spin unchanged
  CHECK(impacts[1].wall == 1);
  CHECK(impacts[1].before.t == doctest::Approx(0.4 / 0.7).epsilon(kTimeTol));
  CHECK(impacts[1].after.v.x() == doctest::Approx(-0.7).epsilon(kVelocityTol));
  // Then the ceiling: y = 0.9 from y(0.5) = 0.1 at 0.4 m/s → t = 0.5 + 2 = 2.5 s; left wall x = 0.1 from
  // x = 0.9 at t = 4/7 s with 0.7 m/s → t = 4/7 + 8/7 = 12/7 s = 1.714 s first.
  CHECK(impacts[2].wall == 3);
  CHECK(impacts[2].before.t == doctest::Approx(12.0 / 7.0).epsilon(kTimeTol));
  CHECK(impacts[3].wall == 2);
  CHECK(impacts[3].before.t == doctest::Approx(2.5).epsilon(kTimeTol));
}

TEST_CASE("rigid impact sequence: elastic bounce under gravity is periodic") {
  const double r = 0.05, g = 9.81, h = 0.5;
  RigidImpactSequenceOptions o;
  o.gravity = g;
  o.friction = 0.3;  // normal impact without spin: friction does nothing
  const RigidImpactSequence seq(Ellipse{r, r, 1.0}, {Wall::Through({0, 0}, {0, 1})}, o);
  RigidBodyState2D s0;
  s0.x = {0.0, h};
  const auto impacts = seq.Run(s0, 5.0, 3);
  REQUIRE(impacts.size() == 3);
  const double t1 = std::sqrt(2.0 * (h - r) / g), v1 = std::sqrt(2.0 * g * (h - r));
  for (int k = 0; k < 3; ++k) {
    CHECK(impacts[static_cast<size_t>(k)].before.t == doctest::Approx(t1 * (1 + 2 * k)).epsilon(1e-10));
    CHECK(impacts[static_cast<size_t>(k)].after.v.y() == doctest::Approx(v1).epsilon(1e-10));
    CHECK(impacts[static_cast<size_t>(k)].after.v.x() == doctest::Approx(0.0).scale(1.0).epsilon(1e-12));
  }
}
