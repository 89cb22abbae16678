// ∂(C(q) w)/∂q, the damping force's change with the configuration, and the implicit Jacobians that now include it
// (ConstantMassSystem::AppendDampingForceGradientEntries; docs/conserving-schemes.md "Newton Jacobians"):
//  - the closed form of the pair-potential structure (wall terms, pair terms in 1-D, 2-D with an offset and 3-D)
//    against central differences of C(q) w;
//  - the same on the models that override it (contact_oscillator, a compressed disk cloud); ellipsoid_wall's
//    difference of C(q) w through the Gonzalez Jacobian;
//  - the midpoint rule's and Gonzalez's discrete-force Jacobians against central differences of F̄ on that cloud;
//  - on a Tsuji-damped Hertz impact, implicit midpoint, gonzalez_dg and the Newmark family take fewer Newton
//    iterations with the term than the same model without it, and reach the same states to Newton's tolerance.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "integrators/generalized_alpha.h"
#include "integrators/gonzalez_discrete_gradient.h"
#include "integrators/implicit_midpoint.h"
#include "integrators/simulation.h"
#include "integrators/velocity_verlet.h"
#include "models/contact_oscillator.h"
#include "models/disk_cloud.h"
#include "models/ellipsoid_wall_impact.h"
#include "system/pair_potential_structure.h"

using namespace impactlab;

namespace {

Eigen::MatrixXd Dense(const SparseEntries& entries, Eigen::Index n) {
  Eigen::SparseMatrix<double> m(n, n);
  m.setFromTriplets(entries.begin(), entries.end());
  return Eigen::MatrixXd(m);
}

// Central differences of q ↦ C(q) w, column by column, with C from `damping(q)` (a dense matrix).
template <class DampingOf>
Eigen::MatrixXd DifferenceOfDampingForce(const DampingOf& damping, const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                         double step) {
  const Eigen::Index n = q.size();
  Eigen::MatrixXd d(n, n);
  for (Eigen::Index c = 0; c < n; ++c) {
    Eigen::VectorXd qp = q, qm = q;
    qp[c] += step;
    qm[c] -= step;
    d.col(c) = (damping(qp) * w - damping(qm) * w) / (2.0 * step);
  }
  return d;
}

// A 1-D ball on a wall, Hertz + Tsuji (m = k = 1): the ContactOscillator's physics, with or without the closed-form
// ∂(C w)/∂q, so that the schemes can be compared on the same model with and without the Jacobian term.
class DampedBall final : public ConstantMassSystem {
 public:
  DampedBall(double e, bool exact_jacobian) : exact_(exact_jacobian) {
    const double xi = -std::log(e) / std::sqrt(M_PI * M_PI + std::log(e) * std::log(e));
    damper_ = std::make_shared<TsujiDamping>(std::sqrt(5.0) * xi, 1.0, 1.0, 1.5);  // α = √(2(p+1)) ξ
  }
  std::string name() const override { return exact_ ? "damped_ball (with dC/dq)" : "damped_ball (without)"; }
  MechanicalState InitialState() const override {
    MechanicalState s;
    s.q = Eigen::VectorXd::Constant(1, 0.0);
    s.v = Eigen::VectorXd::Constant(1, -1.0);
    return s;
  }
  Eigen::VectorXd MassDiagonal() const override { return Eigen::VectorXd::Ones(1); }
  double Potential(const Eigen::VectorXd& q) const override { return hertz_.Potential(-q[0]); }
  void PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const override {
    g[0] = -hertz_.Force(-q[0]);
  }
  Eigen::SparseMatrix<double> PotentialHessian(const Eigen::VectorXd& q) const override {
    Eigen::SparseMatrix<double> h(1, 1);
    h.insert(0, 0) = hertz_.Stiffness(-q[0]);
    return h;
  }
  Eigen::SparseMatrix<double> DampingMatrix(const Eigen::VectorXd& q) const override {
    Eigen::SparseMatrix<double> c(1, 1);
    c.insert(0, 0) = damper_->Coefficient(-q[0]);
    return c;
  }
  void AppendDampingForceGradientEntries(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                         SparseEntries& entries) const override {
    if (exact_) entries.emplace_back(0, 0, -damper_->CoefficientDerivative(-q[0]) * w[0]);
  }

