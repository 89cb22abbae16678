// SolveNewton: converges to machine precision on closed-form roots (Eigen sparse LU and KINSOL back ends),
// the rank-one Sherman–Morrison path gives the same answer as the dense Jacobian, and non-convergence is
// reported (never silently accepted).
#include <doctest/doctest.h>

#include <Eigen/LU>
#include <cmath>
#include <vector>

#include "integrators/newton_solver.h"

using namespace impactlab;

namespace {

// R(x) = (x₀³ − 2, x₁ + x₀² − 5): root x₀ = 2^(1/3), x₁ = 5 − 2^(2/3). Optional rank-one split of J.
class CubicSystem final : public NewtonSystem {
 public:
  explicit CubicSystem(bool rank_one) : rank_one_(rank_one) {}
  double Evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& r, NewtonJacobian* j) override {
    r.resize(2);
    r << x[0] * x[0] * x[0] - 2.0, x[1] + x[0] * x[0] - 5.0;
    if (j) {
      Eigen::MatrixXd dense(2, 2);
      dense << 3.0 * x[0] * x[0], 0.0, 2.0 * x[0], 1.0;
      if (rank_one_) {
        // J = A + u wᵀ with u = (1, 1), w = (0.5, 0): A = J − u wᵀ
        j->u = Eigen::Vector2d(1.0, 1.0);
        j->w = Eigen::Vector2d(0.5, 0.0);
        dense -= j->u * j->w.transpose();
      } else {
        j->u.resize(0);
        j->w.resize(0);
      }
      j->matrix = dense.sparseView();
    }
    return 2.0 + 5.0 + std::abs(x[0] * x[0] * x[0]) + std::abs(x[1]);
  }

 private:
  bool rank_one_;
};

/// The same system with its Jacobian deferred (NewtonSystem::defer_jacobian).
class DeferredCubicSystem final : public NewtonSystem {
 public:
  double Evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& r, NewtonJacobian* j) override {
    if (j) ++jacobians;
    return inner_.Evaluate(x, r, j);
  }
  bool defer_jacobian() const override { return true; }
  int jacobians = 0;

 private:
  CubicSystem inner_{false};
};

// 1 ulp-scale tolerance on O(1) roots: the solver stops at ‖R‖ ≤ 1e-15 · scale.
constexpr double kRootTol = 4e-15;

}  // namespace

TEST_CASE("newton solver: cubic root to machine precision, sparse LU, rank-one and KINSOL paths") {
  const double x0 = std::cbrt(2.0), x1 = 5.0 - std::cbrt(4.0);
  for (int variant = 0; variant < 3; ++variant) {
    CAPTURE(variant);
    CubicSystem sys(variant == 1);
    NewtonOptions o;
    if (variant == 2) o.kind = NonlinearSolverKind::kKinsol;
    Eigen::VectorXd x = Eigen::Vector2d(3.0, 0.0);
    const NewtonReport rep = SolveNewton(sys, x, 1.0, o);
    CHECK(rep.converged);
    CHECK(rep.iterations > 2);
    CHECK(x[0] == doctest::Approx(x0).epsilon(kRootTol));
    CHECK(x[1] == doctest::Approx(x1).epsilon(kRootTol));
  }
}

TEST_CASE("newton solver: non-convergence is reported, not accepted") {
  CubicSystem sys(false);
  NewtonOptions o;
  o.max_iterations = 2;
  Eigen::VectorXd x = Eigen::Vector2d(30.0, 0.0);
  const NewtonReport rep = SolveNewton(sys, x, 1.0, o);
  CHECK_FALSE(rep.converged);
  CHECK(rep.message.find("did not converge") != std::string::npos);
  NewtonOptions bad;
  bad.max_iterations = 0;
  CHECK_THROWS_WITH(bad.Validate(), doctest::Contains("newton_max_iterations"));
}

TEST_CASE("newton solver: a deferred Jacobian gives the same iterates and is never formed at the converged point") {
  for (const double start : {3.0, 30.0}) {  // 30: the first steps backtrack
    CAPTURE(start);
    CubicSystem eager(false);
    DeferredCubicSystem deferred;
    NewtonOptions o;
    Eigen::VectorXd xe = Eigen::Vector2d(start, 0.0), xd = xe;
    const NewtonReport re = SolveNewton(eager, xe, 1.0, o);
    const NewtonReport rd = SolveNewton(deferred, xd, 1.0, o);
    REQUIRE(re.converged);
    REQUIRE(rd.converged);
    CHECK(xe[0] == xd[0]);  // bitwise: the same iterates
    CHECK(xe[1] == xd[1]);
    CHECK(re.iterations == rd.iterations);
    CHECK(re.residual_history == rd.residual_history);
    // One Jacobian per Newton update (the iterate it was taken at), none at the converged iterate.
    CHECK(deferred.jacobians == rd.iterations);
    CHECK(rd.jacobian_evaluations == rd.iterations);
    // The eager system: one Jacobian per update, plus one at the converged iterate unless its step was predicted
    // to converge (test below).
    CHECK(re.jacobian_evaluations >= re.iterations);
    CHECK(re.jacobian_evaluations <= re.iterations + 1);
  }
}

