#include "geometry/verlet_list.h"

#include "core/checks.h"

namespace impactlab {

bool VerletList::Holds(int dim, std::span<const double> x, double cutoff, double skin) const {
  if (!(cutoff_ > 0.0) || dim != dim_ || cutoff != cutoff_ || skin != skin_ || x.size() != reference_.size())
    return false;
  if (!(skin >= 1e-6 * cutoff)) return false;
  const double half = 0.5 * skin * (1.0 - 1e-6);
  const double limit2 = half * half;
  const size_t n = x.size() / static_cast<size_t>(dim);
  for (size_t i = 0; i < n; ++i) {
    double d2 = 0.0;
    for (int d = 0; d < dim; ++d) {
      const double dx = x[static_cast<size_t>(dim) * i + static_cast<size_t>(d)] -
                        reference_[static_cast<size_t>(dim) * i + static_cast<size_t>(d)];
      d2 += dx * dx;
    }
    if (!(d2 <= limit2)) return false;  // moved too far, or not finite
  }
  return true;
}

void VerletList::Pairs(int dim, std::span<const double> x, double cutoff, double skin,
                       std::vector<std::pair<int, int>>& pairs) {
  pairs.clear();
  RequirePositive("cutoff", cutoff);
  RequireNonNegative("skin", skin);
  if (!Holds(dim, x, cutoff, skin)) {
    cutoff_ = -1.0;  // invalid while rebuilt (CellList::Pairs may throw)
    cells_.Pairs(dim, x, cutoff + skin, neighbours_);
    reference_.assign(x.begin(), x.end());
    dim_ = dim;
    skin_ = skin;
    cutoff_ = cutoff;
    ++builds_;
  }
  // CellList::Pairs' test, the same operations in the same order.
  const double cutoff2 = cutoff * cutoff;
  for (const std::pair<int, int>& p : neighbours_) {
    double r2sum = 0.0;
    for (int d = 0; d < dim; ++d) {
      const double dx = x[static_cast<size_t>(dim * p.first + d)] - x[static_cast<size_t>(dim * p.second + d)];
      r2sum += dx * dx;
    }
    if (r2sum <= cutoff2) pairs.push_back(p);
  }
}

}  // namespace impactlab
