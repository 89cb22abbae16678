// BandLu: LU factorization with partial pivoting of a banded sparse matrix by SUNDIALS' band direct solver
// (SUNMatrix_Band + SUNLinSol_Band; SUNDIALS 6.4 user guide, "The SUNMATRIX_BAND Module" and "The
// SUNLinSol_Band Module"), the algorithm of [Golub & Van Loan 2013, "Matrix Computations", §4.3.5, band
// Gaussian elimination with partial pivoting]:
//
//   P A = L U,   A with lower bandwidth ml (a_ij = 0 for i − j > ml) and upper bandwidth mu (a_ij = 0 for j − i > mu):
//   L unit lower triangular with ≤ ml entries below the diagonal per column, U upper triangular with upper
//   bandwidth ≤ ml + mu (row interchanges fill in up to ml extra superdiagonals, hence the storage upper
//   bandwidth smu = ml + mu), ~2 n ml (ml + mu) flops for the factorization, ~2 n (2 ml + mu) per solve.
//
// The SUNDIALS matrix, pivot array, solver and vector wrapper are created when n or (ml, mu) change and reused
// otherwise: Factor and SolveInPlace allocate nothing (the factorization overwrites the band storage in place).
// A zero pivot (singular matrix) is reported by Factor returning false.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <memory>

namespace impactlab {

/// Lower and upper bandwidths of a sparsity pattern.
struct Bandwidths {
  Eigen::Index lower = 0;  ///< ml = max(i − j) over the stored entries (i row, j column), ≥ 0
  Eigen::Index upper = 0;  ///< mu = max(j − i) over the stored entries, ≥ 0
};

/// The bandwidths of `a`'s stored entries (explicit zeros included: the pattern, not the values); O(nonzeros).
Bandwidths PatternBandwidths(const Eigen::SparseMatrix<double>& a);

class BandLu {
 public:
  BandLu();
  ~BandLu();
  BandLu(const BandLu&) = delete;
  BandLu& operator=(const BandLu&) = delete;
  /// Copies the square matrix `a` into band storage of bandwidths `widths` (each stored entry must lie inside
  /// them: InternalError otherwise) and factors it. false: a zero pivot (singular); the factorization is unusable.
  bool Factor(const Eigen::SparseMatrix<double>& a, Bandwidths widths);
  /// x ← A⁻¹ x with the last successful Factor (x of size n). false: SUNDIALS reported a failure.
  bool SolveInPlace(Eigen::VectorXd& x);
  /// Factorizations attempted so far (successful or singular).
  long factorizations() const { return factorizations_; }

 private:
  struct Sundials;  // the SUNDIALS objects (kept out of this header)
  std::unique_ptr<Sundials> sundials_;
  long factorizations_ = 0;
};

}  // namespace impactlab
