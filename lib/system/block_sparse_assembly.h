// BlockSparseAssembler: A = diag(d) + Σ_b P_bᵀ B_b P_b from a ContactBlocks layout and its values (issue 19,
// docs/performance.md "Sparse Newton on the sphere assembly"), bitwise the matrix SparseAssembler gives from the
// triplets diag(d) first, then ContactBlocks::AppendTriplets — the order the contact seam assembled its Newton
// Jacobian in before.
//
// Pattern build (the layout or the output's pattern changed): the triplets are formed once and assembled by
// SparseAssembler (system/sparse_assembly.h); from where each triplet landed a gather list is kept: for every
// value v_s of the matrix, the contributions (diagonal entries and block values) in triplet order.
// Refill (the layout is the same as last time): no triplets, no sorting (an output that does not hold the kept
// pattern, e.g. Newton's other Jacobian buffer, gets the pattern copied in); every value is the fixed-order sum of its gather list, v_s = c₀ + c₁ + … (the first assigned, the next
// added, as the triplet assembly sums duplicates), computed in parallel over the values on the contact threads
// (core/contact_threads.h). Each value is formed by one thread from the same operands in the same order, so the
// result does not depend on the thread count, and equals the triplet assembly's bit for bit.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cstddef>
#include <vector>

#include "system/contact_blocks.h"
#include "system/sparse_assembly.h"

namespace impactlab {

class BlockSparseAssembler {
 public:
  /// out = diag(d) + Σ blocks (n × n, n = d.size()), see the header comment.
  void Assemble(const Eigen::VectorXd& d, const ContactBlocks& blocks, Eigen::SparseMatrix<double>& out);
  /// Whether the last Assemble refilled the values into the kept pattern (no pattern build).
  bool last_pattern_reused() const { return reused_; }
  /// How many times a new pattern was built.
  long patterns_built() const { return triplets_.patterns_built(); }

 private:
  bool SameLayout(Eigen::Index n, const ContactBlocks& blocks) const;
  bool HasPattern(const Eigen::SparseMatrix<double>& out) const;
  Eigen::Index n_ = -1;
  std::vector<int> coordinates_;       // the layout of the last pattern
  std::vector<std::size_t> start_;
  std::vector<int> outer_, inner_;     // the pattern the gather lists refer to
  std::vector<int> gather_start_;      // value s: contributions gather_[gather_start_[s] .. gather_start_[s+1])
  std::vector<int> gather_;            // contribution: k < n the diagonal d_k, else the block value k − n
  SparseEntries entries_;              // the triplets of a pattern build
  SparseAssembler triplets_;
  bool reused_ = false;
};

}  // namespace impactlab