 private:
  bool exact_;
  HertzLaw hertz_{1.0};
  std::shared_ptr<const TsujiDamping> damper_;
};

// Nine disks (R = 1, m = 1), Hertz k = 100 with Tsuji damping.
DiskCloud DampedCloud() {
  DiskCloudParameters dp;
  dp.num_disks = 9;
  return DiskCloud(dp, DampedNormalLaw{std::make_shared<HertzLaw>(100.0),
                                       std::make_shared<TsujiDamping>(0.6, 1.0, 100.0, 1.5)});
}

// The 9-disk cloud's coordinates are displacements from its 3 × 3 reference grid (spacing 2R(1 + gap) = 2.1): these
// squeeze the grid to 90 % about its centre (neighbours overlap by ≈ 0.11 R), plus a small jitter.
Eigen::VectorXd SqueezedCloud(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double spacing = 2.1;
  Eigen::VectorXd q(18);
  for (int b = 0; b < 9; ++b) {
    q[2 * b] = -0.1 * spacing * (b % 3 - 1) + 1e-3 * u(rng);
    q[2 * b + 1] = -0.1 * spacing * (b / 3 - 1) + 1e-3 * u(rng);
  }
  return q;
}

}  // namespace

TEST_CASE("damping force gradient: the pair-potential closed form is the derivative of C(q) w") {
  struct Terms final : PairPotentialStructure {
    std::vector<ContactTerm> terms;
    const std::vector<ContactTerm>& ContactTerms() const override { return terms; }
  } s;
  auto hertz = std::make_shared<HertzLaw>(3.0);
  auto tsuji = std::make_shared<TsujiDamping>(0.7, 0.5, 3.0, 1.5);
  auto kk = std::make_shared<KuwabaraKonoDamping>(0.4);
  // Coordinates: a 1-D bead pair (0, 1), a 2-D disk pair with an offset (2–3, 4–5), a 3-D sphere pair (6–8, 9–11),
  // a wall term on an oblique normal over coordinates 2 and 3.
  ContactTerm p1;
  p1.kind = ContactTerm::Kind::kPair;
  p1.first_a = 0;
  p1.first_b = 1;
  p1.dim = 1;
  p1.radius_sum = 1.0;
  p1.elastic = hertz;
  p1.damping = tsuji;
  ContactTerm p2 = p1;
  p2.first_a = 2;
  p2.first_b = 4;
  p2.dim = 2;
  p2.radius_sum = 2.0;
  p2.pair_offset = Eigen::Vector2d(0.3, -0.2);
  p2.damping = kk;
  ContactTerm p3 = p1;
  p3.first_a = 6;
  p3.first_b = 9;
  p3.dim = 3;
  p3.radius_sum = 2.0;
  ContactTerm wall;
  wall.kind = ContactTerm::Kind::kWall;
  wall.wall_gradient = {{2, -0.6}, {3, -0.8}};
  wall.wall_offset = 0.05;
  wall.elastic = hertz;
  wall.damping = tsuji;
  s.terms = {p1, p2, p3, wall};
  Eigen::VectorXd q(12), w(12);
  q << 0.0, 0.93, 0.01, -0.02, 1.55, 0.24, 0.0, 0.1, -0.05, 1.2, 1.1, 0.7;
  w << 0.4, -1.1, 0.3, 0.9, -0.7, 0.2, 1.0, -0.5, 0.25, -0.3, 0.8, -1.2;
  for (const ContactTerm& t : s.terms) REQUIRE(ContactOverlap(t, q) > 0.0);  // every term in contact
  SparseEntries entries;
  AppendStructureDampingForceGradientEntries(s, q, w, entries);
  const Eigen::MatrixXd analytic = Dense(entries, 12);
  const Eigen::MatrixXd fd = DifferenceOfDampingForce(
      [&](const Eigen::VectorXd& x) { return Eigen::MatrixXd(StructureDampingMatrix(s, x)); }, q, w, 1e-6);
  CAPTURE(analytic);
  CAPTURE(fd);
  CHECK((analytic - fd).norm() <= 1e-7 * fd.norm());
  CHECK(fd.norm() > 0.1);
  // Not symmetric in general (the pair terms' C n zᵀ part), and translation invariant: rows of a pair sum to 0.
  CHECK((analytic - analytic.transpose()).norm() > 1e-3 * analytic.norm());
  CHECK(std::abs(analytic.row(6).segment(6, 3).sum() + analytic.row(6).segment(9, 3).sum()) <= 1e-14 * analytic.norm());
  // A term out of contact adds nothing.
  Eigen::VectorXd apart = q;
  apart[1] = 1.5;
  SparseEntries none;
  Terms single;
  single.terms = {p1};
  AppendStructureDampingForceGradientEntries(single, apart, w, none);
  CHECK(none.empty());
}

