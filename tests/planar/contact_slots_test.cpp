// ContactSlots (lib/planar/contact_slots.h): the cell-list broad phase returns exactly the slots of the
// all-pairs reference loop, in the same ascending order, for random planar configurations with walls, mixed
// bounding radii, pairs exactly at R_i + R_j, bodies outside the walls and a non-finite configuration.
#include <doctest/doctest.h>

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "planar/contact_slots.h"
#include "planar/wall.h"

using namespace impactlab;

namespace {
double Uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
}
}  // namespace

TEST_CASE("contact slots: cell-list candidates equal the all-pairs candidates") {
  const std::vector<Wall> walls = {Wall::Through({0.0, 0.0}, {0.0, 1.0}), Wall::Through({0.0, 0.0}, {1.0, 0.0}),
                                   Wall::Through({20.0, 20.0}, {-1.0, -1.0})};
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    const int n = 2 + static_cast<int>(rng() % 60);
    const int num_walls = static_cast<int>(seed % 4);
    const std::vector<Wall> w(walls.begin(), walls.begin() + num_walls);
    ContactSlots slots(n, num_walls);
    std::vector<double> radii(static_cast<size_t>(n));
    for (auto& r : radii) r = Uniform(rng, 0.2, 1.5);
    const double box = 1.5 * std::sqrt(static_cast<double>(n));
    Eigen::VectorXd qa(3 * n), qb(3 * n);
    for (int i = 0; i < n; ++i) {
      qa.segment<3>(3 * i) << Uniform(rng, -2.0, box), Uniform(rng, -2.0, box), Uniform(rng, -3.0, 3.0);
      qb.segment<3>(3 * i) = qa.segment<3>(3 * i) + Eigen::Vector3d(Uniform(rng, -0.5, 0.5), Uniform(rng, -0.5, 0.5), 0.1);
    }
    // Bodies 0 and 1 exactly at R_0 + R_1 along x at q_a (strict <: not a candidate there), far outlier.
    qa.segment<2>(3) = qa.segment<2>(0) + Eigen::Vector2d(radii[0] + radii[1], 0.0);
    if (n > 2) qb[3 * 2] = 1e7;
    CAPTURE(seed);
    CAPTURE(n);
    std::vector<int> fast, reference;
    slots.Candidates(radii, w, qa, qb, fast);
    slots.CandidatesAllPairs(radii, w, qa, qb, reference);
    CHECK(fast == reference);
    for (int i = 0; i + 1 < n; ++i) {  // PairSlot inverts the enumeration
      const SlotParticipants& p = slots.participants(slots.PairSlot(i, i + 1));
      CHECK((p.wall == -1 && p.body_a == i && p.body_b == i + 1));
    }
    // A non-finite configuration falls back to the reference loop (NaN comparisons are false there).
    qb[0] = std::nan("");
    slots.Candidates(radii, w, qa, qb, fast);
    slots.CandidatesAllPairs(radii, w, qa, qb, reference);
    CHECK(fast == reference);
  }
}
