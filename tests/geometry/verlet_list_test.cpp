// VerletList (lib/geometry/verlet_list.h): along random walks of 1-D, 2-D and 3-D clouds the list returns, at every
// call, exactly CellList::Pairs at the same positions (same pairs, same order), reuses its build while the points
// stay within half the skin, rebuilds when one moves further or a parameter changes, and throws as the cell list
// does for non-finite positions (then recovers on the next finite call).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "geometry/cell_list.h"
#include "geometry/verlet_list.h"

using namespace impactlab;

namespace {

double Uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
}

}  // namespace

TEST_CASE("verlet list: the cell list's pairs at every step of random walks, with few builds") {
  for (int dim = 1; dim <= 3; ++dim) {
    std::mt19937_64 rng(4242 + static_cast<std::uint64_t>(dim));
    const int n = 300;
    const double cutoff = 1.0, skin = 0.2;
    const double box = std::pow(static_cast<double>(n), 1.0 / dim) * 0.9;
    std::vector<double> x(static_cast<size_t>(dim * n));
    for (double& v : x) v = Uniform(rng, 0.0, box);
    VerletList verlet;
    CellList cells;
    std::vector<std::pair<int, int>> got, expected;
    const int steps = 200;
    for (int step = 0; step < steps; ++step) {
      verlet.Pairs(dim, x, cutoff, skin, got);
      cells.Pairs(dim, x, cutoff, expected);
      REQUIRE(got == expected);
      // Steps of up to 0.01 per axis: the fastest points cross half the skin after ~10–30 steps; a few steps stay put
      // (bitwise the same positions).
      if (step % 7 != 3)
        for (double& v : x) v += Uniform(rng, -0.01, 0.01);
    }
    CHECK(verlet.builds() >= 2);
    CHECK(verlet.builds() < steps / 2);
  }
}

TEST_CASE("verlet list: pairs exactly at the cutoff, parameter changes and non-finite positions") {
  // Two points at exactly the cutoff (in the list), then moved apart by one ulp-sized step (out of it).
  std::vector<double> x{0.0, 0.0, 0.0, 1.0, 0.0, 0.0};
  VerletList verlet;
  std::vector<std::pair<int, int>> pairs;
  verlet.Pairs(3, x, 1.0, 0.1, pairs);
  CHECK(pairs.size() == 1);
  x[3] = std::nextafter(1.0, 2.0);
  verlet.Pairs(3, x, 1.0, 0.1, pairs);
  CHECK(pairs.empty());
  CHECK(verlet.builds() == 1);
  verlet.Pairs(3, x, 1.5, 0.1, pairs);  // a new cutoff rebuilds
  CHECK(pairs.size() == 1);
  CHECK(verlet.builds() == 2);
  verlet.Pairs(3, x, 1.5, 0.0, pairs);  // zero skin: a build at every call, the same pairs
  verlet.Pairs(3, x, 1.5, 0.0, pairs);
  CHECK(pairs.size() == 1);
  CHECK(verlet.builds() == 4);
  x[4] = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(verlet.Pairs(3, x, 1.5, 0.1, pairs), InvalidParameter);
  x[4] = 0.0;
  verlet.Pairs(3, x, 1.5, 0.1, pairs);
  CHECK(pairs.size() == 1);
  CHECK_THROWS_AS(verlet.Pairs(3, x, 0.0, 0.1, pairs), InvalidParameter);
  CHECK_THROWS_AS(verlet.Pairs(3, x, 1.0, -0.1, pairs), InvalidParameter);
}
