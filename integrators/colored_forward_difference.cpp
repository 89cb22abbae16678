#include "integrators/colored_forward_difference.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace impactlab {

void ColoredForwardDifference::SetPattern(Eigen::Index n, const ContactBlocks& layout) {
  if (n == n_ && layout.coordinates == layout_coordinates_ && layout.start == layout_start_) return;
  n_ = n;
  layout_coordinates_ = layout.coordinates;
  layout_start_ = layout.start;
  // Column j's rows: j itself and every coordinate of every block that contains j (the pattern is symmetric).
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(n));
  for (Eigen::Index j = 0; j < n; ++j) rows[static_cast<std::size_t>(j)].push_back(static_cast<int>(j));
  for (std::size_t b = 0; b < layout.size(); ++b) {
    const int* first = layout.coordinates.data() + layout.start[b];
    const int* last = layout.coordinates.data() + layout.start[b + 1];
    for (const int* c = first; c != last; ++c) {
      if (*c < 0 || *c >= n)
        throw std::invalid_argument("Jacobian block coordinate " + std::to_string(*c) + " outside [0, " +
                                    std::to_string(n) + ")");
      std::vector<int>& column = rows[static_cast<std::size_t>(*c)];
      column.insert(column.end(), first, last);
    }
  }
  row_start_.assign(1, 0);
  rows_.clear();
  for (std::vector<int>& column : rows) {
    std::sort(column.begin(), column.end());
    column.erase(std::unique(column.begin(), column.end()), column.end());
    rows_.insert(rows_.end(), column.begin(), column.end());
    row_start_.push_back(rows_.size());
  }
  // Greedy colouring in the natural order: column j takes the smallest group that no earlier column sharing a row
  // with it has taken. Columns sharing row i with j are the rows of column i (symmetric pattern).
  std::vector<int> group(static_cast<std::size_t>(n), -1);
  std::vector<Eigen::Index> taken_by;  // taken_by[g] == j: group g is forbidden for column j
  groups_ = 0;
  for (Eigen::Index j = 0; j < n; ++j) {
    for (std::size_t a = row_start_[j]; a < row_start_[j + 1]; ++a) {
      const int i = rows_[a];
      for (std::size_t b = row_start_[i]; b < row_start_[i + 1]; ++b) {
        const int g = group[static_cast<std::size_t>(rows_[b])];
        if (g >= 0) taken_by[static_cast<std::size_t>(g)] = j;
      }
    }
    int g = 0;
    while (g < groups_ && taken_by[static_cast<std::size_t>(g)] == j) ++g;
    if (g == groups_) {
      ++groups_;
      taken_by.push_back(-1);
    }
    group[static_cast<std::size_t>(j)] = g;
  }
  group_start_.assign(static_cast<std::size_t>(groups_) + 1, 0);
  for (int g : group) ++group_start_[static_cast<std::size_t>(g) + 1];
  for (int g = 0; g < groups_; ++g) group_start_[g + 1] += group_start_[g];
  columns_.assign(static_cast<std::size_t>(n), 0);
  std::vector<int> fill(group_start_.begin(), group_start_.end() - 1);
  for (Eigen::Index j = 0; j < n; ++j) columns_[static_cast<std::size_t>(fill[group[j]]++)] = static_cast<int>(j);
}

void ColoredForwardDifference::Evaluate(const Eigen::VectorXd& x, const Eigen::VectorXd& r,
                                        const Eigen::VectorXd& step,
                                        const std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)>& residual,
                                        Eigen::SparseMatrix<double>& jacobian) {
  if (x.size() != n_ || r.size() != n_ || step.size() != n_)
    throw std::invalid_argument("colored forward difference: x of size " + std::to_string(x.size()) +
                                " for a pattern of n = " + std::to_string(n_));
  x_perturbed_ = x;
  increment_.resize(n_);
  r_perturbed_.resize(n_);
  entries_.clear();
  entries_.reserve(rows_.size());
  for (int g = 0; g < groups_; ++g) {
    for (int a = group_start_[g]; a < group_start_[g + 1]; ++a) {
      const int j = columns_[static_cast<std::size_t>(a)];
      x_perturbed_[j] = x[j] + step[j];
      increment_[j] = x_perturbed_[j] - x[j];  // the increment actually made (exact in floating point)
    }
    residual(x_perturbed_, r_perturbed_);
    for (int a = group_start_[g]; a < group_start_[g + 1]; ++a) {
      const int j = columns_[static_cast<std::size_t>(a)];
      for (std::size_t b = row_start_[j]; b < row_start_[j + 1]; ++b) {
        const int i = rows_[b];
        entries_.emplace_back(i, j, (r_perturbed_[i] - r[i]) / increment_[j]);
      }
      x_perturbed_[j] = x[j];
    }
  }
  // Column after column within a group, rows ascending: one triplet per entry of the pattern, so no duplicates.
  jacobian.resize(n_, n_);
  jacobian.setFromTriplets(entries_.begin(), entries_.end());
}

}  // namespace impactlab