namespace {

// Records every evaluation (the point, bit for bit, and whether the Jacobian was asked for) of an inner system.
// With `jacobian_factor` ≠ 1 the Jacobian of R(x) = x is scaled (linear convergence, rate 1 − 1/factor), which
// makes the quadratic prediction of SolveNewton fail on purpose.
class RecordingSystem final : public NewtonSystem {
 public:
  explicit RecordingSystem(double jacobian_factor = 0.0) : factor_(jacobian_factor) {}
  double Evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& r, NewtonJacobian* j) override {
    points.push_back(x);
    with_jacobian.push_back(j != nullptr);
    if (factor_ == 0.0) return cubic_.Evaluate(x, r, j);
    r = x;
    if (j) {
      Eigen::MatrixXd dense(1, 1);
      dense(0, 0) = factor_;
      j->matrix = dense.sparseView();
      j->u.resize(0);
      j->w.resize(0);
    }
    return 1.0;
  }
  std::vector<Eigen::VectorXd> points;
  std::vector<bool> with_jacobian;

 private:
  double factor_;
  CubicSystem cubic_{false};
};

// The iterates of the eager path (every full step evaluated with its Jacobian, as SolveNewton did before the
// prediction): x ← x + J⁻¹(−R) with the dense partial-pivoting LU of newton_solver.cpp's n ≤ 24 path, as long as
// the relative residual exceeds the tolerance (the full steps of these cases are all accepted).
std::vector<Eigen::VectorXd> EagerIterates(NewtonSystem& system, Eigen::VectorXd x, const NewtonOptions& o) {
  std::vector<Eigen::VectorXd> iterates{x};
  Eigen::VectorXd r;
  NewtonJacobian j;
  for (int it = 0; it <= o.max_iterations; ++it) {
    const double scale = system.Evaluate(x, r, &j);
    if (r.lpNorm<Eigen::Infinity>() <= o.residual_tolerance * scale) break;
    const Eigen::MatrixXd dense = j.matrix;
    const Eigen::VectorXd neg_r = -r;
    const Eigen::VectorXd d = Eigen::PartialPivLU<Eigen::MatrixXd>(dense).solve(neg_r);
    x = x + d;
    iterates.push_back(x);
  }
  return iterates;
}

}  // namespace

TEST_CASE("newton solver: a full step predicted to converge is evaluated without its Jacobian, same iterates") {
  NewtonOptions o;
  SUBCASE("quadratic convergence: the prediction holds, one Jacobian per update instead of one more") {
    RecordingSystem sys, reference_sys;
    Eigen::VectorXd x = Eigen::Vector2d(3.0, 0.0);
    const std::vector<Eigen::VectorXd> eager = EagerIterates(reference_sys, x, o);
    const NewtonReport rep = SolveNewton(sys, x, 1.0, o);
    REQUIRE(rep.converged);
    REQUIRE(rep.iterations >= 3);
    CHECK(rep.jacobian_evaluations == rep.iterations);  // the eager path: iterations + 1
    // One evaluation per iterate, in order, bitwise the eager path's; the Jacobian at every iterate but the last.
    REQUIRE(sys.points.size() == eager.size());
    REQUIRE(sys.points.size() == static_cast<size_t>(rep.iterations) + 1);
    for (size_t k = 0; k < eager.size(); ++k) {
      CAPTURE(k);
      CHECK((sys.points[k].array() == eager[k].array()).all());
      CHECK(sys.with_jacobian[k] == (k + 1 < eager.size()));
    }
    CHECK((x.array() == eager.back().array()).all());
  }
  SUBCASE("linear convergence: a failed prediction forms the Jacobian at the same point afterwards") {
    RecordingSystem sys(1.25), reference_sys(1.25);  // e_{k+1} = e_k / 5: predicted e_k / 25
    Eigen::VectorXd x = Eigen::VectorXd::Constant(1, 1.0);
    const std::vector<Eigen::VectorXd> eager = EagerIterates(reference_sys, x, o);
    const NewtonReport rep = SolveNewton(sys, x, 1.0, o);
    REQUIRE(rep.converged);
    CHECK(rep.jacobian_evaluations == rep.iterations);
    REQUIRE(eager.size() == static_cast<size_t>(rep.iterations) + 1);
    CHECK(x[0] == eager.back()[0]);
    // Exactly one failed prediction (at e ≈ 2e-15: predicted 8e-17, reached 4e-16): one evaluation more, at the
    // same point, with the Jacobian; every point evaluated is an eager iterate, in order.
    REQUIRE(sys.points.size() == eager.size() + 1);
    size_t k = 0, repeats = 0;
    for (size_t call = 0; call < sys.points.size(); ++call) {
      CAPTURE(call);
      if (call > 0 && sys.points[call][0] == sys.points[call - 1][0]) {
        ++repeats;
        CHECK_FALSE(sys.with_jacobian[call - 1]);
        CHECK(sys.with_jacobian[call]);
        continue;
      }
      REQUIRE(k < eager.size());
      CHECK(sys.points[call][0] == eager[k][0]);
      ++k;
    }
    CHECK(repeats == 1);
    CHECK(k == eager.size());
    CHECK_FALSE(sys.with_jacobian.back());
  }
}

