// The band LU path of the Newton solver (integrators/band_lu.h, NewtonLinearSolver::kBand and kAuto's narrow-band
// rule): tridiagonal and pentadiagonal nonsymmetric systems against Eigen's dense PartialPivLU, the rank-one
// Sherman–Morrison part on the band path, a singular band matrix reported as such, and which path is taken
// (band for a tridiagonal pattern, SparseLU for a wide one or when "direct" is asked for).
#include <doctest/doctest.h>

#include <Eigen/LU>
#include <random>

#include "core/errors.h"
#include "integrators/band_lu.h"
#include "integrators/newton_solver.h"

using namespace impactlab;

namespace {

constexpr int kN = 200;

// A nonsymmetric matrix with lower bandwidth ml and upper bandwidth mu, random entries in [−1, 1] and a diagonal
// that is *not* dominant (|a_ii| ≤ 0.5), so that partial pivoting has to swap rows.
Eigen::SparseMatrix<double> RandomBand(int n, int ml, int mu, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Eigen::Triplet<double>> t;
  for (int j = 0; j < n; ++j)
    for (int i = std::max(0, j - mu); i <= std::min(n - 1, j + ml); ++i) t.emplace_back(i, j, i == j ? 0.5 * u(gen) : u(gen));
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  a.makeCompressed();
  return a;
}

double RelativeError(const Eigen::VectorXd& x, const Eigen::VectorXd& reference) {
  return (x - reference).norm() / reference.norm();
}

// R(x) = (A + u wᵀ) x − b: Newton converges in one update (plus round-off polishing); J = A + u wᵀ.
class LinearSystem final : public NewtonSystem {
 public:
  LinearSystem(Eigen::SparseMatrix<double> a, Eigen::VectorXd b, Eigen::VectorXd u = {}, Eigen::VectorXd w = {})
      : a_(std::move(a)), b_(std::move(b)), u_(std::move(u)), w_(std::move(w)) {}
  double Evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& r, NewtonJacobian* j) override {
    r = a_ * x - b_;
    if (u_.size() > 0) r += u_ * w_.dot(x);
    if (j) {
      j->matrix = a_;
      j->u = u_;
      j->w = w_;
    }
    return b_.lpNorm<Eigen::Infinity>() + (a_.cwiseAbs() * x.cwiseAbs()).lpNorm<Eigen::Infinity>();
  }
  Eigen::MatrixXd Dense() const {
    Eigen::MatrixXd d(a_);
    if (u_.size() > 0) d += u_ * w_.transpose();
    return d;
  }
  const Eigen::VectorXd& b() const { return b_; }

 private:
  Eigen::SparseMatrix<double> a_;
  Eigen::VectorXd b_, u_, w_;
};

// One Newton solve of `sys` with a fresh workspace: the result and which linear solver the workspace used.
struct Solved {
  NewtonReport report;
  Eigen::VectorXd x;
  long band_factorizations = 0;
  long sparse_analyses = 0;
};

Solved SolveWith(LinearSystem& sys, NewtonLinearSolver kind) {
  NewtonOptions o;
  o.linear_solver = kind;
  NewtonWorkspace ws;
  Solved out;
  out.x = Eigen::VectorXd::Zero(sys.b().size());
  out.report = SolveNewton(sys, out.x, 1.0, o, ws);
  out.band_factorizations = ws.band_factorizations();
  out.sparse_analyses = ws.sparse_analyses();
  return out;
}

/// Converged on the band path (no SparseLU analysis) to the dense LU's answer within 1e-13 relative.
void CheckBandPathMatchesDenseLu(LinearSystem& sys, NewtonLinearSolver kind) {
  const Solved s = SolveWith(sys, kind);
  CHECK(s.report.converged);
  CHECK(s.band_factorizations >= 1);
  CHECK(s.sparse_analyses == 0);
  const Eigen::VectorXd reference = Eigen::PartialPivLU<Eigen::MatrixXd>(sys.Dense()).solve(sys.b());
  CHECK(RelativeError(s.x, reference) < 1e-13);
}

}  // namespace

TEST_CASE("band LU: tridiagonal and pentadiagonal nonsymmetric n = 200 against dense partial-pivoting LU") {
  struct Case {
    int ml, mu;
  };
  for (const Case c : {Case{1, 1}, Case{2, 2}, Case{2, 1}, Case{1, 3}}) {
    CAPTURE(c.ml);
    CAPTURE(c.mu);
    const Eigen::SparseMatrix<double> a = RandomBand(kN, c.ml, c.mu, 7u + static_cast<unsigned>(c.ml * 10 + c.mu));
    const Bandwidths w = PatternBandwidths(a);
    CHECK(w.lower == c.ml);
    CHECK(w.upper == c.mu);
    const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(kN, -1.0, 2.0);
    const Eigen::VectorXd reference = Eigen::PartialPivLU<Eigen::MatrixXd>(Eigen::MatrixXd(a)).solve(b);
    BandLu lu;
    REQUIRE(lu.Factor(a, w));
    Eigen::VectorXd x = b;
    REQUIRE(lu.SolveInPlace(x));
    CHECK(RelativeError(x, reference) < 1e-13);
    CHECK(lu.factorizations() == 1);
  }
}