TEST_CASE("damping force gradient: contact_oscillator and a compressed disk cloud give the derivative of C(q) w") {
  ContactOscillatorParameters op;
  const ContactOscillator osc(op, DampedNormalLaw{std::make_shared<HertzLaw>(100.0),
                                                  std::make_shared<TsujiDamping>(0.6, 1.0, 100.0, 1.5)});
  const DiskCloud cloud = DampedCloud();
  // The cloud squeezed to 90 % of its grid, with random velocities.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Eigen::VectorXd q_cloud = SqueezedCloud(rng);
  Eigen::VectorXd w_cloud(q_cloud.size());
  for (Eigen::Index i = 0; i < q_cloud.size(); ++i) w_cloud[i] = u(rng);
  struct Case {
    const ConstantMassSystem* system;
    Eigen::VectorXd q, w;
  };
  for (const Case& c : {Case{&osc, Eigen::VectorXd::Constant(1, -0.02), Eigen::VectorXd::Constant(1, -0.7)},
                        Case{&cloud, q_cloud, w_cloud}}) {
    CAPTURE(c.system->name());
    REQUIRE(c.system->velocity_dependent_forces());
    SparseEntries entries;
    c.system->AppendDampingForceGradientEntries(c.q, c.w, entries);
    const Eigen::MatrixXd analytic = Dense(entries, c.q.size());
    const Eigen::MatrixXd fd = DifferenceOfDampingForce(
        [&](const Eigen::VectorXd& x) { return Eigen::MatrixXd(c.system->DampingMatrix(x)); }, c.q, c.w, 1e-7);
    CHECK(fd.norm() > 1.0);
    CHECK((analytic - fd).norm() <= 1e-6 * fd.norm());
  }
}

TEST_CASE("damping force gradient: midpoint-rule and Gonzalez discrete-force Jacobians are exact on damped contacts") {
  const DiskCloud cloud = DampedCloud();
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Eigen::VectorXd q0 = SqueezedCloud(rng);
  Eigen::VectorXd q1 = q0;
  for (Eigen::Index i = 0; i < q0.size(); ++i) q1[i] += 0.01 * u(rng);
  const double h = 0.01;
  const Eigen::Index n = q0.size();
  using Evaluator = void (*)(const ConstantMassSystem&, const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                             DiscreteForceEvaluation&, NewtonJacobian*);
  struct Scheme {
    const char* name;
    Evaluator evaluate;
  };
  for (const Scheme& scheme : {Scheme{"implicit_midpoint", &EvaluateMidpointRuleDiscreteForce},
                               Scheme{"gonzalez_dg", &EvaluateGonzalezDiscreteForce}}) {
    CAPTURE(scheme.name);
    DiscreteForceEvaluation e;
    NewtonJacobian j;
    scheme.evaluate(cloud, q0, q1, h, e, &j);
    Eigen::MatrixXd analytic(j.matrix);
    if (j.u.size() == n) analytic += j.u * j.w.transpose();  // Gonzalez's rank-one part
    Eigen::MatrixXd fd(n, n);
    const double step = 1e-7;
    for (Eigen::Index c = 0; c < n; ++c) {
      Eigen::VectorXd qp = q1, qm = q1;
      qp[c] += step;
      qm[c] -= step;
      DiscreteForceEvaluation ep, em;
      scheme.evaluate(cloud, q0, qp, h, ep, nullptr);
      scheme.evaluate(cloud, q0, qm, h, em, nullptr);
      fd.col(c) = (ep.force - em.force) / (2.0 * step);
    }
    // The tolerance is far below the term that was added: without ½ ∂(C w)/∂q the error would be its size.
    SparseEntries entries;
    const Eigen::VectorXd qm = 0.5 * (q0 + q1), rate = (q1 - q0) / h;
    cloud.AppendDampingForceGradientEntries(qm, rate, entries);
    const double term = 0.5 * Dense(entries, n).norm(), tolerance = 1e-6 * fd.norm();
    CAPTURE(term);
    CHECK(term > 100.0 * tolerance);
    CHECK((analytic - fd).norm() <= tolerance);
  }
}

