// Energy–momentum conserving schemes and implicit baselines [docs/theory.md §7, §9]:
//  - Simo–Tarnow and both discrete gradients keep |E − E0|/E0 ≤ 1e-12 on the undamped Hertz impact at
//    several dt (from t_c/1000 to 10× the explicit critical step);
//  - Φ-form damping: |E + D − E0|/E0 ≤ 1e-12, every D increment ≥ 0;
//  - momentum on a small chain and cloud: ST and invariant DG ≤ 1e-12, Cartesian DG drifts visibly;
//  - observed order 2 on the harmonic oscillator (fitted slope within ±0.15);
//  - exact discrete-force Jacobians (central finite differences);
//  - a rejected Newton step leaves the state untouched.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <numeric>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "integrators/contact_term_discrete_force.h"
#include "integrators/generalized_alpha.h"
#include "integrators/gonzalez_discrete_gradient.h"
#include "integrators/implicit_midpoint.h"
#include "integrators/invariant_discrete_gradient.h"
#include "integrators/simo_tarnow.h"
#include "integrators/simulation.h"
#include "models/bead_chain.h"
#include "models/contact_oscillator.h"
#include "models/disk_cloud.h"
#include "models/harmonic_oscillator.h"
#include "observe/energy_ledger.h"
#include "state/same_bits.h"
#include "support/contact_terms.h"

using namespace impactlab;

namespace {

// Energy exactness: the Newton residual is ≤ 1e-15 of its scale per step, so over ~10⁴ steps the
// balance stays well below 1e-12 (the claim); round-off of E itself is ~1e-16 per step.
constexpr double kEnergyTol = 1e-12;
constexpr double kMomentumTol = 1e-12;
// Fitted-slope tolerance of the issue (asymptotic range h ω ≤ 0.2).
constexpr double kOrderTol = 0.15;

struct RunResult {
  double energy_error, balance, min_increment;
  std::optional<double> momentum;
  long steps;
  MechanicalState final_state;
};

RunResult Run(const MechanicalSystem& sys, Integrator& integrator, double dt, double t_end) {
  EnergyLedger ledger;
  SimulationOptions o;
  o.dt = dt;
  o.t_end = t_end;
  o.locate_events = false;
  const SimulationRecord rec = Simulate(sys, integrator, sys.InitialState(), o, {&ledger});
  return {ledger.energy_error_max(), ledger.balance_residual_max(), ledger.min_dissipated_increment(),
          ledger.momentum_drift_max(), rec.steps, rec.final_state};
}

std::shared_ptr<ContactOscillator> HertzOscillator(double e) {
  auto hertz = std::make_shared<HertzLaw>(1.0);
  std::shared_ptr<const DampingLaw> damper = std::make_shared<NoDamping>();
  if (e < 1.0) {
    // α = √(2(p+1)) ξ_L(e) [docs/theory.md §3]
    const double xi = -std::log(e) / std::sqrt(M_PI * M_PI + std::log(e) * std::log(e));
    damper = std::make_shared<TsujiDamping>(std::sqrt(5.0) * xi, 1.0, 1.0, 1.5);
  }
  ContactOscillatorParameters p;
  p.initial_gap = 0.1;  // onset inside a step
  return std::make_shared<ContactOscillator>(p, DampedNormalLaw{hertz, damper});
}

// Undamped Hertz m = k = v0 = 1: t_c = 2.94328 δ_max/v0 with δ_max = (5/4)^(2/5) [docs/theory.md §10 row 13];
// explicit limit 2/ω_max, ω_max² = (3/2) δ_max^(1/2).
const double kDeltaMax = std::pow(1.25, 0.4);
const double kContactTime = 2.94328 * kDeltaMax;
const double kExplicitCritical = 2.0 / std::sqrt(1.5 * std::sqrt(kDeltaMax));

std::vector<std::unique_ptr<Integrator>> ConservingSchemes() {
  std::vector<std::unique_ptr<Integrator>> v;
  v.push_back(std::make_unique<SimoTarnow>());
  v.push_back(std::make_unique<GonzalezDiscreteGradient>());
  v.push_back(std::make_unique<InvariantDiscreteGradient>());
  return v;
}

}  // namespace

