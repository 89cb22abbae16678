// CellList (lib/geometry/cell_list.h): the linked-cell broad phase returns exactly the pairs an all-pairs double
// loop accepts (same criterion Σ (x_i − x_j)² ≤ cutoff², same lexicographic order) for random clouds in 1-D,
// 2-D and 3-D, including points exactly on cell boundaries, exactly at the cutoff distance, coincident points
// and far outliers; the number of candidate pairs grows linearly with N at fixed density (the O(N) claim is
// pinned by counting, never by timing).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "geometry/cell_list.h"

using namespace impactlab;

namespace {

std::vector<std::pair<int, int>> BruteForce(int dim, const std::vector<double>& x, double cutoff) {
  const int n = static_cast<int>(x.size()) / dim;
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double r2 = 0.0;
      for (int d = 0; d < dim; ++d) {
        const double dx = x[static_cast<size_t>(dim * i + d)] - x[static_cast<size_t>(dim * j + d)];
        r2 += dx * dx;
      }
      if (r2 <= cutoff * cutoff) pairs.emplace_back(i, j);
    }
  return pairs;
}

// Uniform in [lo, hi) from the raw 64-bit engine (portable).
double Uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
}

}  // namespace

TEST_CASE("cell list: exactly the all-pairs set within the cutoff, 1-D, 2-D, 3-D random clouds") {
  for (int dim = 1; dim <= 3; ++dim) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      std::mt19937_64 rng(seed * 7919 + static_cast<std::uint64_t>(dim));
      const int n = 50 + static_cast<int>(rng() % 300);
      const double cutoff = Uniform(rng, 0.3, 2.0);
      const double box = std::pow(static_cast<double>(n), 1.0 / dim) * Uniform(rng, 0.3, 1.5);
      std::vector<double> x(static_cast<size_t>(dim * n));
      for (auto& v : x) v = Uniform(rng, -0.5 * box, 0.5 * box);
      // Points snapped to multiples of the cutoff (cell boundaries of the uncoarsened grid) ...
      for (int i = 0; i < n; i += 7)
        for (int d = 0; d < dim; ++d)
          x[static_cast<size_t>(dim * i + d)] = cutoff * std::round(x[static_cast<size_t>(dim * i + d)] / cutoff);
      // ... a pair exactly at the cutoff along an axis, a coincident pair, and far outliers.
      for (int d = 0; d < dim; ++d) {
        x[static_cast<size_t>(dim * 1 + d)] = x[static_cast<size_t>(d)];
        x[static_cast<size_t>(dim * 2 + d)] = x[static_cast<size_t>(d)];
      }
      x[static_cast<size_t>(dim * 1)] = x[0] + cutoff;
      x[static_cast<size_t>(dim * 3)] = 1e6 * box;
      x[static_cast<size_t>(dim * 4)] = -3e5 * box;
      CAPTURE(dim);
      CAPTURE(seed);
      CAPTURE(n);
      const auto expected = BruteForce(dim, x, cutoff);
      const auto got = CellList::PairsWithin(dim, x, cutoff);
      CHECK(got == expected);  // same set and same (lexicographic) order
    }
  }
}

TEST_CASE("cell list: dense lattice with every neighbour exactly at the cutoff") {
  // Square / cubic lattice of spacing a = cutoff = 1/8 (exact in binary): every lattice bond sits exactly at
  // the cutoff (included, ≤), the diagonals beyond it; the result must be the brute force's bit for bit.
  for (int dim = 2; dim <= 3; ++dim) {
    const int side = dim == 2 ? 20 : 8;
    const double a = 0.125;
    std::vector<double> x;
    const int n = dim == 2 ? side * side : side * side * side;
    for (int i = 0; i < n; ++i) {
      int r = i;
      for (int d = 0; d < dim; ++d) {
        x.push_back(a * (r % side));
        r /= side;
      }
    }
    CAPTURE(dim);
    const auto got = CellList::PairsWithin(dim, x, a);
    CHECK(got == BruteForce(dim, x, a));
    CHECK(got.size() == static_cast<size_t>(dim * (side - 1) * n / side));  // exactly the lattice bonds
  }
}

TEST_CASE("cell list: candidate pairs grow linearly with N at fixed density (O(N), counted, not timed)") {
  // Random 2-D and 3-D clouds at unit number density, cutoff 1: the expected number of pairs is
  // N·ρ·V_cutoff/2 (π/2 in 2-D, 2π/3 in 3-D), so 10⁴ points give ≈ 10× the pairs of 10³ points, and the
  // grid stays at O(N) cells.
  for (int dim = 2; dim <= 3; ++dim) {
    std::vector<size_t> counts;
    std::vector<long> cells;
    for (const int n : {1000, 10000}) {
      std::mt19937_64 rng(42);
      const double box = std::pow(static_cast<double>(n), 1.0 / dim);
      std::vector<double> x(static_cast<size_t>(dim * n));
      for (auto& v : x) v = Uniform(rng, 0.0, box);
      CellList list;
      std::vector<std::pair<int, int>> pairs;
      list.Pairs(dim, x, 1.0, pairs);
      counts.push_back(pairs.size());
      cells.push_back(list.num_cells());
      const double expected = 0.5 * n * (dim == 2 ? M_PI : 4.0 * M_PI / 3.0);
      CHECK(static_cast<double>(pairs.size()) == doctest::Approx(expected).epsilon(0.1));  // edge effects < 10 %
      CHECK(list.num_cells() <= 4L * n + 8);
    }
    CAPTURE(dim);
    const double growth = static_cast<double>(counts[1]) / static_cast<double>(counts[0]);
    CHECK(growth == doctest::Approx(10.0).epsilon(0.1));  // linear: 10× the points, ≈ 10× the pairs
  }
}

TEST_CASE("cell list: sparse outliers coarsen the grid instead of allocating the bounding-box volume") {
  std::vector<double> x = {0.0, 0.0, 1e12, 1e12, 0.5, 0.0, -1e12, 3.0};
  CellList list;
  std::vector<std::pair<int, int>> pairs;
  list.Pairs(2, x, 1.0, pairs);
  CHECK(pairs == std::vector<std::pair<int, int>>{{0, 2}});
  CHECK(list.num_cells() <= 4 * 4 + 8);
}

TEST_CASE("cell list: invalid input is rejected") {
  std::vector<double> x = {0.0, 1.0, 2.0, 3.0};
  CHECK_THROWS_AS(CellList::PairsWithin(0, x, 1.0), InvalidParameter);
  CHECK_THROWS_AS(CellList::PairsWithin(4, x, 1.0), InvalidParameter);
  CHECK_THROWS_AS(CellList::PairsWithin(3, x, 1.0), InvalidParameter);  // 4 entries: not a multiple of 3
  CHECK_THROWS_AS(CellList::PairsWithin(2, x, 0.0), InvalidParameter);
  CHECK_THROWS_AS(CellList::PairsWithin(2, x, std::nan("")), InvalidParameter);
  x[1] = std::nan("");
  CHECK_THROWS_AS(CellList::PairsWithin(2, x, 1.0), InvalidParameter);
  CHECK(CellList::PairsWithin(2, std::vector<double>{1.0, 2.0}, 1.0).empty());  // one point: no pair
}