TEST_CASE("damping force gradient: fewer Newton iterations on a Tsuji-damped Hertz impact, the same states") {
  // e = 0.3 (strong damping, where the omitted term slowed Newton most), dt = t_c/20: one impact and the rebound.
  const DampedBall with(0.3, true), without(0.3, false);
  SimulationOptions o;
  o.dt = 0.15;
  o.t_end = 4.0;
  o.locate_events = false;
  std::vector<std::unique_ptr<Integrator>> schemes;
  schemes.push_back(std::make_unique<ImplicitMidpoint>());
  schemes.push_back(std::make_unique<GonzalezDiscreteGradient>());
  schemes.push_back(std::make_unique<GeneralizedAlpha>("newmark", GeneralizedAlphaParameters::Trapezoidal()));
  schemes.push_back(std::make_unique<GeneralizedAlpha>("hht_alpha", GeneralizedAlphaParameters::Hht(-0.1)));
  schemes.push_back(
      std::make_unique<GeneralizedAlpha>("generalized_alpha", GeneralizedAlphaParameters::FromSpectralRadius(0.8)));
  for (auto& scheme : schemes) {
    CAPTURE(scheme->name());
    scheme->Reset();
    scheme->ResetStatistics();
    const SimulationRecord exact = Simulate(with, *scheme, with.InitialState(), o, {});
    const long iterations_exact = scheme->statistics().newton_iterations;
    scheme->Reset();
    scheme->ResetStatistics();
    const SimulationRecord partial = Simulate(without, *scheme, without.InitialState(), o, {});
    const long iterations_partial = scheme->statistics().newton_iterations;
    std::printf("damping force gradient: %s, Newton iterations with / without dC/dq: %ld / %ld (%ld steps)\n",
                scheme->name().c_str(), iterations_exact, iterations_partial, exact.steps);
    CHECK(exact.steps == partial.steps);
    CHECK(iterations_exact < iterations_partial);
    // Both solve the same equations to Newton's tolerance: the rebound velocity agrees far below the scheme's error.
    CHECK(exact.final_state.v[0] == doctest::Approx(partial.final_state.v[0]).epsilon(1e-10));
    CHECK(exact.final_state.v[0] > 0.0);  // it did rebound
  }
}

TEST_CASE("damping force gradient: ellipsoid_wall's difference of C(q) w makes the Gonzalez Jacobian exact") {
  // The ECC model with adaptive damping (e_cn = 0.5) in contact: its ∂(C w)/∂q is a central difference inside the
  // model, so the check is the discrete-force Jacobian against central differences of F̄, as above.
  EllipsoidWallParameters p;
  p.e_cn = 0.5;
  const EllipsoidWallImpact model(p);
  MechanicalState s = model.InitialState();
  REQUIRE(model.velocity_dependent_forces());
  // Half-way into the contact: the state after 0.02 s of velocity Verlet at the scenario's dt.
  VelocityVerlet vv;
  for (int i = 0; i < 2000; ++i) REQUIRE(vv.Step(model, s, 1e-5).status == StepStatus::kAccepted);
  REQUIRE(model.ContactAt(s.q).eta > 0.0);
  const Eigen::VectorXd q0 = s.q, q1 = s.q + 1e-4 * s.v;
  const double h = 1e-4;
  DiscreteForceEvaluation e;
  NewtonJacobian j;
  EvaluateGonzalezDiscreteForce(model, q0, q1, h, e, &j);
  Eigen::MatrixXd analytic(j.matrix);
  if (j.u.size() == 3) analytic += j.u * j.w.transpose();
  Eigen::MatrixXd fd(3, 3);
  const double steps[3] = {1e-8, 1e-8, 1e-7};
  for (int c = 0; c < 3; ++c) {
    Eigen::VectorXd qp = q1, qm = q1;
    qp[c] += steps[c];
    qm[c] -= steps[c];
    DiscreteForceEvaluation ep, em;
    EvaluateGonzalezDiscreteForce(model, q0, qp, h, ep, nullptr);
    EvaluateGonzalezDiscreteForce(model, q0, qm, h, em, nullptr);
    fd.col(c) = (ep.force - em.force) / (2.0 * steps[c]);
  }
  SparseEntries entries;
  model.AppendDampingForceGradientEntries(0.5 * (q0 + q1), (q1 - q0) / h, entries);
  const double term = 0.5 * Dense(entries, 3).norm(), tolerance = 1e-7 * fd.norm();
  CAPTURE((analytic - fd).norm());
  CAPTURE(analytic);
  CAPTURE(fd);
  CAPTURE(term);
  CHECK(term > 10.0 * tolerance);
  CHECK((analytic - fd).norm() <= tolerance);
}