TEST_CASE("conserving schemes: undamped Hertz impact keeps energy to 1e-12 for dt from t_c/1000 to 10x critical") {
  auto sys = HertzOscillator(1.0);
  for (auto& integrator : ConservingSchemes()) {
    for (double dt : {kContactTime / 1000.0, kContactTime / 30.0, kExplicitCritical, 10.0 * kExplicitCritical}) {
      CAPTURE(integrator->name());
      CAPTURE(dt);
      const RunResult r = Run(*sys, *integrator, dt, std::max(6.0, 3.0 * dt));
      CHECK(r.energy_error <= kEnergyTol);
      CHECK(r.final_state.v[0] > 0.0);  // rebounded
    }
  }
}

TEST_CASE("implicit midpoint and trapezoidal: energy error on the Hertz impact is visible and grows with dt") {
  auto sys = HertzOscillator(1.0);
  ImplicitMidpoint midpoint;
  GeneralizedAlpha trapezoidal("trapezoidal", GeneralizedAlphaParameters::Trapezoidal());
  for (Integrator* integrator : std::vector<Integrator*>{&midpoint, &trapezoidal}) {
    CAPTURE(integrator->name());
    const double fine = Run(*sys, *integrator, kContactTime / 200.0, 6.0).energy_error;
    const double coarse = Run(*sys, *integrator, kContactTime / 20.0, 6.0).energy_error;
    CHECK(fine > 1e-8);  // not a conserving scheme: far above round-off
    CHECK(coarse > 10.0 * fine);
  }
}

TEST_CASE("phi-form damping: exact energy balance E + D = E0 and non-negative dissipation per step") {
  auto sys = HertzOscillator(0.5);
  for (auto& integrator : ConservingSchemes()) {
    for (double dt : {kContactTime / 500.0, kContactTime / 20.0}) {
      CAPTURE(integrator->name());
      CAPTURE(dt);
      const RunResult r = Run(*sys, *integrator, dt, 6.0);
      CHECK(r.balance <= kEnergyTol);
      CHECK(r.min_increment >= 0.0);
      CHECK(r.energy_error > 0.1);  // it does dissipate (e = 0.5 removes 75 % of E0)
    }
  }
}

TEST_CASE("momentum: chain and cloud keep P (and L) to 1e-12 with Simo-Tarnow and invariant DG - Cartesian DG drifts") {
  BeadChainParameters cp;
  cp.num_beads = 6;
  cp.impact_velocity = 1.0;
  auto hertz = std::make_shared<HertzLaw>(1.0);
  BeadChain chain(cp, DampedNormalLaw{hertz, std::make_shared<NoDamping>()});
  DiskCloudParameters dp;
  dp.num_disks = 9;
  DiskCloud cloud(dp, DampedNormalLaw{std::make_shared<HertzLaw>(100.0), std::make_shared<NoDamping>()});
  struct Case {
    const MechanicalSystem* sys;
    double dt, t_end;
  };
  for (const Case& c : {Case{&chain, 0.05, 12.0}, Case{&cloud, 0.02, 4.0}}) {
    CAPTURE(c.sys->name());
    SimoTarnow st;
    InvariantDiscreteGradient inv;
    GonzalezDiscreteGradient cart;
    const RunResult rst = Run(*c.sys, st, c.dt, c.t_end);
    const RunResult rinv = Run(*c.sys, inv, c.dt, c.t_end);
    const RunResult rcart = Run(*c.sys, cart, c.dt, c.t_end);
    REQUIRE(rst.momentum);
    CHECK(*rst.momentum <= kMomentumTol);
    CHECK(*rinv.momentum <= kMomentumTol);
    CHECK(*rcart.momentum > 1e3 * kMomentumTol);
    CHECK(rst.energy_error <= kEnergyTol);
    CHECK(rinv.energy_error <= kEnergyTol);
    CHECK(rcart.energy_error <= kEnergyTol);
  }
}

