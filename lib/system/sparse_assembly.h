// SparseAssembly: Eigen's sparse assembly operations, written into storage that is kept between calls, so that
// the implicit schemes assemble their Jacobians without heap allocation once the storage has been sized
// (issue 19 item 1; docs/performance.md "No heap allocation inside an implicit step").
//
//   Assemble:        A = Σ_k e_k (row_k, col_k)   — exactly what SparseMatrix::setFromTriplets gives: compressed,
//                    rows ascending in each column, duplicates summed in the order of the entries (the first one
//                    assigned, the next ones added), so the values are bitwise those of setFromTriplets.
//   SparseCombine:   A = op₀(B₀) + op₁(B₁) + …    — the values of the Eigen expression (e.g. 0.5 * H + C / h):
//                    pattern = union, an entry absent from one operand enters the sum as the literal 0, the first
//                    operand is only scaled (Eigen's sparse CwiseBinaryOp evaluator).
//   AddDiagonal:     A = A + diag(d)              — the values of `A += D` with D holding every diagonal entry.
//
// Pattern reuse: Assemble remembers the coordinate sequence of its last call and where each entry landed; while
// the sequence is the same (the contact set did not change) and the output still has that pattern, it only
// refills the values (O(entries), no sorting). Otherwise it re-patterns in place (a stable counting sort by
// column, then by row inside the column). Either way nothing is allocated while the output matrix and this
// object already have capacity for the entries (ReserveEntries / ReserveNonZeros with a bound such as the
// model's full contact list).
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cstddef>
#include <vector>

namespace impactlab {

using SparseEntries = std::vector<Eigen::Triplet<double>>;

class SparseAssembler {
 public:
  /// Capacity for calls with up to `entries` triplets on matrices with up to `outer` columns.
  void ReserveEntries(std::size_t entries, Eigen::Index outer = 0);
  /// out = setFromTriplets(entries) as a rows × cols matrix (see the header comment).
  void Assemble(Eigen::Index rows, Eigen::Index cols, const SparseEntries& entries, Eigen::SparseMatrix<double>& out);
  /// Whether the last Assemble reused the previous pattern (values refilled only).
  bool last_pattern_reused() const { return reused_; }
  /// How many times a new pattern was built (for tests and benchmarks).
  long patterns_built() const { return patterns_built_; }
  /// Where entry k of the last Assemble went: its index in the output's value array (entries of one coordinate
  /// were summed in entry order, the first one assigned).
  const std::vector<int>& slots() const { return slot_; }

 private:
  bool SameSequence(Eigen::Index rows, Eigen::Index cols, const SparseEntries& entries,
                    const Eigen::SparseMatrix<double>& out) const;
  Eigen::Index rows_ = -1, cols_ = -1;
  std::vector<int> row_, col_;          // coordinates of the entries of the last pattern
  std::vector<int> slot_;               // value index of entry k
  std::vector<char> first_;             // entry k is the first of its coordinate (assigned, not added)
  std::vector<int> outer_, inner_;      // the pattern the slots refer to (compared with the output's)
  std::vector<int> count_, by_column_;  // counting-sort scratch
  bool reused_ = false;
  long patterns_built_ = 0;
};

/// out = dense.sparseView(0.0, 0.0): the nonzero entries of a small dense matrix (an exact zero, ±0.0, is dropped),
/// through `entries` and `assembler`, which allocate nothing once they have room for rows · cols entries
/// (SparseEntries::reserve, SparseAssembler::ReserveEntries) and `out` for as many (ReserveNonZeros).
void AssembleNonzeros(const Eigen::Ref<const Eigen::MatrixXd>& dense, SparseEntries& entries, SparseAssembler& assembler,
                      Eigen::SparseMatrix<double>& out);

/// Makes room for `nonzeros` stored entries in m without changing its contents (no-op when it has room).
void ReserveNonZeros(Eigen::SparseMatrix<double>& m, Eigen::Index nonzeros);

/// One operand of SparseCombine: factor · B (multiply) or B / factor (divide); `matrix == nullptr` is the
/// identity (the diagonal entries 1.0 of an n × n identity, as SparseMatrix::setIdentity stores them).
struct SparseTerm {
  const Eigen::SparseMatrix<double>* matrix = nullptr;
  double factor = 1.0;
  bool divide = false;
};

/// out = op₀(B₀) + op₁(B₁) + … (n × n, compressed inputs, up to 4 terms), values as Eigen's expression gives them.
/// No allocation when out has room for the union pattern (ReserveNonZeros).
void SparseCombine(Eigen::Index n, const SparseTerm* terms, int count, Eigen::SparseMatrix<double>& out);

/// m = m + diag(d) with every diagonal entry of the right-hand side present (the values of `m += D`); in place,
/// inserting missing diagonal entries without allocation when m has room (ReserveNonZeros). m compressed, square.
void AddDiagonal(Eigen::SparseMatrix<double>& m, const Eigen::VectorXd& d);

}  // namespace impactlab