TEST_CASE("band LU path of SolveNewton: tridiagonal and pentadiagonal, taken by auto and band, matches dense LU") {
  for (const int half : {1, 2}) {
    for (const NewtonLinearSolver kind : {NewtonLinearSolver::kAuto, NewtonLinearSolver::kBand}) {
      CAPTURE(half);
      CAPTURE(static_cast<int>(kind));
      LinearSystem sys(RandomBand(kN, half, half, 3u + static_cast<unsigned>(half)), Eigen::VectorXd::Ones(kN));
      CheckBandPathMatchesDenseLu(sys, kind);
    }
  }
}

TEST_CASE("band LU path: the rank-one Sherman-Morrison part gives the dense answer") {
  const Eigen::VectorXd u = Eigen::VectorXd::LinSpaced(kN, 0.1, 1.0), w = Eigen::VectorXd::LinSpaced(kN, 1.0, -0.5);
  LinearSystem sys(RandomBand(kN, 1, 1, 11u), Eigen::VectorXd::LinSpaced(kN, 1.0, 3.0), u, w);
  CheckBandPathMatchesDenseLu(sys, NewtonLinearSolver::kAuto);  // tridiagonal A → band
}

TEST_CASE("band LU path: a singular band matrix is reported as a singular Newton matrix, not a NaN step") {
  Eigen::SparseMatrix<double> a = RandomBand(kN, 1, 1, 5u);
  for (Eigen::SparseMatrix<double>::InnerIterator it(a, 57); it; ++it) it.valueRef() = 0.0;  // column 57 zero
  BandLu lu;
  CHECK_FALSE(lu.Factor(a, PatternBandwidths(a)));
  LinearSystem sys(a, Eigen::VectorXd::Ones(kN));
  const Solved s = SolveWith(sys, NewtonLinearSolver::kAuto);
  CHECK_FALSE(s.report.converged);
  CHECK(s.report.cause == StepFailureCause::kSingularNewtonMatrix);
  CHECK(s.band_factorizations == 1);
  CHECK(s.x.allFinite());
}

TEST_CASE("linear solver choice: a wide pattern and newton_linear_solver direct take SparseLU") {
  // Tridiagonal plus the two corners (a periodic chain): bandwidths n − 1, far above kAutoBandWidth.
  Eigen::SparseMatrix<double> a = RandomBand(kN, 1, 1, 13u);
  a.coeffRef(0, kN - 1) = 0.25;
  a.coeffRef(kN - 1, 0) = -0.25;
  a.makeCompressed();
  const Bandwidths widths = PatternBandwidths(a);
  CHECK(widths.lower + widths.upper + 1 > kAutoBandWidth);
  LinearSystem wide(a, Eigen::VectorXd::Ones(kN));
  const Solved w = SolveWith(wide, NewtonLinearSolver::kAuto);
  CHECK(w.report.converged);
  CHECK(w.band_factorizations == 0);
  CHECK(w.sparse_analyses == 1);
  LinearSystem tridiagonal(RandomBand(kN, 1, 1, 13u), Eigen::VectorXd::Ones(kN));
  const Solved d = SolveWith(tridiagonal, NewtonLinearSolver::kDirect);
  CHECK(d.report.converged);
  CHECK(d.band_factorizations == 0);
  CHECK(d.sparse_analyses == 1);
}

TEST_CASE("band LU path: newton_linear_solver band on a pattern too wide for band storage is refused by name") {
  // A periodic chain of 12 000 unknowns: ml = mu = n − 1, band storage n (3n − 2) ≈ 4.3e8 doubles (3.5 GB).
  constexpr int n = 12000;
  Eigen::SparseMatrix<double> a = RandomBand(n, 1, 1, 17u);
  a.coeffRef(0, n - 1) = 0.25;
  a.coeffRef(n - 1, 0) = -0.25;
  a.makeCompressed();
  LinearSystem wide(a, Eigen::VectorXd::Ones(n));
  CHECK_THROWS_WITH_AS(SolveWith(wide, NewtonLinearSolver::kBand), doctest::Contains("newton_linear_solver"),
                       InvalidParameter);
  const Solved automatic = SolveWith(wide, NewtonLinearSolver::kAuto);  // auto takes SparseLU for it
  CHECK(automatic.report.converged);
  CHECK(automatic.band_factorizations == 0);
}