TEST_CASE("order 2 on the harmonic oscillator (least-squares slope of the global error)") {
  HarmonicOscillator sys(1.0, 1.0, 1.0, 0.0);
  const double t_end = 2.0;
  std::vector<std::unique_ptr<Integrator>> schemes = ConservingSchemes();
  schemes.push_back(std::make_unique<ImplicitMidpoint>());
  schemes.push_back(std::make_unique<GeneralizedAlpha>("trapezoidal", GeneralizedAlphaParameters::Trapezoidal()));
  schemes.push_back(std::make_unique<GeneralizedAlpha>("hht_alpha", GeneralizedAlphaParameters::Hht(-0.1)));
  schemes.push_back(
      std::make_unique<GeneralizedAlpha>("generalized_alpha", GeneralizedAlphaParameters::FromSpectralRadius(0.8)));
  for (auto& integrator : schemes) {
    CAPTURE(integrator->name());
    std::vector<double> lx, ly;
    for (int k = 0; k < 5; ++k) {
      const double h = 0.2 / std::pow(2.0, k);
      integrator->Reset();
      const RunResult r = Run(sys, *integrator, h, t_end);
      lx.push_back(std::log(h));
      ly.push_back(std::log(std::abs(r.final_state.q[0] - sys.ExactPosition(r.final_state.t))));
    }
    const double mx = std::accumulate(lx.begin(), lx.end(), 0.0) / lx.size();
    const double my = std::accumulate(ly.begin(), ly.end(), 0.0) / ly.size();
    double sxy = 0.0, sxx = 0.0;
    for (size_t i = 0; i < lx.size(); ++i) {
      sxy += (lx[i] - mx) * (ly[i] - my);
      sxx += (lx[i] - mx) * (lx[i] - mx);
    }
    const double slope = sxy / sxx;
    CHECK(slope == doctest::Approx(2.0).epsilon(kOrderTol / 2.0));
    CHECK(integrator->traits().order == 2);
  }
}

TEST_CASE("discrete contact force: Jacobian matches central finite differences (gap and invariant forms)") {
  // Two disks (dim 2) in contact with Hertz + Tsuji damping, a generic oblique step.
  struct Pair final : PairPotentialStructure {
    std::vector<ContactTerm> terms;
    const std::vector<ContactTerm>& ContactTerms() const override { return terms; }
  } s;
  ContactTerm t;
  t.kind = ContactTerm::Kind::kPair;
  t.first_a = 0;
  t.first_b = 2;
  t.dim = 2;
  t.radius_sum = 2.0;
  t.elastic = std::make_shared<HertzLaw>(3.0);
  t.damping = std::make_shared<TsujiDamping>(0.7, 0.5, 3.0, 1.5);
  s.terms.push_back(t);
  Eigen::VectorXd q0(4), q1(4);
  q0 << 0.0, 0.0, 1.97, 0.05;
  q1 << 0.01, -0.004, 1.95, 0.08;
  const double h = 0.01;
  for (auto form : {DiscreteGradientForm::kGapQuotient, DiscreteGradientForm::kInvariantQuotient}) {
    CAPTURE(static_cast<int>(form));
    DiscreteForceEvaluation e;
    NewtonJacobian j;
    EvaluateContactTermDiscreteForce(s, form, q0, q1, h, e, &j);
    const Eigen::MatrixXd analytic(j.matrix);
    // equal and opposite
    CHECK(std::abs(e.force[0] + e.force[2]) <= 1e-14 * e.scale);
    CHECK(std::abs(e.force[1] + e.force[3]) <= 1e-14 * e.scale);
    for (int c = 0; c < 4; ++c) {
      const double step = 1e-6;
      Eigen::VectorXd qp = q1, qm = q1;
      qp[c] += step;
      qm[c] -= step;
      DiscreteForceEvaluation ep, em;
      EvaluateContactTermDiscreteForce(s, form, q0, qp, h, ep, nullptr);
      EvaluateContactTermDiscreteForce(s, form, q0, qm, h, em, nullptr);
      const Eigen::VectorXd fd = (ep.force - em.force) / (2 * step);
      // central differences, step 1e-6: truncation ~1e-12·f''', round-off ~1e-10·scale
      CHECK((analytic.col(c) - fd).norm() <= 1e-6 * (fd.norm() + 1.0));
    }
    // discrete-gradient property: F̄·Δq = ΔW + D (energy identity) with ∇̄δ·Δq = Δδ
    const double dw = t.elastic->Potential(2.0 - (q1.tail<2>() - q1.head<2>()).norm()) -
                      t.elastic->Potential(2.0 - (q0.tail<2>() - q0.head<2>()).norm());
    CHECK(e.force.dot(q1 - q0) == doctest::Approx(dw + e.dissipation).epsilon(1e-13));
    CHECK(e.dissipation > 0.0);
  }
}

