// VerletList: the pairs within a cutoff from a neighbour list with a skin [Verlet 1967; Allen & Tildesley,
// Computer Simulation of Liquids, 2nd ed. 2017, §5.2 "the Verlet neighbour list"; LAMMPS's `neighbor skin`].
//
// The list holds the pairs within cutoff + skin at the positions x⁰ of its last build (by the cell list,
// geometry/cell_list.h). While every point is within (skin/2)(1 − 10⁻⁶) of its x⁰,
//
//   |x_i − x_j| ≤ |x⁰_i − x⁰_j| + |x_i − x⁰_i| + |x_j − x⁰_j| < |x⁰_i − x⁰_j| + skin,
//
// so every pair within the cutoff now was within cutoff + skin at the build: the pairs are the list's pairs that
// pass the cell list's own test Σ_d (x_i,d − x_j,d)² ≤ cutoff² (the same operations in the same order), in the
// list's order. The result is therefore exactly CellList::Pairs(dim, x, cutoff) — the same pairs, the same
// order, whatever the history of calls (tests/geometry/verlet_list_test.cpp) — at O(N + P_skin) per call (a
// displacement check and a filter) instead of a binning and a search. The margin 10⁻⁶ of the skin covers the
// round-off of the distances (≈ 10⁻¹⁵ of cutoff + skin); a skin below 10⁻⁶ of the cutoff rebuilds every call.
// A point that is not finite, or a change of dim, N, cutoff or skin, forces a rebuild (which throws as
// CellList::Pairs does for non-finite positions or a cutoff ≤ 0).
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "geometry/cell_list.h"

namespace impactlab {

class VerletList {
 public:
  /// Pairs (i, j), i < j, of the n = positions.size() / dim points with |x_i − x_j| ≤ cutoff (CellList::Pairs'
  /// test), lexicographically sorted, into `pairs` (cleared first). skin ≥ 0 [length].
  void Pairs(int dim, std::span<const double> positions, double cutoff, double skin,
             std::vector<std::pair<int, int>>& pairs);

  /// Room for `pairs` pairs within cutoff + skin, so that a rebuild with at most that many allocates nothing.
  void Reserve(std::size_t pairs) { neighbours_.reserve(pairs); }

  /// Number of cell-list builds so far (for tests and the performance notes).
  long builds() const { return builds_; }

 private:
  bool Holds(int dim, std::span<const double> positions, double cutoff, double skin) const;

  CellList cells_;
  std::vector<double> reference_;                  ///< x⁰: the positions of the last build
  std::vector<std::pair<int, int>> neighbours_;    ///< pairs within cutoff + skin at x⁰
  int dim_ = 0;
  double cutoff_ = -1.0, skin_ = -1.0;             ///< of the last build (cutoff_ < 0: no valid list)
  long builds_ = 0;
};

}  // namespace impactlab
