// ColoredForwardDifference: a sparse Jacobian J = ∂R/∂x by forward differences with one evaluation of R per group
// of columns instead of one per column [Curtis, Powell & Reid 1974, "On the estimation of sparse Jacobian matrices",
// J. Inst. Math. Appl. 13:117]:
//
//   columns j, k may share a group when no row i has both J_ij ≠ 0 and J_ik ≠ 0 (structurally orthogonal);
//   R(x + Σ_{j ∈ group} e_j u_j) − R(x) then holds in row i the change due to the one column j of the group that
//   touches row i, and J_ij = (R_i(x + Σ e_k u_k) − R_i(x)) / e_j.
//
// The groups are a greedy colouring of the column intersection graph in the natural order [Coleman & Moré 1983,
// "Estimation of sparse Jacobian matrices and graph coloring problems", SIAM J. Numer. Anal. 20:187]. The pattern is
// symmetric and given as blocks of coupled coordinates (ContactBlocks' layout: every pair of coordinates of one block
// may be nonzero) plus the diagonal. For a contact assembly the groups number ≈ the coordinates of a body times the
// bodies within two contacts of one another, independent of the size of the assembly, where the dense difference
// needs one evaluation per coordinate.
//
// Row i of an evaluation reads, by the pattern, only the coordinates of its own row of J, and at most one of them is
// perturbed: when R_i is computed from those coordinates alone, the entries are bitwise those of the column-by-column
// difference with the same steps e_j (tests/integrators/colored_forward_difference_test.cpp).
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <functional>
#include <vector>

#include "system/contact_blocks.h"
#include "system/sparse_assembly.h"

namespace impactlab {

class ColoredForwardDifference {
 public:
  /// The pattern of an n × n Jacobian: the diagonal and every pair of coordinates within one block of `layout`
  /// (its values are not read). The colouring is recomputed only when n or the layout changed.
  void SetPattern(Eigen::Index n, const ContactBlocks& layout);
  /// Groups of the current pattern (evaluations of R per Jacobian).
  int groups() const { return groups_; }
  /// Entries J_ij of the pattern (the diagonal included).
  std::size_t nonzeros() const { return rows_.size(); }

  /// J at x from r = R(x) and one evaluation of `residual` per group; column j is perturbed by step[j] (> 0, e.g.
  /// 1.5e-8 max(|x_j|, scale)), rounded to a representable increment as the dense difference does.
  void Evaluate(const Eigen::VectorXd& x, const Eigen::VectorXd& r, const Eigen::VectorXd& step,
                const std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)>& residual,
                Eigen::SparseMatrix<double>& jacobian);

 private:
  Eigen::Index n_ = -1;
  std::vector<int> layout_coordinates_;  // the layout the colouring was computed for
  std::vector<std::size_t> layout_start_;
  std::vector<std::size_t> row_start_;  // column j's rows: rows_[row_start_[j] .. row_start_[j+1]) (sorted, unique)
  std::vector<int> rows_;
  std::vector<int> group_start_;  // group g's columns: columns_[group_start_[g] .. group_start_[g+1])
  std::vector<int> columns_;
  int groups_ = 0;
  Eigen::VectorXd x_perturbed_, r_perturbed_, increment_;
  SparseEntries entries_;
};

}  // namespace impactlab
