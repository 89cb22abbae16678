// PairPotentialStructure helpers: ∇V and ∇²V against central finite differences (pair term with offset in
// 2D, wall term), the accurate gap against the naive R − |d|, C(q) ⪰ 0 with the closed form, and
// malformed terms rejected with the term named.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <memory>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "core/errors.h"
#include "system/pair_potential_structure.h"

using namespace impactlab;

namespace {

struct Terms final : PairPotentialStructure {
  std::vector<ContactTerm> terms;
  Eigen::VectorXd b;
  const std::vector<ContactTerm>& ContactTerms() const override { return terms; }
  Eigen::VectorXd LinearPotentialCoefficients() const override { return b; }
};

Terms Example() {
  Terms s;
  ContactTerm pair;
  pair.kind = ContactTerm::Kind::kPair;
  pair.first_a = 0;
  pair.first_b = 2;
  pair.dim = 2;
  pair.radius_sum = 2.0;
  pair.pair_offset = Eigen::Vector2d(2.0, 0.0);  // touching reference
  pair.elastic = std::make_shared<HertzLaw>(5.0);
  pair.damping = std::make_shared<LinearViscousDamping>(0.3);
  ContactTerm wall;
  wall.kind = ContactTerm::Kind::kWall;
  wall.wall_gradient = {{1, -1.0}, {3, -0.5}};
  wall.wall_offset = 0.01;
  wall.elastic = std::make_shared<HertzLaw>(2.0);
  wall.damping = std::make_shared<NoDamping>();
  s.terms = {pair, wall};
  s.b = Eigen::Vector4d(0.0, 0.2, 0.0, 0.1);
  return s;
}

// Central differences with step 1e-6 on O(1) quantities: truncation ~1e-12 W''', round-off ~1e-10.
constexpr double kFdStep = 1e-6;
constexpr double kFdTol = 1e-7;

}  // namespace

TEST_CASE("pair potential structure: gradient and Hessian match finite differences") {
  const Terms s = Example();
  Eigen::VectorXd q(4);
  q << 0.03, -0.02, -0.05, 0.04;  // pair overlap ≈ 0.08, wall overlap > 0
  Eigen::VectorXd g(4);
  StructurePotentialGradient(s, q, g);
  const Eigen::MatrixXd h(StructurePotentialHessian(s, q));
  for (int j = 0; j < 4; ++j) {
    Eigen::VectorXd qp = q, qm = q;
    qp[j] += kFdStep;
    qm[j] -= kFdStep;
    const double fd = (StructurePotential(s, qp) - StructurePotential(s, qm)) / (2 * kFdStep);
    CHECK(g[j] == doctest::Approx(fd).epsilon(kFdTol));
    Eigen::VectorXd gp(4), gm(4);
    StructurePotentialGradient(s, qp, gp);
    StructurePotentialGradient(s, qm, gm);
    CHECK((h.col(j) - (gp - gm) / (2 * kFdStep)).norm() <= kFdTol * (1.0 + h.col(j).norm()));
  }
  CHECK((h - h.transpose()).norm() <= 1e-14 * h.norm());
  // Damping matrix: c n nᵀ blocks, positive semidefinite.
  const Eigen::MatrixXd c(StructureDampingMatrix(s, q));
  CHECK(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(c).eigenvalues().minCoeff() >= -1e-15);
  CHECK(c.trace() == doctest::Approx(2 * 0.3).epsilon(1e-14));  // c (n·n = 1) on the a- and b-blocks
}

TEST_CASE("pair potential structure: accurate gap keeps relative precision where R - |d| does not") {
  ContactTerm t;
  t.kind = ContactTerm::Kind::kPair;
  t.first_a = 0;
  t.first_b = 1;
  t.dim = 1;
  t.radius_sum = 2e4;  // a bead far down a chain, in units where δ ~ 1e-6
  t.pair_offset = Eigen::VectorXd::Constant(1, 2e4);
  Eigen::VectorXd q(2);
  q << 0.0, -1.0e-6;
  const double delta = 1.0e-6;  // δ = −(u_b − u_a) exactly (u² ≪ ε terms)
  const double naive = t.radius_sum - (t.pair_offset[0] + q[1] - q[0]);
  CHECK(std::abs(naive - delta) / delta > 1e-9);  // R − |d| loses ~ε·R/δ = 4e-6 relative
  CHECK(PairGap(t, q) == doctest::Approx(delta).epsilon(1e-15));
}

TEST_CASE("pair potential structure: malformed terms are named") {
  Terms s = Example();
  s.terms[0].first_b = 3;  // b's coordinates 3, 4 exceed n = 4
  CHECK_THROWS_WITH(ValidateContactTerms(s, 4), doctest::Contains("contact_terms[0]"));
  s = Example();
  s.terms[1].elastic = nullptr;
  CHECK_THROWS_WITH(ValidateContactTerms(s, 4), doctest::Contains("contact_terms[1]"));
}
