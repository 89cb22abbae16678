// Planar contacts with the tangential laws of the shared library (planar/planar_tangential_law.h), built through the
// model registry as a scenario builds them: on ellipses_multi (isolated) every energy-consistent scheme closes its
// books per step, E(n+1) − E(n) = −(damping work + friction work) + W_g, and conserves linear and angular momentum;
// on ellipse_box (walls, gravity, dashpots) the books close too; without the key nothing changes; inapplicable keys
// are refused with the model, the law and the reason [Mindlin & Deresiewicz 1953; Seed002 §2; Seed003 eqs. 5–8;
// docs/efda.md §9; docs/conserving-schemes.md §6].
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <tuple>

#include "core/errors.h"
#include "integrators/efda.h"
#include "models/planar_ellipses.h"
#include "registry/registries.h"

using namespace impactlab;

namespace {

// Per-step identities hold to the solver's convergence (EFDA: 4e-15 relative in q; Newton: its residual) times
// sums of O(1) terms: 1e-12 of E0 leaves a margin of ~100 over the observed round-off (docs/efda.md §7).
constexpr double kPerStepBooksTol = 1e-12;
constexpr double kMomentumTol = 1e-12;

std::shared_ptr<const PlanarEllipses> Model(const std::string& model, const ParameterSet& p) {
  auto system = std::dynamic_pointer_cast<const PlanarEllipses>(ModelRegistry().Get(model).make(p).system);
  REQUIRE(system != nullptr);
  return system;
}

// Four ellipses on the lattice of ellipses_multi (isolated, μ = 0.3, K_N = 1e5 N/m) with a tangential law;
// G* = 2e6 Pa puts the Mindlin stiffness 8 G* √(R* δ) near K_N at the overlaps of this problem (~1e-3 m).
ParameterSet Multi(const std::string& law) {
  ParameterSet p;
  p.Set("n", 4.0);
  p.Set("seed", 3.0);
  p.Set("tangential_law", law);
  p.Set("G_star", 2e6);
  return p;
}

struct Books {
  double worst_step = 0.0;       // max |Δbooks| / E0 over single steps
  double momentum = 0.0;         // max relative drift of P and L
  double friction = 0.0, generated = 0.0;
  long steps_in_contact = 0;
};

Books Run(const PlanarEllipses& sys, const std::string& scheme, double dt, int steps) {
  auto integrator = IntegratorRegistry().Get(scheme).make(ParameterSet{});
  MechanicalState s = sys.InitialState();
  const double e0 = sys.TotalEnergy(s);
  const auto p0 = sys.LinearMomentum(s), l0 = sys.AngularMomentum(s);
  const PlanarTangentialLaw* law = sys.tangential_law();
  Books b;
  double books = sys.EnergyBooks(s).Books();
  for (int n = 0; n < steps; ++n) {
    REQUIRE(integrator->Step(sys, s, dt).status == StepStatus::kAccepted);
    const EnergyTerms t = sys.EnergyBooks(s);
    b.worst_step = std::max(b.worst_step, std::abs(t.Books() - books) / e0);
    books = t.Books();
    if (p0 && l0)
      b.momentum = std::max({b.momentum, (*sys.LinearMomentum(s) - *p0).norm() / p0->norm(),
                             std::abs((*sys.AngularMomentum(s) - *l0).z()) / std::abs(l0->z())});
    bool contact = false;
    if (law)
      for (int slot = 0; slot < sys.num_contact_slots(); ++slot) contact |= s.z[slot * law->stride()] > 0.0;
    b.steps_in_contact += contact;
    b.friction = t.friction_work;
    b.generated = t.generated_work;
  }
  return b;
}

}  // namespace

TEST_CASE("planar tangential laws: EFDA on isolated ellipses closes the books per step for every law") {
  for (const std::string law : {"cundall_strack", "mindlin_deresiewicz", "mindlin_incremental", "mindlin_integral",
                                "mindlin_rescaled_incremental", "mindlin_scaled_integral"}) {
    CAPTURE(law);
    const auto sys = Model("ellipses_multi", Multi(law));
    REQUIRE(sys->tangential_law() != nullptr);
    const Books b = Run(*sys, "efda", 5e-5, 3000);
    MESSAGE(law << ": books/step " << b.worst_step << ", momentum " << b.momentum << ", W_f " << b.friction
                << " J, W_g " << b.generated << " J, steps in contact " << b.steps_in_contact);
    CHECK(b.steps_in_contact > 100);
    CHECK(b.friction > 0.0);
    CHECK(b.worst_step <= kPerStepBooksTol);
    CHECK(b.momentum <= kMomentumTol);
  }
}

