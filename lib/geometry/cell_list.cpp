#include "geometry/cell_list.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/checks.h"
#include "core/errors.h"

namespace impactlab {

void CellList::Pairs(int dim, std::span<const double> x, double cutoff, std::vector<std::pair<int, int>>& pairs) {
  pairs.clear();
  if (dim < 1 || dim > 3) throw InvalidParameter("dim", dim, "1, 2 or 3");
  RequirePositive("cutoff", cutoff);
  if (x.size() % static_cast<size_t>(dim) != 0)
    throw InvalidParameter("positions", static_cast<double>(x.size()), "a multiple of dim entries");
  const int n = static_cast<int>(x.size() / static_cast<size_t>(dim));
  num_cells_ = 0;
  if (n < 2) return;

  std::array<double, 3> lo{0, 0, 0}, hi{0, 0, 0};
  for (int d = 0; d < dim; ++d) lo[d] = hi[d] = x[static_cast<size_t>(d)];
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < dim; ++d) {
      const double v = x[static_cast<size_t>(dim * i + d)];
      if (!std::isfinite(v)) throw InvalidParameter("positions[" + std::to_string(dim * i + d) + "]", v, "a finite number");
      lo[d] = std::min(lo[d], v);
      hi[d] = std::max(hi[d], v);
    }

  for (int d = 0; d < dim; ++d)
    if (!std::isfinite(hi[d] - lo[d])) throw InvalidParameter("positions extent", hi[d] - lo[d], "a finite number");
  // Cell edge h ≥ cutoff with a relative margin of 1e-8, so that rounding in (x − lo)/h can never put two
  // points at distance ≤ cutoff two cells apart; doubled until the grid has at most ~4N cells.
  double h = cutoff * (1.0 + 1e-8);
  std::array<long, 3> cells{1, 1, 1};
  const double max_cells = 4.0 * n + 8.0;
  for (;;) {
    double total = 1.0;
    for (int d = 0; d < dim; ++d) total *= std::floor((hi[d] - lo[d]) / h) + 1.0;
    if (total <= max_cells) break;
    h *= 2.0;
  }
  num_cells_ = 1;
  for (int d = 0; d < dim; ++d) {
    cells[d] = static_cast<long>(std::floor((hi[d] - lo[d]) / h)) + 1;
    num_cells_ *= cells[d];
  }

  // Counting sort of the points by cell (stable: ascending point index inside each cell).
  cell_of_.resize(static_cast<size_t>(n));
  std::array<long, 3> c{0, 0, 0};
  auto cell_coordinates = [&](int i) {
    for (int d = 0; d < dim; ++d) {
      const long k = static_cast<long>(std::floor((x[static_cast<size_t>(dim * i + d)] - lo[d]) / h));
      c[d] = std::clamp(k, 0L, cells[d] - 1);
    }
  };
  for (int i = 0; i < n; ++i) {
    cell_coordinates(i);
    cell_of_[static_cast<size_t>(i)] = static_cast<int>(c[0] + cells[0] * (c[1] + cells[1] * c[2]));
  }
  // Room for the largest grid this n allows (≤ 4n + 8 cells), so a reused list never grows when the box changes.
  cell_start_.reserve(static_cast<size_t>(max_cells) + 2);
  cell_start_.assign(static_cast<size_t>(num_cells_) + 1, 0);
  for (int i = 0; i < n; ++i) ++cell_start_[static_cast<size_t>(cell_of_[static_cast<size_t>(i)]) + 1];
  for (size_t k = 1; k < cell_start_.size(); ++k) cell_start_[k] += cell_start_[k - 1];
  cell_items_.resize(static_cast<size_t>(n));
  {
    std::vector<int>& fill = fill_;  // the next free slot of each cell
    fill.reserve(cell_start_.capacity());
    fill.assign(cell_start_.begin(), cell_start_.end() - 1);
    for (int i = 0; i < n; ++i) cell_items_[static_cast<size_t>(fill[static_cast<size_t>(cell_of_[static_cast<size_t>(i)])]++)] = i;
  }

  // For each point i, the partners j > i in the 3^dim cells around its own; Σ_d (x_i,d − x_j,d)² ≤ cutoff².
  const double cutoff2 = cutoff * cutoff;
  const long r1 = dim >= 2 ? 1 : 0, r2 = dim >= 3 ? 1 : 0;
  partners_.reserve(static_cast<size_t>(n));  // a point's partners never outgrow a reused list
  for (int i = 0; i < n; ++i) {
    cell_coordinates(i);
    partners_.clear();
    for (long o2 = -r2; o2 <= r2; ++o2) {
      const long c2 = c[2] + o2;
      if (c2 < 0 || c2 >= cells[2]) continue;
      for (long o1 = -r1; o1 <= r1; ++o1) {
        const long c1 = c[1] + o1;
        if (c1 < 0 || c1 >= cells[1]) continue;
        for (long o0 = -1; o0 <= 1; ++o0) {
          const long c0 = c[0] + o0;
          if (c0 < 0 || c0 >= cells[0]) continue;
          const size_t cell = static_cast<size_t>(c0 + cells[0] * (c1 + cells[1] * c2));
          for (int k = cell_start_[cell]; k < cell_start_[cell + 1]; ++k) {
            const int j = cell_items_[static_cast<size_t>(k)];
            if (j <= i) continue;
            double r2sum = 0.0;
            for (int d = 0; d < dim; ++d) {
              const double dx = x[static_cast<size_t>(dim * i + d)] - x[static_cast<size_t>(dim * j + d)];
              r2sum += dx * dx;
            }
            if (r2sum <= cutoff2) partners_.push_back(j);
          }
        }
      }
    }
    std::sort(partners_.begin(), partners_.end());
    for (int j : partners_) pairs.emplace_back(i, j);
  }
}

std::vector<std::pair<int, int>> CellList::PairsWithin(int dim, std::span<const double> positions, double cutoff) {
  CellList list;
  std::vector<std::pair<int, int>> pairs;
  list.Pairs(dim, positions, cutoff, pairs);
  return pairs;
}

}  // namespace impactlab