TEST_CASE("discrete contact force: the dense Jacobian of a small system is the assembled sparse one, entry by entry") {
  // NewtonJacobian::small (≤ 3 unknowns, asked for by SolveNewton): ∂F̄/∂q₁ summed straight into dense storage must
  // equal the sparse assembly bit for bit (up to the sign of a zero, which J + 2M/h² removes), so that Newton's
  // iterates do not depend on the form. One wall term (n = 1), a pair term of dim 1 with a wall (n = 2), and a chain
  // of three beads with two pair terms sharing the middle bead (n = 3, entries summed from two terms).
  struct Terms final : PairPotentialStructure {
    std::vector<ContactTerm> terms;
    const std::vector<ContactTerm>& ContactTerms() const override { return terms; }
  };
  const auto wall = [](int coordinate) {
    return testing::WallTerm(coordinate, -1.0, 0.0, std::make_shared<HertzLaw>(2.0),
                             std::make_shared<TsujiDamping>(0.4, 1.0, 2.0, 1.5));
  };
  const auto pair = [](int a, int b) {
    return testing::PairTerm(a, b, 1, 1.0, std::make_shared<HertzLaw>(3.0),
                             std::make_shared<TsujiDamping>(0.7, 0.5, 3.0, 1.5));
  };
  std::vector<Terms> cases(3);
  cases[0].terms = {wall(0)};
  cases[1].terms = {wall(0), pair(0, 1)};
  cases[2].terms = {pair(0, 1), pair(1, 2)};
  const std::vector<Eigen::VectorXd> q0s = {Eigen::VectorXd::Constant(1, -0.01), Eigen::Vector2d(-0.01, 0.97),
                                            Eigen::Vector3d(0.0, 0.98, 1.97)};
  const std::vector<Eigen::VectorXd> q1s = {Eigen::VectorXd::Constant(1, -0.03), Eigen::Vector2d(-0.02, 0.95),
                                            Eigen::Vector3d(0.01, 0.97, 1.95)};
  for (size_t k = 0; k < cases.size(); ++k)
    for (auto form : {DiscreteGradientForm::kGapQuotient, DiscreteGradientForm::kInvariantQuotient}) {
      CAPTURE(k);
      CAPTURE(static_cast<int>(form));
      DiscreteForceEvaluation sparse_eval, dense_eval;
      NewtonJacobian sparse, dense;
      dense.accepts_small = true;
      EvaluateContactTermDiscreteForce(cases[k], form, q0s[k], q1s[k], 0.01, sparse_eval, &sparse);
      EvaluateContactTermDiscreteForce(cases[k], form, q0s[k], q1s[k], 0.01, dense_eval, &dense);
      const Eigen::Index n = q0s[k].size();
      REQUIRE(dense.small.rows() == n);
      CHECK(sparse.small.size() == 0);  // not asked for: the sparse form only
      const Eigen::MatrixXd assembled(sparse.matrix);
      double largest = 0.0;
      for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < n; ++j) {
          CHECK(SameBits(dense.small(i, j) + 0.0, assembled(i, j) + 0.0));
          largest = std::max(largest, std::abs(assembled(i, j)));
        }
      CHECK(largest > 0.0);  // the terms are in contact: a Jacobian to compare
      CHECK(SameBits(dense_eval.force, sparse_eval.force));
    }
}

