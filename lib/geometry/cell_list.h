// CellList: the linked-cell broad phase for pair contacts in 1, 2 or 3 dimensions [Allen & Tildesley,
// Computer Simulation of Liquids, 1987 / 2nd ed. 2017, §5.3 "linked lists" / "cell structures"; the same
// binning underlies the neighbour lists of LAMMPS (bins of half the cutoff + skin) and MercuryDPM's hGrid].
//
// The points are binned into a uniform grid of cubic cells of edge h ≥ cutoff (+ skin), laid over their
// bounding box (so no nominal box is needed and no point can be "outside"); every pair closer than the
// cutoff then lies in the same or in adjacent cells, and only those 3^dim cells are searched:
//
//   cost O(N + P) per call for N points and P pairs in range at bounded density,
//   instead of O(N²) for all pairs.
//
// The grid is coarsened (h doubled) when the bounding box would need more than ~4N cells, so a sparse
// cloud with far outliers costs O(N) memory, never O(volume). The result is deterministic: pairs (i, j)
// with i < j and |x_i − x_j| ≤ cutoff, sorted lexicographically, i.e. exactly the pairs an all-pairs double
// loop `for i, for j > i` would accept, in the same order (tests/geometry/cell_list_test.cpp).
#pragma once

#include <span>
#include <utility>
#include <vector>

namespace impactlab {

class CellList {
 public:
  /// Pairs (i, j), i < j, of the n = positions.size() / dim points (point i at positions[dim·i ..+dim))
  /// with |x_i − x_j| ≤ cutoff, lexicographically sorted, written into `pairs` (cleared first). dim ∈ {1, 2, 3};
  /// cutoff > 0 and finite; every coordinate finite (throws InvalidParameter otherwise). The object only
  /// keeps its buffers between calls (reuse it to avoid reallocation); it holds no state otherwise.
  void Pairs(int dim, std::span<const double> positions, double cutoff, std::vector<std::pair<int, int>>& pairs);

  /// Convenience form of Pairs() with a fresh buffer.
  static std::vector<std::pair<int, int>> PairsWithin(int dim, std::span<const double> positions, double cutoff);

  /// Number of cells of the last grid (for tests of the coarsening).
  long num_cells() const { return num_cells_; }

 private:
  std::vector<int> cell_of_, cell_start_, cell_items_, partners_, fill_;
  long num_cells_ = 0;
};

}  // namespace impactlab
