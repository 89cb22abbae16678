#include "integrators/threaded_sparse_operator.h"

#include <cstring>

#include "core/contact_threads.h"

namespace impactlab {

bool ThreadedSparseOperator::SamePattern(const Eigen::SparseMatrix<double>& a) const {
  const std::size_t n = static_cast<std::size_t>(a.outerSize()), nnz = static_cast<std::size_t>(a.nonZeros());
  return outer_.size() == n + 1 && inner_.size() == nnz &&
         std::memcmp(a.outerIndexPtr(), outer_.data(), (n + 1) * sizeof(int)) == 0 &&
         (nnz == 0 || std::memcmp(a.innerIndexPtr(), inner_.data(), nnz * sizeof(int)) == 0);
}

void ThreadedSparseOperator::Attach(const Eigen::SparseMatrix<double>& a) {
  a_ = &a;
  const Eigen::Index n = a.rows();
  const long nnz = static_cast<long>(a.nonZeros());
  // On one thread the product runs column by column on A itself (Eigen's order): no row copy to make.
  by_rows_ = ContactThreads() > 1 && nnz >= 16 * kParallelContactThreshold;
  if (!by_rows_) return;
  if (!SamePattern(a)) {  // row index: a counting sort of the entries by row, columns ascending inside each row
    outer_.assign(a.outerIndexPtr(), a.outerIndexPtr() + a.outerSize() + 1);
    inner_.assign(a.innerIndexPtr(), a.innerIndexPtr() + nnz);
    row_start_.assign(static_cast<std::size_t>(n) + 1, 0);
    for (long p = 0; p < nnz; ++p) ++row_start_[static_cast<std::size_t>(inner_[static_cast<std::size_t>(p)]) + 1];
    for (Eigen::Index i = 0; i < n; ++i) row_start_[i + 1] += row_start_[i];
    std::vector<int> fill(row_start_.begin(), row_start_.end() - 1);
    row_column_.resize(static_cast<std::size_t>(nnz));
    row_source_.resize(static_cast<std::size_t>(nnz));
    for (Eigen::Index c = 0; c < a.outerSize(); ++c)
      for (int p = outer_[c]; p < outer_[c + 1]; ++p) {
        const int at = fill[static_cast<std::size_t>(inner_[static_cast<std::size_t>(p)])]++;
        row_column_[static_cast<std::size_t>(at)] = static_cast<int>(c);
        row_source_[static_cast<std::size_t>(at)] = p;
      }
  }
  row_value_.resize(static_cast<std::size_t>(nnz));
  const double* value = a.valuePtr();
  const int* source = row_source_.data();
  double* out = row_value_.data();
  const int threads = ContactThreads();
  (void)threads;  // used by the pragma only (unused without OpenMP)
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1 && nnz >= 16 * kParallelContactThreshold)
  for (long p = 0; p < nnz; ++p) out[p] = value[source[p]];
}

void ThreadedSparseOperator::ScaleAndAdd(const double* x, double alpha, double* y) const {
  if (!by_rows_) {  // Eigen's column-major product: y_i ← y_i + a_ij (α x_j), column by column
    const int* outer = a_->outerIndexPtr();
    const int* inner = a_->innerIndexPtr();
    const double* value = a_->valuePtr();
    for (Eigen::Index j = 0; j < a_->outerSize(); ++j) {
      const double xj = alpha * x[j];
      for (int p = outer[j]; p < outer[j + 1]; ++p) y[inner[p]] += value[p] * xj;
    }
    return;
  }
  const long n = static_cast<long>(a_->rows());
  const int* start = row_start_.data();
  const int* column = row_column_.data();
  const double* value = row_value_.data();
  const int threads = ContactThreads();
  (void)threads;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (long i = 0; i < n; ++i) {
    double v = y[i];
    for (int p = start[i]; p < start[i + 1]; ++p) v += value[p] * (alpha * x[column[p]]);
    y[i] = v;
  }
}

OperatorJacobi& OperatorJacobi::factorize(const ThreadedSparseOperator& op) {
  const Eigen::SparseMatrix<double>& a = op.matrix();
  inverse_diagonal_.resize(a.cols());
  for (Eigen::Index j = 0; j < a.outerSize(); ++j) {
    Eigen::SparseMatrix<double>::InnerIterator it(a, j);
    while (it && it.index() != j) ++it;
    inverse_diagonal_(j) = it && it.index() == j && it.value() != 0.0 ? 1.0 / it.value() : 1.0;
  }
  return *this;
}

}  // namespace impactlab