TEST_CASE("planar tangential laws: every energy-consistent scheme on ellipses_multi with a Mindlin law") {
  for (const std::string law : {"mindlin_integral", "mindlin_deresiewicz"}) {
    const auto sys = Model("ellipses_multi", Multi(law));
    for (const std::string scheme : {"simo_tarnow", "gonzalez_dg", "gonzalez_dg_invariant", "implicit_midpoint"}) {
      CAPTURE(law);
      CAPTURE(scheme);
      const Books b = Run(*sys, scheme, 5e-5, 3000);
      MESSAGE(law << " / " << scheme << ": books/step " << b.worst_step << ", momentum " << b.momentum << ", W_g "
                  << b.generated);
      CHECK(b.steps_in_contact > 100);
      CHECK(b.momentum <= kMomentumTol);
      if (scheme != "implicit_midpoint") CHECK(b.worst_step <= kPerStepBooksTol);
    }
  }
}

TEST_CASE("planar tangential laws: ellipse_box with gravity and dashpots, EFDA and Simo-Tarnow close the books") {
  // The carom ellipse with g = 9.81 and ξ_N = 0.1 (the walls and gravity break momentum conservation): the books
  // E + D + W_f − W_g per step, D = dashpot work, W_f and W_g of the Mindlin law in z.
  ParameterSet p;
  p.Set("gravity", 9.81);
  p.Set("xi_N", 0.1);
  p.Set("tangential_law", std::string("mindlin_integral"));
  p.Set("G_star", 2e7);  // 8 G* √(R* δ) ≈ K_N = 1e6 N/m at δ ~ 1e-4 m, R* ~ 0.01-0.2 m
  const auto sys = Model("ellipse_box", p);
  for (const std::string scheme : {"efda", "simo_tarnow"}) {
    CAPTURE(scheme);
    const Books b = Run(*sys, scheme, 2e-5, 6000);  // through the first floor impact (a slip reversal with g on)
    MESSAGE("ellipse_box / " << scheme << ": books/step " << b.worst_step << ", W_f " << b.friction << " J, W_g "
                             << b.generated << " J, steps in contact " << b.steps_in_contact);
    CHECK(b.steps_in_contact > 50);
    CHECK(b.friction > 0.0);
    CHECK(b.generated != 0.0);  // the integral law creates energy; reported, not hidden
    CHECK(b.worst_step <= kPerStepBooksTol);
  }
}

