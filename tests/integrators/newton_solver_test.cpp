// SolveNewton: converges to machine precision on closed-form roots (Eigen sparse LU and KINSOL back ends),
// the rank-one Sherman–Morrison path gives the same answer as the dense Jacobian, and non-convergence is
// reported (never silently accepted).
#include <doctest/doctest.h>

#include <cmath>

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
    CHECK(re.jacobian_evaluations > rd.jacobian_evaluations);
  }
}
