#include "models/ellipses_multi.h"

#include <cmath>
#include <numbers>
#include <random>

#include "core/checks.h"

namespace impactlab {

PlanarEllipsesConfig MakeEllipsesMultiConfig(const ParameterSet& p) {
  const double n_value = p.GetDouble("n", 20.0);
  // The broad phase is a cell list (O(N) per evaluation); the bound is the dense slot enumeration, as in disk_cloud:
  // N(N - 1)/2 pair slots (+ 4N with walls), each with its spring in z, so each state a located event keeps grows
  // like N² (the default run of 10⁴ steps: 0.50 GB peak at N = 200, 3.7 GB at N = 400; docs/efda.md §1).
  if (!(n_value >= 2.0 && n_value <= 200.0 && n_value == std::floor(n_value)))
    throw InvalidParameter("n", n_value,
                           "an integer in [2, 200] (the contact slots are dense: N(N - 1)/2 pairs, 19 900 at N = 200)");
  const int n = static_cast<int>(n_value);
  const double seed_value = RequireNonNegative("seed", p.GetDouble("seed", 1.0));
  if (seed_value != std::floor(seed_value) || seed_value > 9.0e15)
    throw InvalidParameter("seed", seed_value, "a non-negative integer");
  const auto seed = static_cast<std::uint64_t>(seed_value);
  const double a = RequirePositive("a", p.GetDouble("a", 0.05)), b = RequirePositive("b", p.GetDouble("b", 0.03));
  const double m = RequirePositive("m", p.GetDouble("m", 1.0));
  const double spacing = RequirePositive("spacing", p.GetDouble("spacing", 0.11));
  if (spacing <= 2.0 * std::max(a, b)) throw InvalidParameter("spacing", spacing, "> 2 max(a, b) (no initial overlap)");
  const double speed = RequireNonNegative("speed", p.GetDouble("speed", 1.0));
  const double spin = RequireNonNegative("spin", p.GetDouble("spin", 5.0));
  const bool walls = p.GetBool("walls", false);
  PlanarEllipsesConfig c;
  c.name = "ellipses_multi";
  c.penalty.normal_stiffness = p.GetDouble("K_N", 1e5);
  c.penalty.tangential_stiffness = p.GetDouble("K_T", 1e5);
  c.penalty.normal_damping_ratio = p.GetDouble("xi_N", 0.0);
  c.penalty.tangential_damping_ratio = p.GetDouble("xi_T", 0.0);
  c.penalty.friction_coefficient = p.GetDouble("mu", 0.3);
  c.gravity = p.GetDouble("gravity", 0.0);
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const double extent = (side - 1) * spacing;
  const double box = p.GetDouble("box", extent + 2.0 * std::max(a, b) + 0.2);
  if (walls) {
    RequirePositive("box", box);
    const double lo = -0.5 * (box - extent), hi = extent + 0.5 * (box - extent);
    c.walls = {Wall::Through({0.0, lo}, {0.0, 1.0}), Wall::Through({hi, 0.0}, {-1.0, 0.0}),
               Wall::Through({0.0, hi}, {0.0, -1.0}), Wall::Through({lo, 0.0}, {1.0, 0.0})};
  }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  c.q0.resize(3 * n);
  c.v0.resize(3 * n);
  const Eigen::Vector2d centre(0.5 * extent, 0.5 * extent);
  const double jitter = 0.2 * (spacing - 2.0 * std::max(a, b));
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector2d x(spacing * (i % side) + jitter * unit(rng), spacing * (i / side) + jitter * unit(rng));
    c.bodies.push_back(Ellipse{a, b, m * (1.0 + 0.3 * unit(rng))});
    const Eigen::Vector2d inward = (centre - x) * (speed / std::max(extent, spacing));
    const Eigen::Vector2d v = inward + 0.5 * speed * Eigen::Vector2d(unit(rng), unit(rng));
    c.q0.segment<3>(3 * i) << x.x(), x.y(), std::numbers::pi * unit(rng);
    c.v0.segment<3>(3 * i) << v.x(), v.y(), spin * unit(rng);
  }
  return c;
}

}  // namespace impactlab