TEST_CASE("planar tangential laws: a disk sliding on a floor reaches rolling at v = 2/3 v0 with a Mindlin law") {
  // The rigid limit does not depend on the tangential law: m v̇ = −μ m g, I ω̇ = μ m g R, I = m R²/2, rolling at
  // v = ωR = 2/3 v0, energy lost (1/6) m v0² (docs/efda.md §7). With a Mindlin law the force on the disk must oppose
  // the slip (sign of the planar frame) and the law's friction work must be that loss.
  const double r = 0.05, m = 1.0, g = 9.81, mu = 0.3, v0 = 1.0, k_n = 1e7;
  PlanarEllipsesConfig c;
  c.bodies = {Ellipse{r, r, m}};
  c.walls = {Wall::Through({0, 0}, {0, 1})};
  c.gravity = g;
  c.penalty.normal_stiffness = k_n;
  c.penalty.normal_damping_ratio = 0.2;  // settles the normal oscillation of the release from equilibrium
  c.penalty.friction_coefficient = mu;
  ParameterSet p;
  p.Set("n", 2.0);  // any ellipses_multi instance: only its law is borrowed below
  p.Set("mu", mu);
  p.Set("tangential_law", std::string("mindlin_integral"));
  p.Set("G_star", 5e9);  // 8 G* √(R δ) ≈ K_N at the equilibrium overlap m g / K_N ≈ 1e-6 m
  c.tangential_law = Model("ellipses_multi", p)->config().tangential_law;
  c.q0.resize(3);
  c.v0.resize(3);
  c.q0 << 0.0, r - m * g / k_n, 0.0;
  c.v0 << v0, 0.0, 0.0;
  PlanarEllipses sys(c);
  const double t_roll = v0 / (mu * g * 3.0);
  // Rigid-limit tolerances as for the spring: EFDA 2e-3 (penalty compliance), velocity Verlet 1e-2 (its lagged
  // spring is first order at the stick/slip transition), tests/integrators/efda_test.cpp and planar_models_test.cpp.
  for (const auto& [name, dt, tol] : {std::tuple{std::string("efda"), 2e-5, 2e-3},
                                      std::tuple{std::string("velocity_verlet"), 1e-5, 1e-2}}) {
    const std::string scheme = name;  // CAPTURE's lambda cannot capture a structured binding (clang < 16)
    CAPTURE(scheme);
    auto integrator = IntegratorRegistry().Get(scheme).make(ParameterSet{});
    MechanicalState s = sys.InitialState();
    for (double t = 0; t < 1.5 * t_roll; t += dt) REQUIRE(integrator->Step(sys, s, dt).status == StepStatus::kAccepted);
    const EnergyTerms e = sys.EnergyBooks(s);
    MESSAGE(scheme << ": v " << s.v[0] << ", -omega R " << -s.v[2] * r << ", W_f " << e.friction_work << " J, W_g "
                   << e.generated_work << " J");
    CHECK(s.v[0] == doctest::Approx(2.0 / 3.0 * v0).epsilon(tol));
    CHECK(-s.v[2] * r == doctest::Approx(2.0 / 3.0 * v0).epsilon(tol));
    CHECK(e.friction_work == doctest::Approx(m * v0 * v0 / 6.0).epsilon(tol));
  }
}

TEST_CASE("planar tangential laws: without the key nothing changes - what the binding refuses") {
  // Default: Seed003's spring, one z entry per slot, MechanicalSystem's default books.
  const auto plain = Model("ellipses_multi", ParameterSet{});
  CHECK(plain->tangential_law() == nullptr);
  CHECK(plain->InitialState().z.size() == plain->num_contact_slots());
  // With a law: the layout of planar_tangential_law.h (R* + history per slot, W_f, W_g).
  const auto with_law = Model("ellipses_multi", Multi("mindlin_deresiewicz"));
  CHECK(with_law->InitialState().z.size() == with_law->num_contact_slots() * (1 + 8) + 2);
  // Inapplicable keys: one line naming the key, the model, the law and why.
  ParameterSet kt = Multi("mindlin_integral");
  kt.Set("K_T", 1e5);
  try {
    (void)Model("ellipses_multi", kt);
    FAIL("K_T accepted with a tangential law");
  } catch (const InvalidParameter& e) {
    CHECK(e.parameter() == "K_T");
    CHECK(std::string(e.what()).find("ellipses_multi") != std::string::npos);
    CHECK(std::string(e.what()).find("mindlin_integral") != std::string::npos);
  }
  ParameterSet no_g;
  no_g.Set("tangential_law", std::string("mindlin_scaled_integral"));
  CHECK_THROWS_WITH_AS((void)Model("ellipse_box", no_g), doctest::Contains("G_star"), InvalidParameter);
  ParameterSet xi_t = Multi("cundall_strack");
  xi_t.Set("xi_T", 0.1);
  CHECK_THROWS_WITH_AS((void)Model("ellipses_multi", xi_t), doctest::Contains("dashpot"), InvalidParameter);
  ParameterSet normal;
  normal.Set("normal_law", std::string("hertz"));
  CHECK_THROWS_WITH_AS((void)Model("ellipse_box", normal), doctest::Contains("penalty"), InvalidParameter);
  // cundall_strack: kt_over_kn × K_N (default 1), a constant spring: its W_g is zero.
  ParameterSet cs;
  cs.Set("tangential_law", std::string("cundall_strack"));
  cs.Set("kt_over_kn", 0.5);
  const auto cundall = Model("ellipses_multi", cs);
  CHECK(cundall->tangential_law()->LawFor(0.01)->name() == "cundall_strack");
}
