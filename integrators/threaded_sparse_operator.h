// ThreadedSparseOperator: the product y ← y + α A x of a column-major sparse matrix A on the contact threads
// (core/contact_threads.h), for BiCGSTAB's two matrix–vector products per iteration in the Newton linear solve
// (integrators/newton_solver.cpp; issue 19, docs/performance.md "Sparse Newton on the sphere assembly").
//
// Eigen computes A x for a column-major matrix column by column, y_i ← y_i + a_ij (α x_j) over j ascending, which
// cannot be split over threads by rows. This operator keeps a row-ordered copy of A (for each row its entries by
// ascending column; the row index rebuilt when A's pattern changes, the values copied per solve) and forms every
// y_i on one thread with the same operations in the same order: y_i ← y_i + a_ij (α x_j), j ascending. So the
// product is bitwise Eigen's column-major product, whatever the thread count, and BiCGSTAB's iterates are bitwise
// those of Eigen::BiCGSTAB on A. On one thread (or below the parallel threshold) there is nothing to split: the
// operator runs Eigen's column loop on A itself and makes no copy. (Eigen's own OpenMP product of row-major matrices sums each row first and adds
// α·Σ afterwards: other round-off in `r = b − A x`, and it follows OpenMP's default thread count.)
//
// The wrapper is Eigen's matrix-free operator pattern ("Matrix-free solvers" in Eigen's documentation): BiCGSTAB
// needs rows(), cols() and operator*; OperatorJacobi is the Jacobi preconditioner of A for it, bitwise
// Eigen::DiagonalPreconditioner (1 / a_jj, or 1 where a_jj is missing or zero).
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

namespace impactlab {
class ThreadedSparseOperator;
}

namespace Eigen::internal {
template <>
struct traits<impactlab::ThreadedSparseOperator> : public traits<Eigen::SparseMatrix<double>> {};
}  // namespace Eigen::internal

namespace impactlab {

class ThreadedSparseOperator : public Eigen::EigenBase<ThreadedSparseOperator> {
 public:
  using Scalar = double;
  using RealScalar = double;
  using StorageIndex = int;
  enum { ColsAtCompileTime = Eigen::Dynamic, MaxColsAtCompileTime = Eigen::Dynamic, IsRowMajor = false };

  /// Operates with `a` (compressed, column-major; it must outlive the use). On more than one contact thread, for a
  /// matrix above the parallel threshold, copies its values in row order, rebuilding the row index first if the
  /// pattern differs from the last one; otherwise the product runs on `a` column by column, which is the same order.
  void Attach(const Eigen::SparseMatrix<double>& a);
  const Eigen::SparseMatrix<double>& matrix() const { return *a_; }
  Eigen::Index rows() const { return a_->rows(); }
  Eigen::Index cols() const { return a_->cols(); }
  /// y ← y + α A x (the header comment's order).
  void ScaleAndAdd(const double* x, double alpha, double* y) const;

  template <class Rhs>
  Eigen::Product<ThreadedSparseOperator, Rhs, Eigen::DefaultProduct> operator*(const Eigen::MatrixBase<Rhs>& x) const {
    return Eigen::Product<ThreadedSparseOperator, Rhs, Eigen::DefaultProduct>(*this, x.derived());
  }

 private:
  bool SamePattern(const Eigen::SparseMatrix<double>& a) const;
  const Eigen::SparseMatrix<double>* a_ = nullptr;
  std::vector<int> outer_, inner_;          // the pattern the row index belongs to
  std::vector<int> row_start_, row_column_;  // row i: entries [row_start_[i], row_start_[i+1]), their columns
  std::vector<int> row_source_;              // and where each one is in A's value array
  std::vector<double> row_value_;            // the values in row order (copied by Attach)
  bool by_rows_ = false;                     // the product by rows on the contact threads (Attach's choice)
};

/// Jacobi preconditioner of a ThreadedSparseOperator's matrix (bitwise Eigen::DiagonalPreconditioner).
class OperatorJacobi {
 public:
  using StorageIndex = int;
  enum { ColsAtCompileTime = Eigen::Dynamic, MaxColsAtCompileTime = Eigen::Dynamic };
  OperatorJacobi() = default;
  template <class M>
  explicit OperatorJacobi(const M& m) {
    compute(m);
  }
  OperatorJacobi& analyzePattern(const ThreadedSparseOperator&) { return *this; }
  OperatorJacobi& factorize(const ThreadedSparseOperator& op);
  OperatorJacobi& compute(const ThreadedSparseOperator& op) { return factorize(op); }
  template <class Rhs>
  auto solve(const Eigen::MatrixBase<Rhs>& b) const {
    return inverse_diagonal_.cwiseProduct(b.derived());
  }
  Eigen::ComputationInfo info() const { return Eigen::Success; }

 private:
  Eigen::VectorXd inverse_diagonal_;
};

}  // namespace impactlab

namespace Eigen::internal {
template <class Rhs>
struct generic_product_impl<impactlab::ThreadedSparseOperator, Rhs, SparseShape, DenseShape, GemvProduct>
    : generic_product_impl_base<impactlab::ThreadedSparseOperator, Rhs,
                                generic_product_impl<impactlab::ThreadedSparseOperator, Rhs>> {
  template <class Dest>
  static void scaleAndAddTo(Dest& dst, const impactlab::ThreadedSparseOperator& lhs, const Rhs& rhs,
                            const double& alpha) {
    const Eigen::Ref<const Eigen::VectorXd> x(rhs);
    Eigen::Ref<Eigen::VectorXd> y(dst);
    lhs.ScaleAndAdd(x.data(), alpha, y.data());
  }
};
}  // namespace Eigen::internal
