// BlockSparseAssembler (system/block_sparse_assembly.h): the matrix diag(d) + Σ blocks refilled straight from the
// block values is bitwise the triplet assembly's (SparseAssembler on diag(d), then ContactBlocks::AppendTriplets),
// on the pattern build and on refills with new values; a changed layout builds a new pattern; two output buffers
// used in turn (as Newton exchanges its Jacobians) stay right with one pattern build; and the refill, parallel above the threshold, gives
// the same bits on 1 and 2 contact threads.
#include <doctest/doctest.h>

#include <Eigen/SparseCore>
#include <array>
#include <cstring>
#include <random>

#include "core/contact_threads.h"
#include "system/block_sparse_assembly.h"
#include "system/contact_blocks.h"
#include "system/sparse_assembly.h"

using namespace impactlab;

namespace {

void FillValues(ContactBlocks& b, unsigned seed);

/// `pairs` 12 × 12 blocks between random bodies and `walls` 6 × 6 blocks (6 coordinates per body), random values.
ContactBlocks RandomBlocks(int bodies, int pairs, int walls, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> body(0, bodies - 1);
  ContactBlocks b;
  for (int k = 0; k < pairs + walls; ++k) {
    std::array<int, 12> coords;
    const int i = body(rng);
    int j = body(rng);
    if (j == i) j = (i + 1) % bodies;
    for (int c = 0; c < 6; ++c) {
      coords[static_cast<size_t>(c)] = 6 * i + c;
      coords[static_cast<size_t>(c) + 6] = 6 * j + c;
    }
    b.AddBlock(std::span<const int>(coords.data(), k < pairs ? 12 : 6));
  }
  b.SizeValues();
  FillValues(b, seed + 1);
  return b;
}

void FillValues(ContactBlocks& b, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (double& v : b.values) v = value(rng) * 1e3;
}

Eigen::VectorXd Diagonal(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(1.0, 2.0);
  Eigen::VectorXd d(n);
  for (int k = 0; k < n; ++k) d[k] = value(rng) * 1e7;
  return d;
}

Eigen::SparseMatrix<double> ByTriplets(const Eigen::VectorXd& d, const ContactBlocks& b) {
  SparseEntries e;
  for (Eigen::Index c = 0; c < d.size(); ++c) e.emplace_back(static_cast<int>(c), static_cast<int>(c), d[c]);
  b.AppendTriplets(e);
  Eigen::SparseMatrix<double> m;
  SparseAssembler a;
  a.Assemble(d.size(), d.size(), e, m);
  return m;
}

bool Bitwise(const Eigen::SparseMatrix<double>& a, const Eigen::SparseMatrix<double>& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols() || a.nonZeros() != b.nonZeros()) return false;
  const auto nnz = static_cast<size_t>(a.nonZeros());
  return std::memcmp(a.outerIndexPtr(), b.outerIndexPtr(), (static_cast<size_t>(a.cols()) + 1) * sizeof(int)) == 0 &&
         std::memcmp(a.innerIndexPtr(), b.innerIndexPtr(), nnz * sizeof(int)) == 0 &&
         std::memcmp(a.valuePtr(), b.valuePtr(), nnz * sizeof(double)) == 0;
}

struct RestoreThreads {
  int saved = ContactThreads();
  ~RestoreThreads() { SetContactThreads(saved); }
};

}  // namespace

TEST_CASE("block sparse assembly: pattern build and refills equal the triplet assembly bitwise") {
  const int bodies = 40;
  ContactBlocks b = RandomBlocks(bodies, 90, 30, 11);  // bodies with several blocks: shared diagonal blocks
  const Eigen::VectorXd d = Diagonal(6 * bodies, 5);
  BlockSparseAssembler assembler;
  Eigen::SparseMatrix<double> current, trial;
  assembler.Assemble(d, b, current);
  CHECK(!assembler.last_pattern_reused());
  CHECK(Bitwise(current, ByTriplets(d, b)));
  // New values, same layout, the two buffers in turn (Newton's current and trial Jacobian).
  for (unsigned round = 0; round < 4; ++round) {
    FillValues(b, 100 + round);
    Eigen::SparseMatrix<double>& out = round % 2 == 0 ? trial : current;
    assembler.Assemble(d, b, out);
    CHECK(Bitwise(out, ByTriplets(d, b)));
  }
  CHECK(assembler.last_pattern_reused());
  const long built = assembler.patterns_built();
  CHECK(built == 1);  // the second buffer gets the kept pattern copied, not rebuilt
  // A changed layout (one block fewer) builds a new pattern and is right again.
  ContactBlocks fewer = RandomBlocks(bodies, 89, 30, 11);
  assembler.Assemble(d, fewer, current);
  CHECK(!assembler.last_pattern_reused());
  CHECK(assembler.patterns_built() == built + 1);
  CHECK(Bitwise(current, ByTriplets(d, fewer)));
  // The same coordinates in other blocks (two 6 × 6 blocks instead of one 12 × 12) are another layout.
  ContactBlocks pair, two_walls;
  const std::array<int, 12> coords{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  pair.AddBlock(coords);
  two_walls.AddBlock(std::span<const int>(coords.data(), 6));
  two_walls.AddBlock(std::span<const int>(coords.data() + 6, 6));
  REQUIRE(pair.coordinates == two_walls.coordinates);
  pair.SizeValues();
  two_walls.SizeValues();
  FillValues(pair, 3);
  FillValues(two_walls, 4);
  const Eigen::VectorXd d2 = Diagonal(12, 6);
  BlockSparseAssembler small;
  Eigen::SparseMatrix<double> m;
  small.Assemble(d2, pair, m);
  CHECK(Bitwise(m, ByTriplets(d2, pair)));
  small.Assemble(d2, two_walls, m);
  CHECK(!small.last_pattern_reused());
  CHECK(Bitwise(m, ByTriplets(d2, two_walls)));
}

TEST_CASE("block sparse assembly: the parallel refill is bitwise the same on 1 and 2 threads") {
  RestoreThreads restore;
  const int bodies = 3000;
  ContactBlocks b = RandomBlocks(bodies, 6000, 1000, 21);  // ~900 000 entries: above the parallel threshold
  const Eigen::VectorXd d = Diagonal(6 * bodies, 9);
  BlockSparseAssembler assembler;
  Eigen::SparseMatrix<double> one, two;
  SetContactThreads(1);
  assembler.Assemble(d, b, one);  // pattern build
  FillValues(b, 77);
  assembler.Assemble(d, b, one);
  CHECK(assembler.last_pattern_reused());
  SetContactThreads(2);
  two = one;
  std::memset(two.valuePtr(), 0, static_cast<size_t>(two.nonZeros()) * sizeof(double));
  assembler.Assemble(d, b, two);
  CHECK(assembler.last_pattern_reused());
  MESSAGE(one.nonZeros(), " stored entries, contact threads available: ", ContactThreadsAvailable());
  CHECK(one.nonZeros() >= 16 * kParallelContactThreshold);
  CHECK(Bitwise(one, two));
  CHECK(Bitwise(two, ByTriplets(d, b)));
}
