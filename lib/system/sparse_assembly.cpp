#include "system/sparse_assembly.h"

#include <algorithm>
#include <cstring>

#include "core/errors.h"

namespace impactlab {

void ReserveNonZeros(Eigen::SparseMatrix<double>& m, Eigen::Index nonzeros) {
  if (m.data().allocatedSize() < nonzeros) m.data().reserve(nonzeros - m.data().size());
}

void AssembleNonzeros(const Eigen::Ref<const Eigen::MatrixXd>& dense, SparseEntries& entries, SparseAssembler& assembler,
                      Eigen::SparseMatrix<double>& out) {
  entries.clear();
  for (Eigen::Index c = 0; c < dense.cols(); ++c)
    for (Eigen::Index i = 0; i < dense.rows(); ++i)
      if (dense(i, c) != 0.0) entries.emplace_back(static_cast<int>(i), static_cast<int>(c), dense(i, c));
  assembler.Assemble(dense.rows(), dense.cols(), entries, out);
}

void SparseAssembler::ReserveEntries(std::size_t entries, Eigen::Index outer) {
  for (auto* v : {&row_, &col_, &slot_, &inner_, &by_column_}) v->reserve(entries);
  first_.reserve(entries);
  outer_.reserve(static_cast<std::size_t>(outer) + 1);
  count_.reserve(static_cast<std::size_t>(outer) + 1);
}

bool SparseAssembler::SameSequence(Eigen::Index rows, Eigen::Index cols, const SparseEntries& entries,
                                   const Eigen::SparseMatrix<double>& out) const {
  if (rows != rows_ || cols != cols_ || entries.size() != row_.size() || out.rows() != rows || out.cols() != cols ||
      !out.isCompressed() || out.nonZeros() != static_cast<Eigen::Index>(inner_.size()))
    return false;
  if (std::memcmp(out.outerIndexPtr(), outer_.data(), outer_.size() * sizeof(int)) != 0) return false;
  if (!inner_.empty() && std::memcmp(out.innerIndexPtr(), inner_.data(), inner_.size() * sizeof(int)) != 0)
    return false;
  for (std::size_t k = 0; k < entries.size(); ++k)
    if (entries[k].row() != row_[k] || entries[k].col() != col_[k]) return false;
  return true;
}

void SparseAssembler::Assemble(Eigen::Index rows, Eigen::Index cols, const SparseEntries& entries,
                               Eigen::SparseMatrix<double>& out) {
  const std::size_t ne = entries.size();
  if (SameSequence(rows, cols, entries, out)) {  // the contact set did not change: values only
    double* val = out.valuePtr();
    for (std::size_t k = 0; k < ne; ++k) {
      if (first_[k])
        val[slot_[k]] = entries[k].value();
      else
        val[slot_[k]] += entries[k].value();
    }
    reused_ = true;
    return;
  }
  reused_ = false;
  ++patterns_built_;
  rows_ = rows;
  cols_ = cols;
  row_.resize(ne);
  col_.resize(ne);
  slot_.resize(ne);
  first_.resize(ne);
  by_column_.resize(ne);
  count_.assign(static_cast<std::size_t>(cols) + 1, 0);
  for (std::size_t k = 0; k < ne; ++k) {
    const int r = static_cast<int>(entries[k].row()), c = static_cast<int>(entries[k].col());
    IMPACTLAB_DEMAND(r >= 0 && r < rows && c >= 0 && c < cols);
    row_[k] = r;
    col_[k] = c;
    ++count_[static_cast<std::size_t>(c) + 1];
  }
  for (Eigen::Index c = 0; c < cols; ++c) count_[c + 1] += count_[c];
  // Stable counting sort by column (outer_ as the per-column cursor), then a stable insertion sort by row inside
  // each column: duplicates keep the order of the entries, as setFromTriplets sums them.
  outer_.assign(count_.begin(), count_.end());
  for (std::size_t k = 0; k < ne; ++k) by_column_[static_cast<std::size_t>(outer_[col_[k]]++)] = static_cast<int>(k);
  for (Eigen::Index c = 0; c < cols; ++c) {
    int* b = by_column_.data() + count_[c];
    const int len = count_[c + 1] - count_[c];
    for (int i = 1; i < len; ++i) {
      const int key = b[i];
      int j = i - 1;
      while (j >= 0 && row_[b[j]] > row_[key]) {
        b[j + 1] = b[j];
        --j;
      }
      b[j + 1] = key;
    }
  }
  // Count the distinct coordinates, then fill the compressed arrays.
  Eigen::Index nnz = 0;
  for (Eigen::Index c = 0; c < cols; ++c)
    for (int i = count_[c]; i < count_[c + 1]; ++i)
      if (i == count_[c] || row_[by_column_[i]] != row_[by_column_[i - 1]]) ++nnz;
  out.resize(rows, cols);  // keeps the outer array when the size is unchanged, and the value storage
  out.resizeNonZeros(nnz);
  int* outer = out.outerIndexPtr();
  int* inner = out.innerIndexPtr();
  double* val = out.valuePtr();
  int s = -1;
  for (Eigen::Index c = 0; c < cols; ++c) {
    outer[c] = s + 1;
    for (int i = count_[c]; i < count_[c + 1]; ++i) {
      const int k = by_column_[i];
      const bool first = i == count_[c] || row_[k] != row_[by_column_[i - 1]];
      if (first) {
        inner[++s] = row_[k];
        val[s] = entries[static_cast<std::size_t>(k)].value();
      } else {
        val[s] += entries[static_cast<std::size_t>(k)].value();
      }
      first_[static_cast<std::size_t>(k)] = first;
      slot_[static_cast<std::size_t>(k)] = s;
    }
  }
  outer[cols] = static_cast<int>(nnz);
  outer_.assign(outer, outer + cols + 1);
  inner_.assign(inner, inner + nnz);
  // The refill loop visits the entries in their own order: the first of each coordinate must be the earliest one.
  // (The stable sorts guarantee it; the sequence check above guarantees the same coordinates.)
}

namespace {

// Visits the union pattern of the terms column by column: emit(column, row, value) with Eigen's values.
template <class Emit>
void MergeTerms(Eigen::Index n, const SparseTerm* terms, int count, Emit&& emit) {
  int p[4], e[4];
  for (Eigen::Index c = 0; c < n; ++c) {
    for (int g = 0; g < count; ++g) {
      if (terms[g].matrix) {
        p[g] = terms[g].matrix->outerIndexPtr()[c];
        e[g] = terms[g].matrix->outerIndexPtr()[c + 1];
      } else {
        p[g] = 0;
        e[g] = 1;  // one entry: the diagonal
      }
    }
    for (;;) {
      Eigen::Index row = n;
      for (int g = 0; g < count; ++g)
        if (p[g] < e[g]) row = std::min<Eigen::Index>(row, terms[g].matrix ? terms[g].matrix->innerIndexPtr()[p[g]] : c);
      if (row == n) break;
      bool has = false;
      double v = 0.0;
      for (int g = 0; g < count; ++g) {
        const bool present =
            p[g] < e[g] && (terms[g].matrix ? terms[g].matrix->innerIndexPtr()[p[g]] == row : row == c);
        double term = 0.0;
        if (present) {
          const double b = terms[g].matrix ? terms[g].matrix->valuePtr()[p[g]] : 1.0;
          term = terms[g].divide ? b / terms[g].factor : terms[g].factor * b;
          ++p[g];
        }
        if (g == 0) {
          if (present) {
            v = term;
            has = true;
          }
        } else if (has || present) {
          v = (has ? v : 0.0) + (present ? term : 0.0);
          has = true;
        }
      }
      emit(c, row, v);
    }
  }
}

}  // namespace

void SparseCombine(Eigen::Index n, const SparseTerm* terms, int count, Eigen::SparseMatrix<double>& out) {
  IMPACTLAB_DEMAND(count >= 1 && count <= 4);
  for (int g = 0; g < count; ++g)
    IMPACTLAB_DEMAND(!terms[g].matrix ||
                     (terms[g].matrix->isCompressed() && terms[g].matrix->rows() == n && terms[g].matrix->cols() == n));
  Eigen::Index nnz = 0;
  MergeTerms(n, terms, count, [&](Eigen::Index, Eigen::Index, double) { ++nnz; });
  out.resize(n, n);
  out.resizeNonZeros(nnz);
  int* outer = out.outerIndexPtr();
  int* inner = out.innerIndexPtr();
  double* val = out.valuePtr();
  Eigen::Index s = 0, column = -1;
  MergeTerms(n, terms, count, [&](Eigen::Index c, Eigen::Index row, double v) {
    while (column < c) outer[++column] = static_cast<int>(s);
    inner[s] = static_cast<int>(row);
    val[s++] = v;
  });
  while (column < n) outer[++column] = static_cast<int>(s);
}

void AddDiagonal(Eigen::SparseMatrix<double>& m, const Eigen::VectorXd& d) {
  const Eigen::Index n = m.cols();
  IMPACTLAB_DEMAND(m.rows() == n && d.size() == n && m.isCompressed());
  int* outer = m.outerIndexPtr();
  auto has_diagonal = [&](Eigen::Index c) {
    const int* begin = m.innerIndexPtr() + outer[c];
    const int* end = m.innerIndexPtr() + outer[c + 1];
    return std::binary_search(begin, end, static_cast<int>(c));
  };
  Eigen::Index missing = 0;
  for (Eigen::Index c = 0; c < n; ++c) missing += has_diagonal(c) ? 0 : 1;
  if (missing == 0) {  // same pattern: values only
    for (Eigen::Index c = 0; c < n; ++c)
      for (int i = outer[c]; i < outer[c + 1]; ++i)
        m.valuePtr()[i] = m.innerIndexPtr()[i] == c ? m.valuePtr()[i] + d[c] : m.valuePtr()[i] + 0.0;
    return;
  }
  // Insert the missing diagonal entries, moving the columns backwards in place.
  const Eigen::Index old_nnz = outer[n];
  m.resizeNonZeros(old_nnz + missing);
  outer = m.outerIndexPtr();
  int* inner = m.innerIndexPtr();
  double* val = m.valuePtr();
  Eigen::Index shift = missing;
  int old_end = static_cast<int>(old_nnz);
  for (Eigen::Index c = n - 1; c >= 0; --c) {
    const int old_start = outer[c];
    const bool miss = !std::binary_search(inner + old_start, inner + old_end, static_cast<int>(c));
    Eigen::Index w = old_end + shift;
    const Eigen::Index new_end = w;
    bool inserted = !miss;
    for (int i = old_end - 1; i >= old_start; --i) {
      if (!inserted && inner[i] < c) {
        --w;
        inner[w] = static_cast<int>(c);
        val[w] = 0.0 + d[c];
        inserted = true;
      }
      --w;
      const int r = inner[i];
      const double v = val[i];
      inner[w] = r;
      val[w] = r == c ? v + d[c] : v + 0.0;
    }
    if (!inserted) {
      --w;
      inner[w] = static_cast<int>(c);
      val[w] = 0.0 + d[c];
    }
    outer[c + 1] = static_cast<int>(new_end);
    if (miss) --shift;
    old_end = old_start;
  }
  outer[0] = 0;
}

}  // namespace impactlab