namespace {
// R(x) = A x − b with a fixed A of size n that needs row pivoting (tiny leading entry); optionally J split as
// A − u wᵀ + u wᵀ (the rank-one path).
class LinearSystem final : public NewtonSystem {
 public:
  LinearSystem(int n, bool rank_one, bool singular) : a_(n, n), b_(n), rank_one_(rank_one) {
    for (int i = 0; i < n; ++i) {
      b_[i] = 1.0 + 0.5 * i;
      for (int k = 0; k < n; ++k) a_(i, k) = 1.0 / (1.0 + i + 2.0 * k) + (i == k ? 2.0 : 0.0);
    }
    a_(0, 0) = 1e-3;  // the first pivot is taken from another row
    if (singular) a_.row(n - 1) = a_.row(0);
  }
  double Evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& r, NewtonJacobian* j) override {
    r = a_ * x - b_;
    if (j) {
      Eigen::MatrixXd split = a_;
      if (rank_one_) {
        j->u = Eigen::VectorXd::LinSpaced(a_.rows(), 0.5, 1.0);
        j->w = Eigen::VectorXd::LinSpaced(a_.rows(), 0.25, -0.25);
        split -= j->u * j->w.transpose();
      } else {
        j->u.resize(0);
        j->w.resize(0);
      }
      j->matrix = split.sparseView();
    }
    return 1.0 + b_.lpNorm<Eigen::Infinity>();
  }
  Eigen::MatrixXd a_;
  Eigen::VectorXd b_;

 private:
  bool rank_one_;
};
}  // namespace

TEST_CASE("newton solver: small dense systems (fixed-size for n <= 3) solve exactly like Eigen's partial-pivoting LU") {
  // One Newton update from x = 0 on a linear system is d = J⁻¹ b: for n ≤ 3 the solver uses fixed-size Eigen types,
  // above it the dynamic dense path; both must give Eigen's PartialPivLU solution bit for bit.
  for (int n = 1; n <= 6; ++n) {
    CAPTURE(n);
    LinearSystem sys(n, false, false);
    NewtonOptions o;
    o.max_iterations = 1;
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    (void)SolveNewton(sys, x, 1.0, o);
    const Eigen::VectorXd expected = Eigen::PartialPivLU<Eigen::MatrixXd>(sys.a_).solve(sys.b_);
    CHECK(x == expected);
    // Converged to machine precision from the same start with the rank-one split of J.
    LinearSystem split(n, true, false);
    Eigen::VectorXd y = Eigen::VectorXd::Zero(n);
    const NewtonReport rep = SolveNewton(split, y, 1.0, NewtonOptions{});
    CHECK(rep.converged);
    CHECK((split.a_ * y - split.b_).lpNorm<Eigen::Infinity>() <= 1e-14);
    CHECK((y - expected).lpNorm<Eigen::Infinity>() <= 1e-13 * (1.0 + expected.lpNorm<Eigen::Infinity>()));
  }
  for (int n = 2; n <= 5; ++n) {  // a singular matrix is reported, never returned as a step
    CAPTURE(n);
    LinearSystem sys(n, false, true);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    const NewtonReport rep = SolveNewton(sys, x, 1.0, NewtonOptions{});
    CHECK_FALSE(rep.converged);
    CHECK(rep.cause == StepFailureCause::kSingularNewtonMatrix);
  }
}
