// ContactBlocks: the contact blocks of a sparse Jacobian J = D + Σ_b P_bᵀ B_b P_b as a layout and a value array
// (issue 19; system/discrete_contact_jacobian.h, system/block_sparse_assembly.h):
//
//   block b couples the global coordinates coordinates[start[b] .. start[b+1]) (its size s_b: 12 for two spheres,
//   6 for a sphere and a wall); its s_b × s_b dense values B_b are values[value_start[b] .. value_start[b] + s_b²),
//   column-major (local column c, local row r at value_start[b] + c·s_b + r).
//
// The layout (coordinates, start, value_start) is a function of the contact list only; the values change with
// every Jacobian. So an assembler can keep the matrix pattern and where each value goes while the layout is
// unchanged, and a model can fill the values of different blocks on different threads (each block its own range).
// The triplet form, block after block, column by column, row by row, is what AppendTriplets gives: the order in
// which a triplet assembly sums the duplicates.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "system/sparse_assembly.h"

namespace impactlab {

struct ContactBlocks {
  std::vector<int> coordinates;            ///< global coordinates of every block, block after block
  std::vector<std::size_t> start{0};       ///< block b's coordinates: [start[b], start[b+1])
  std::vector<std::size_t> value_start{0};  ///< block b's values: [value_start[b], value_start[b+1])
  std::vector<double> values;              ///< column-major blocks, sized by SizeValues

  std::size_t size() const { return start.size() - 1; }
  /// Empties the layout (keeps the storage).
  void Clear() {
    coordinates.clear();
    start.assign(1, 0);
    value_start.assign(1, 0);
  }
  /// Appends a block over `coords` (its values to be written later into its range).
  void AddBlock(std::span<const int> coords) {
    coordinates.insert(coordinates.end(), coords.begin(), coords.end());
    start.push_back(coordinates.size());
    value_start.push_back(value_start.back() + coords.size() * coords.size());
  }
  /// Gives `values` the size the layout needs.
  void SizeValues() { values.resize(value_start.back()); }
  /// Block b's first value (column-major, size² entries).
  double* block_values(std::size_t b) { return values.data() + value_start[b]; }
  /// Appends every entry as a triplet: block after block, column by column, row by row.
  void AppendTriplets(SparseEntries& entries) const {
    for (std::size_t b = 0; b < size(); ++b) {
      const int* c0 = coordinates.data() + start[b];
      const int s = static_cast<int>(start[b + 1] - start[b]);
      const double* v = values.data() + value_start[b];
      for (int c = 0; c < s; ++c)
        for (int r = 0; r < s; ++r) entries.emplace_back(c0[r], c0[c], v[c * s + r]);
    }
  }
};

}  // namespace impactlab
