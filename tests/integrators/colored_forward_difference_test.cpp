// ColoredForwardDifference (integrators/colored_forward_difference.h): the grouped forward difference gives, entry for
// entry, the column-by-column difference with the same steps, from one evaluation per group; a chain needs 3 groups
// whatever its length; and the Newmark family's acceleration form on a sphere packing takes the same Newton
// iterates with it as with the dense difference, from a few dozen right-hand sides per Jacobian instead of one per
// coordinate.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/parameter_set.h"
#include "integrators/colored_forward_difference.h"
#include "integrators/generalized_alpha.h"
#include "models/sphere_assembly.h"
#include "registry/sphere_assembly_registration.h"
#include "system/forwarding_system.h"

using namespace impactlab;

namespace {

// "Bodies" of `dim` coordinates coupled by "contacts" (pairs of bodies); row i of R reads only the coordinates of
// its own body and of the bodies it touches: R_i = x_i³ + Σ_contacts sin(x_i · Σ coordinates of the partner).
struct ContactFunction {
  int bodies = 0, dim = 0;
  std::vector<std::pair<int, int>> contacts;
  ContactBlocks Layout() const {
    ContactBlocks layout;
    for (const auto& [a, b] : contacts) {
      std::vector<int> coords;
      for (int k = 0; k < dim; ++k) coords.push_back(a * dim + k);
      for (int k = 0; k < dim; ++k) coords.push_back(b * dim + k);
      layout.AddBlock(coords);
    }
    return layout;
  }
  void operator()(const Eigen::VectorXd& x, Eigen::VectorXd& r) const {
    r = x.array().cube().matrix();
    for (const auto& [a, b] : contacts) {
      const double sa = x.segment(a * dim, dim).sum(), sb = x.segment(b * dim, dim).sum();
      for (int k = 0; k < dim; ++k) {
        r[a * dim + k] += std::sin(x[a * dim + k] * sb);
        r[b * dim + k] += std::sin(x[b * dim + k] * sa);
      }
    }
  }
  /// ∂R/∂x, analytic.
  Eigen::MatrixXd Jacobian(const Eigen::VectorXd& x) const {
    const Eigen::Index n = x.size();
    Eigen::MatrixXd j = Eigen::MatrixXd::Zero(n, n);
    for (Eigen::Index i = 0; i < n; ++i) j(i, i) = 3.0 * x[i] * x[i];
    for (const auto& [a, b] : contacts) {
      const double sa = x.segment(a * dim, dim).sum(), sb = x.segment(b * dim, dim).sum();
      for (int k = 0; k < dim; ++k) {
        const int ia = a * dim + k, ib = b * dim + k;
        const double ca = std::cos(x[ia] * sb), cb = std::cos(x[ib] * sa);
        j(ia, ia) += ca * sb;
        for (int l = 0; l < dim; ++l) j(ia, b * dim + l) += ca * x[ia];
        j(ib, ib) += cb * sa;
        for (int l = 0; l < dim; ++l) j(ib, a * dim + l) += cb * x[ib];
      }
    }
    return j;
  }
};

Eigen::VectorXd Steps(const Eigen::VectorXd& x) {
  Eigen::VectorXd e(x.size());
  for (Eigen::Index c = 0; c < x.size(); ++c) e[c] = 1.5e-8 * std::max(std::abs(x[c]), 1.0);
  return e;
}

}  // namespace

TEST_CASE("ColoredForwardDifference: entry for entry the column-by-column difference, one evaluation per group") {
  ContactFunction f{12, 3, {{0, 1}, {1, 2}, {2, 3}, {0, 5}, {4, 7}, {7, 8}, {8, 9}, {9, 10}, {3, 11}, {6, 2}}};
  const Eigen::Index n = f.bodies * f.dim;
  Eigen::VectorXd x(n);
  for (Eigen::Index i = 0; i < n; ++i) x[i] = 0.3 + 0.17 * std::sin(1.3 * static_cast<double>(i));
  Eigen::VectorXd r(n);
  f(x, r);
  const Eigen::VectorXd step = Steps(x);
  ColoredForwardDifference colored;
  colored.SetPattern(n, f.Layout());
  int calls = 0;
  Eigen::SparseMatrix<double> j;
  colored.Evaluate(x, r, step, [&](const Eigen::VectorXd& y, Eigen::VectorXd& ry) { ++calls; f(y, ry); }, j);
  CHECK(calls == colored.groups());
  CHECK(colored.groups() < n / 2);  // 36 columns
  MESSAGE("groups ", colored.groups(), " for ", n, " columns, ", colored.nonzeros(), " entries");
  // The column-by-column difference with the same steps: the same bits on the pattern, zero off it.
  const Eigen::MatrixXd dense_j = Eigen::MatrixXd(j);
  const Eigen::MatrixXd analytic = f.Jacobian(x);
  Eigen::VectorXd xp = x, rp(n);
  for (Eigen::Index c = 0; c < n; ++c) {
    xp[c] = x[c] + step[c];
    const double e = xp[c] - x[c];
    f(xp, rp);
    xp[c] = x[c];
    for (Eigen::Index i = 0; i < n; ++i) {
      CAPTURE(i);
      CAPTURE(c);
      CHECK(dense_j(i, c) == (rp[i] - r[i]) / e);
      CHECK(dense_j(i, c) == doctest::Approx(analytic(i, c)).epsilon(1e-6).scale(1.0));
    }
  }
}