TEST_CASE("rejected Newton step leaves the state untouched and reports retry") {
  auto sys = HertzOscillator(0.5);
  ImplicitSchemeOptions o;
  o.newton.max_iterations = 1;
  SimoTarnow st(o);
  MechanicalState s = sys->InitialState();
  s.q[0] = -0.5;  // deep in contact: one Newton iteration cannot reach 1e-15
  s.v[0] = -0.3;
  s.dissipated = 0.25;
  const MechanicalState saved = s;
  const StepResult r = st.Step(*sys, s, 0.3);
  CHECK(r.status == StepStatus::kRetrySmallerStep);
  CHECK(r.message.find("did not converge") != std::string::npos);
  CHECK(s.t == saved.t);
  CHECK(s.q == saved.q);
  CHECK(s.v == saved.v);
  CHECK(s.dissipated == saved.dissipated);
}

TEST_CASE("generalized-alpha parameter sets: Chung-Hulbert, HHT and Newmark as data - bad input named") {
  const auto ch = GeneralizedAlphaParameters::FromSpectralRadius(1.0);
  CHECK(ch.alpha_m == doctest::Approx(0.5));
  CHECK(ch.alpha_f == doctest::Approx(0.5));
  CHECK(ch.beta == doctest::Approx(0.25));
  CHECK(ch.gamma == doctest::Approx(0.5));
  const auto hht = GeneralizedAlphaParameters::Hht(-0.3);
  CHECK(hht.alpha_f == doctest::Approx(0.3));
  CHECK(hht.beta == doctest::Approx(1.69 / 4.0));
  CHECK(hht.gamma == doctest::Approx(0.8));
  CHECK_THROWS_WITH(GeneralizedAlphaParameters::FromSpectralRadius(1.5), doctest::Contains("rho_inf"));
  CHECK_THROWS_WITH(GeneralizedAlphaParameters::Hht(-0.5), doctest::Contains("hht_alpha"));
  CHECK_THROWS_WITH(GeneralizedAlphaParameters::Newmark(0.0, 0.5), doctest::Contains("newmark_beta"));
}

namespace {
// A ConstantMassSystem without contact structure: V = ½ q².
class PlainSpring final : public ConstantMassSystem {
 public:
  std::string name() const override { return "plain_spring"; }
  MechanicalState InitialState() const override {
    MechanicalState s;
    s.q = Eigen::VectorXd::Constant(1, 1.0);
    s.v = Eigen::VectorXd::Zero(1);
    s.z.resize(0);
    return s;
  }
  Eigen::VectorXd MassDiagonal() const override { return Eigen::VectorXd::Ones(1); }
  double Potential(const Eigen::VectorXd& q) const override { return 0.5 * q[0] * q[0]; }
  void PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const override { g[0] = q[0]; }
};
}  // namespace

namespace {
// V = ½ q² up to |q| = 2, where the spring breaks: its force there is `broken` (NaN or ±inf). Two coordinates, so
// that the non-finite entry can be the first or the second one.
class BreakingSpring final : public ConstantMassSystem {
 public:
  BreakingSpring(double broken, int coordinate) : broken_(broken), coordinate_(coordinate) {}
  std::string name() const override { return "breaking_spring"; }
  MechanicalState InitialState() const override {
    MechanicalState s;
    s.q = Eigen::Vector2d(0.5, 0.25);
    s.v = Eigen::Vector2d(0.5, -0.25);
    s.z.resize(0);
    return s;
  }
  Eigen::VectorXd MassDiagonal() const override { return Eigen::Vector2d(1.0, 2.0); }
  double Potential(const Eigen::VectorXd& q) const override { return 0.5 * q.squaredNorm(); }
  void PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const override {
    g = q;
    if (std::abs(q[coordinate_]) > 2.0) g[coordinate_] = broken_;
  }

 private:
  double broken_;
  int coordinate_;
};
}  // namespace

