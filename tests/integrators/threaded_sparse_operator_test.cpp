// ThreadedSparseOperator (integrators/threaded_sparse_operator.h): y ← y + α A x bitwise Eigen's column-major
// sparse product for α = 1, −1, 0.37 into a non-zero y, and BiCGSTAB with it and OperatorJacobi bitwise
// Eigen::BiCGSTAB<SparseMatrix, DiagonalPreconditioner> (same iterates, same iteration count), on 1 contact thread
// (the product column by column on the matrix itself) and on 2 (the row-ordered copy; the matrix above the parallel
// threshold).
#include <doctest/doctest.h>

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>
#include <cstring>
#include <random>

#include "core/contact_threads.h"
#include "integrators/threaded_sparse_operator.h"

using namespace impactlab;

namespace {

/// n × n, structurally symmetric random pattern (~20 entries per row), not symmetric in value, diagonally
/// dominant.
Eigen::SparseMatrix<double> RandomMatrix(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> column(0, n - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, 40.0 + value(rng));
    for (int k = 0; k < 10; ++k) {
      const int j = column(rng);
      t.emplace_back(i, j, value(rng));
      t.emplace_back(j, i, value(rng));
    }
  }
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  a.makeCompressed();
  return a;
}

Eigen::VectorXd RandomVector(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = value(rng);
  return v;
}

bool Bitwise(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), static_cast<size_t>(a.size()) * sizeof(double)) == 0;
}

struct RestoreThreads {
  int saved = ContactThreads();
  ~RestoreThreads() { SetContactThreads(saved); }
};

}  // namespace

TEST_CASE("threaded sparse operator: products and BiCGSTAB bitwise Eigen's on 1 and 2 threads") {
  RestoreThreads restore;
  const int n = 6000;
  const Eigen::SparseMatrix<double> a = RandomMatrix(n, 3);
  REQUIRE(a.nonZeros() >= 16 * kParallelContactThreshold);
  const Eigen::VectorXd x = RandomVector(n, 4), y0 = RandomVector(n, 5), b = RandomVector(n, 6);
  Eigen::BiCGSTAB<Eigen::SparseMatrix<double>, Eigen::DiagonalPreconditioner<double>> eigen_solver;
  eigen_solver.setTolerance(1e-14);
  eigen_solver.compute(a);
  const Eigen::VectorXd eigen_d = eigen_solver.solve(b);
  for (const int threads : {1, 2}) {
    SetContactThreads(threads);
    ThreadedSparseOperator op;
    op.Attach(a);
    for (const double alpha : {1.0, -1.0, 0.37}) {
      Eigen::VectorXd got = y0;
      op.ScaleAndAdd(x.data(), alpha, got.data());
      Eigen::VectorXd reference = y0;  // Eigen's column-major product: y_i += a_ij (α x_j), column by column
      for (Eigen::Index j = 0; j < n; ++j) {
        const double xj = alpha * x[j];
        for (Eigen::SparseMatrix<double>::InnerIterator it(a, j); it; ++it) reference[it.index()] += it.value() * xj;
      }
      CHECK(Bitwise(got, reference));
    }
    // The two forms BiCGSTAB evaluates: r = b − A x and v = A y.
    Eigen::VectorXd r_eigen = b - a * x, r_op = b - op * x, v_eigen(n), v_op(n);
    CHECK(Bitwise(r_op, r_eigen));
    v_eigen.noalias() = a * x;
    v_op.noalias() = op * x;
    CHECK(Bitwise(v_op, v_eigen));
    Eigen::BiCGSTAB<ThreadedSparseOperator, OperatorJacobi> solver;
    solver.setTolerance(1e-14);
    solver.compute(op);
    const Eigen::VectorXd d = solver.solve(b);
    MESSAGE(threads, " thread(s): BiCGSTAB iterations ", solver.iterations(), " (Eigen's ", eigen_solver.iterations(),
            "), error ", solver.error());
    CHECK(solver.iterations() == eigen_solver.iterations());
    CHECK(Bitwise(d, eigen_d));
  }
}

TEST_CASE("threaded sparse operator: the Jacobi preconditioner is Eigen's, missing and zero diagonal entries 1") {
  Eigen::SparseMatrix<double> a(4, 4);
  a.insert(0, 0) = 4.0;
  a.insert(1, 0) = 1.0;
  a.insert(1, 1) = 0.0;
  a.insert(3, 2) = 2.0;
  a.insert(3, 3) = -8.0;
  a.makeCompressed();
  ThreadedSparseOperator op;
  op.Attach(a);
  OperatorJacobi jacobi(op);
  Eigen::DiagonalPreconditioner<double> eigen(a);
  const Eigen::VectorXd b = Eigen::Vector4d(1.0, 2.0, 3.0, 4.0);
  const Eigen::VectorXd mine = jacobi.solve(b), theirs = eigen.solve(b);
  CHECK(Bitwise(mine, theirs));
  CHECK(mine[2] == 3.0);
  CHECK(mine[1] == 2.0);
}