TEST_CASE("ColoredForwardDifference: a chain needs three groups at any length") {
  for (int bodies : {3, 10, 1000}) {
    ContactFunction f{bodies, 1, {}};
    for (int b = 0; b + 1 < bodies; ++b) f.contacts.emplace_back(b, b + 1);
    ColoredForwardDifference colored;
    colored.SetPattern(bodies, f.Layout());
    CAPTURE(bodies);
    CHECK(colored.groups() == 3);  // tridiagonal: columns j, j + 3, j + 6, … share no row
    CHECK(colored.nonzeros() == static_cast<std::size_t>(3 * bodies - 2));
  }
}

namespace {

// The sphere assembly without its contact layout (no DiscreteContactJacobian): the Newmark family then takes the
// dense column-by-column difference on it.
class WithoutContactLayout final : public ForwardingSystem {
 public:
  using ForwardingSystem::ForwardingSystem;
};

}  // namespace

TEST_CASE("trapezoidal on a sphere packing: the grouped difference takes the dense difference's Newton iterates") {
  // A 3 × 3 × 3 lattice with a 0.1 µm surface gap, random velocities up to 5 cm/s and a strong gravity: pair and
  // wall contacts close within the first steps. 162 unknowns, above the 24 of the dense difference.
  ParameterSet p;
  p.Set("nx", 3.0);
  p.Set("ny", 3.0);
  p.Set("nz", 3.0);
  p.Set("mu", 0.3);
  p.Set("gap", 1e-7);
  p.Set("random_speed", 0.05);
  p.Set("jitter", 0.0);
  p.Set("gravity", 1e4);
  const auto grouped_model = MakeSphereAssembly(p);
  const WithoutContactLayout dense_model(*grouped_model);
  GeneralizedAlpha grouped("trapezoidal", GeneralizedAlphaParameters::Trapezoidal());
  GeneralizedAlpha dense("trapezoidal", GeneralizedAlphaParameters::Trapezoidal());
  MechanicalState a = grouped_model->InitialState(), b = a;
  const double h = 1e-7;
  for (int step = 0; step < 200; ++step) {
    REQUIRE(grouped.Step(*grouped_model, a, h).status == StepStatus::kAccepted);
    REQUIRE(dense.Step(dense_model, b, h).status == StepStatus::kAccepted);
  }
  const auto& sg = grouped.statistics();
  const auto& sd = dense.statistics();
  MESSAGE("Jacobians ", sg.jacobian_evaluations, " / ", sd.jacobian_evaluations, ", right-hand sides ",
          sg.rhs_evaluations, " / ", sd.rhs_evaluations, ", contacts at the end ",
          grouped_model->CountContacts(a).first, "+", grouped_model->CountContacts(a).second);
  REQUIRE(grouped_model->CountContacts(a).first > 20);  // the column is pressed together
  CHECK(sg.newton_iterations == sd.newton_iterations);
  CHECK(sg.jacobian_evaluations == sd.jacobian_evaluations);
  CHECK(sg.jacobian_evaluations > 0);
  // Right-hand sides per Jacobian: the dense difference one per coordinate (162), the grouped one per group.
  const double per_jacobian = static_cast<double>(sg.rhs_evaluations - sg.newton_iterations) /
                              static_cast<double>(sg.jacobian_evaluations);
  CHECK(per_jacobian < 162.0 / 2.0);
  CHECK(sd.rhs_evaluations > 162 * sd.jacobian_evaluations);
  // Newton converges to round-off either way; the iterates differ only by the order of the linear solve.
  const double q_scale = a.q.lpNorm<Eigen::Infinity>(), v_scale = b.v.lpNorm<Eigen::Infinity>();
  MESSAGE("max |dq| / |q| ", (a.q - b.q).lpNorm<Eigen::Infinity>() / q_scale, ", max |dv| / |v| ",
          (a.v - b.v).lpNorm<Eigen::Infinity>() / v_scale);
  CHECK((a.q - b.q).lpNorm<Eigen::Infinity>() <= 1e-13 * q_scale);  // measured 9.1e-15
  CHECK((a.v - b.v).lpNorm<Eigen::Infinity>() <= 1e-11 * v_scale);  // measured 2.7e-13
  CHECK(a.z.size() == b.z.size());
}