TEST_CASE("midpoint family: a non-finite force ends the step as a non-finite Newton residual, the state untouched") {
  // The residual R = (2M/h²)(Δq − h v_n) + F̄ and its scale are formed in one pass (midpoint_family_integrator.cpp);
  // a NaN or ±inf force in either coordinate must still stop Newton with the typed cause, never pass as converged.
  // h = 10: the predictor q_n + h v_n + h²/2 a_n leaves |q| ≤ 2 in the chosen coordinate.
  for (const double broken : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity()})
    for (const int coordinate : {0, 1}) {
      CAPTURE(broken);
      CAPTURE(coordinate);
      const BreakingSpring spring(broken, coordinate);
      ImplicitMidpoint midpoint;
      MechanicalState s = spring.InitialState();
      s.dissipated = 0.125;
      const MechanicalState saved = s;
      const StepResult r = midpoint.Step(spring, s, 10.0);
      CHECK(r.status == StepStatus::kRetrySmallerStep);
      CHECK(r.cause == StepFailureCause::kNewtonNonFiniteResidual);
      CHECK(s.t == saved.t);
      CHECK(s.q == saved.q);
      CHECK(s.v == saved.v);
      CHECK(s.dissipated == saved.dissipated);
      // The same spring unbroken within reach: the step is accepted.
      MechanicalState small = spring.InitialState();
      CHECK(midpoint.Step(spring, small, 0.5).status == StepStatus::kAccepted);
    }
}

TEST_CASE("quotient schemes fall back to Gonzalez's discrete gradient without gap structure - KINSOL back end matches Newton") {
  // A potential that is not a sum of scalar-gap terms has no gap quotient: Simo–Tarnow and the invariant form
  // take Gonzalez's Cartesian discrete gradient of V there (the ECC volume law), the same step to the bit.
  PlainSpring plain;
  MechanicalState ps = plain.InitialState(), ps_st = ps, ps_inv = ps;
  GonzalezDiscreteGradient generic;  // needs only V, ∇V (∇²V by the default finite differences)
  CHECK(generic.Step(plain, ps, 0.1).status == StepStatus::kAccepted);
  SimoTarnow st;
  InvariantDiscreteGradient inv;
  CHECK(st.Step(plain, ps_st, 0.1).status == StepStatus::kAccepted);
  CHECK(inv.Step(plain, ps_inv, 0.1).status == StepStatus::kAccepted);
  CHECK(ps_st.SameValues(ps));
  CHECK(ps_inv.SameValues(ps));
  CHECK(ps.q[0] != 1.0);
  auto sys = HertzOscillator(0.5);
  ImplicitSchemeOptions kin;
  kin.newton.kind = NonlinearSolverKind::kKinsol;
  SimoTarnow a, b(kin);
  const RunResult ra = Run(*sys, a, kContactTime / 50.0, 6.0);
  const RunResult rb = Run(*sys, b, kContactTime / 50.0, 6.0);
  CHECK(rb.balance <= kEnergyTol);
  CHECK(rb.final_state.q[0] == doctest::Approx(ra.final_state.q[0]).epsilon(1e-10));
}

TEST_CASE("phi-form damping converges at second order in the restitution (Tsuji-damped Hertz, e = 0.5)") {
  // docs/theory.md §7 "Contact onset and expected order": Φ-form damping gives O(Δt²) in e; C(δ_{n+½}) does not.
  auto sys = HertzOscillator(0.5);
  std::vector<double> lx, ly;
  for (int k = 0; k < 4; ++k) {
    const double dt = kContactTime / (50.0 * std::pow(2.0, k));
    SimoTarnow st;
    const RunResult r = Run(*sys, st, dt, 6.0);
    REQUIRE(r.final_state.q[0] > 0.0);  // separated: v is the rebound velocity
    lx.push_back(std::log(dt));
    ly.push_back(std::log(std::abs(r.final_state.v[0] - 0.5)));
  }
  const double slope = (ly.back() - ly.front()) / (lx.back() - lx.front());
  CHECK(slope == doctest::Approx(2.0).epsilon(kOrderTol / 2.0));
}
