#include "system/block_sparse_assembly.h"

#include <cstring>

#include "core/contact_threads.h"

namespace impactlab {

bool BlockSparseAssembler::SameLayout(Eigen::Index n, const ContactBlocks& blocks) const {
  if (n != n_ || blocks.coordinates.size() != coordinates_.size() || blocks.start != start_ ||
      blocks.values.size() + static_cast<std::size_t>(n) != gather_.size())
    return false;
  return coordinates_.empty() ||
         std::memcmp(blocks.coordinates.data(), coordinates_.data(), coordinates_.size() * sizeof(int)) == 0;
}

bool BlockSparseAssembler::HasPattern(const Eigen::SparseMatrix<double>& out) const {
  if (out.rows() != n_ || out.cols() != n_ || !out.isCompressed() ||
      out.nonZeros() != static_cast<Eigen::Index>(inner_.size()))
    return false;
  if (std::memcmp(out.outerIndexPtr(), outer_.data(), outer_.size() * sizeof(int)) != 0) return false;
  return inner_.empty() || std::memcmp(out.innerIndexPtr(), inner_.data(), inner_.size() * sizeof(int)) == 0;
}

void BlockSparseAssembler::Assemble(const Eigen::VectorXd& d, const ContactBlocks& blocks,
                                    Eigen::SparseMatrix<double>& out) {
  const Eigen::Index n = d.size();
  const double* diagonal = d.data();
  const double* values = blocks.values.data();
  if (SameLayout(n, blocks)) {
    reused_ = true;
    if (!HasPattern(out)) {  // the other Newton buffer: the kept pattern copied in, no sorting
      out.resize(n, n);
      out.resizeNonZeros(static_cast<Eigen::Index>(inner_.size()));
      std::memcpy(out.outerIndexPtr(), outer_.data(), outer_.size() * sizeof(int));
      if (!inner_.empty()) std::memcpy(out.innerIndexPtr(), inner_.data(), inner_.size() * sizeof(int));
    }
    double* val = out.valuePtr();
    const long nnz = static_cast<long>(inner_.size());
    const int* start = gather_start_.data();
    const int* gather = gather_.data();
    const auto source = [&](int k) { return k < n ? diagonal[k] : values[k - n]; };
    const int threads = ContactThreads();
    (void)threads;  // used by the pragma only (unused without OpenMP)
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1 && nnz >= 16 * kParallelContactThreshold)
    for (long s = 0; s < nnz; ++s) {
      double v = source(gather[start[s]]);
      for (int g = start[s] + 1; g < start[s + 1]; ++g) v += source(gather[g]);
      val[s] = v;
    }
    return;
  }
  reused_ = false;
  entries_.clear();
  for (Eigen::Index c = 0; c < n; ++c) entries_.emplace_back(static_cast<int>(c), static_cast<int>(c), d[c]);
  blocks.AppendTriplets(entries_);
  triplets_.Assemble(n, n, entries_, out);
  // Gather lists: the triplets by value index, stable (triplet order inside each value).
  const std::vector<int>& slot = triplets_.slots();
  const std::size_t nnz = static_cast<std::size_t>(out.nonZeros());
  gather_start_.assign(nnz + 1, 0);
  for (int s : slot) ++gather_start_[static_cast<std::size_t>(s) + 1];
  for (std::size_t s = 0; s < nnz; ++s) gather_start_[s + 1] += gather_start_[s];
  gather_.resize(slot.size());
  std::vector<int> fill(gather_start_.begin(), gather_start_.end() - 1);
  for (std::size_t k = 0; k < slot.size(); ++k)
    gather_[static_cast<std::size_t>(fill[static_cast<std::size_t>(slot[k])]++)] = static_cast<int>(k);
  n_ = n;
  coordinates_ = blocks.coordinates;
  start_ = blocks.start;
  outer_.assign(out.outerIndexPtr(), out.outerIndexPtr() + n + 1);
  inner_.assign(out.innerIndexPtr(), out.innerIndexPtr() + nnz);
}

}  // namespace impactlab
