// Tangential laws [docs/theory.md §6]: force–displacement paths against Mindlin's closed forms, the Coulomb cap,
// rotation of the spring into the tangent plane, and the per-step energy identity
// U_prev + work_in + generated_work = U_new + friction_work.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "contact/tangential/cundall_strack.h"
#include "contact/tangential/mindlin_deresiewicz.h"
#include "contact/tangential/mindlin_incremental.h"
#include "contact/tangential/mindlin_integral.h"
#include "contact/tangential/mindlin_rescaled_incremental.h"
#include "contact/tangential/mindlin_scaled_integral.h"
#include "core/errors.h"

using namespace impactlab;

namespace {
// Glass-like contact: G* = 1.5e10 Pa, R = 0.01 m, Hertz K = 1e10 N/m^1.5 (only F_n matters for the cap).
const MindlinStiffness kStiffness{1.5e10, 0.01};
constexpr double kHertzK = 1.0e10;
// Pure sums of O(N) double operations: round-off ~N·eps relative.
constexpr double kRoundOff = 1e-10;

struct Driver {
  explicit Driver(const TangentialLaw& l) : law(l), z(static_cast<size_t>(l.history_size()), 0.0) {}
  const TangentialLaw& law;
  std::vector<double> z;
  double delta_n = 0.0, fn = 0.0;
  double work = 0.0, generated = 0.0, friction = 0.0;
  TangentialResponse last;
  double max_identity_error = 0.0;

  // One committed step to overlap dn with tangential increment ds (along any tangent vector).
  void Step(double dn, const Eigen::Vector3d& ds, const Eigen::Vector3d& n = Eigen::Vector3d::UnitZ()) {
    TangentialKinematics k;
    k.normal = n;
    k.delta_n_prev = delta_n;
    k.normal_force_prev = fn;
    k.delta_n = dn;
    k.normal_force = kHertzK * std::pow(dn, 1.5);
    k.displacement_increment = ds;
    std::vector<double> next(z.size());
    const double u_prev = law.StoredEnergy(z, delta_n);
    last = law.Evaluate(k, z, next);
    const double u_new = law.StoredEnergy(next, dn);
    CHECK(last.stored_energy == doctest::Approx(u_new).epsilon(1e-12));
    const double scale = std::max({std::abs(u_prev), std::abs(u_new), std::abs(last.work_in), 1e-300});
    max_identity_error = std::max(max_identity_error, std::abs(u_prev + last.work_in + last.generated_work - u_new -
                                                               last.friction_work) / scale);
    work += last.work_in;
    generated += last.generated_work;
    friction += last.friction_work;
    z = next;
    delta_n = dn;
    fn = k.normal_force;
  }
};

std::vector<std::unique_ptr<TangentialLaw>> AllLaws(double mu) {
  std::vector<std::unique_ptr<TangentialLaw>> laws;
  laws.push_back(std::make_unique<CundallStrackLaw>(2.0e7, mu));
  laws.push_back(std::make_unique<MindlinIntegralLaw>(kStiffness, mu));
  laws.push_back(std::make_unique<MindlinScaledIntegralLaw>(kStiffness, mu));
  laws.push_back(std::make_unique<MindlinIncrementalLaw>(kStiffness, mu));
  laws.push_back(std::make_unique<MindlinRescaledIncrementalLaw>(kStiffness, mu));
  return laws;
}

// Tangent stiffness at constant δ_n in stick, as each law defines it.
double ConstantLoadStiffness(const TangentialLaw& law, double dn) {
  if (law.name() == "cundall_strack") return 2.0e7;
  if (law.name() == "mindlin_scaled_integral") return 2.0 / 3.0 * kStiffness(dn);
  return kStiffness(dn);
}
}  // namespace

TEST_CASE("RotateIntoTangentPlane keeps |v| and lands in the tangent plane") {
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  for (int i = 0; i < 200; ++i) {
    const Eigen::Vector3d v(g(rng), g(rng), g(rng));
    const Eigen::Vector3d n = Eigen::Vector3d(g(rng), g(rng), g(rng)).normalized();
    const Eigen::Vector3d r = RotateIntoTangentPlane(v, n);
    CHECK(r.norm() == doctest::Approx(v.norm()).epsilon(1e-14));
    CHECK(std::abs(r.dot(n)) <= 1e-14 * v.norm());
    CHECK(r.dot(v) >= 0.0);  // the rotation is the smallest one (no flip)
  }
  CHECK(RotateIntoTangentPlane(Eigen::Vector3d(0, 0, 2), Eigen::Vector3d::UnitZ()).norm() == 0.0);
}

TEST_CASE("tangential laws: spring carried to a tilted tangent plane keeps |delta_t| and the stored energy") {
  for (const auto& law : AllLaws(10.0)) {
    CAPTURE(law->name());
    Driver d{*law};
    const double dn = 1e-5;
    d.Step(dn, Eigen::Vector3d::Zero());
    d.Step(dn, Eigen::Vector3d(2e-7, 1e-7, 0.0));
    const double u_before = law->StoredEnergy(d.z, dn);
    const Eigen::Vector3d f_before = law->SpringForce(d.z, dn);
    const Eigen::Vector3d n_new = Eigen::Vector3d(0.1, -0.2, 1.0).normalized();
    d.Step(dn, Eigen::Vector3d::Zero(), n_new);
    CHECK(law->StoredEnergy(d.z, dn) == doctest::Approx(u_before).epsilon(1e-13));
    CHECK(law->SpringForce(d.z, dn).norm() == doctest::Approx(f_before.norm()).epsilon(1e-13));
    CHECK(std::abs(law->SpringForce(d.z, dn).dot(n_new)) <= 1e-13 * f_before.norm());
  }
}

TEST_CASE("tangential laws at constant normal load: linear no-slip spring, then the Coulomb cap mu F_n") {
  const double mu = 0.3, dn = 1e-5;
  const double fn = kHertzK * std::pow(dn, 1.5);
  for (const auto& law : AllLaws(mu)) {
    CAPTURE(law->name());
    Driver d{*law};
    d.Step(dn, Eigen::Vector3d::Zero());
    const double k = ConstantLoadStiffness(*law, dn);
    const double slip_onset = mu * fn / k;
    const int n = 400;
    const double step = 2.0 * slip_onset / n;
    for (int i = 1; i <= n; ++i) {
      d.Step(dn, Eigen::Vector3d(step, 0, 0));
      const double delta_t = i * step;
      const double expected = delta_t <= slip_onset ? -k * delta_t : -mu * fn;  // Mindlin no-slip + Coulomb
      CHECK(d.last.force[0] == doctest::Approx(expected).epsilon(1e-9));
      if (std::abs(delta_t - slip_onset) > 1e-9 * slip_onset) CHECK(d.last.sliding == (delta_t > slip_onset));
    }
    // Gross slip from the onset on: friction work = μ F_n × slipped distance (minus the spring's share).
    CHECK(d.friction == doctest::Approx(mu * fn * slip_onset - 0.0).epsilon(1e-6 + 1.0 / n));
    CHECK(d.max_identity_error <= kRoundOff);
  }
}

TEST_CASE("incremental laws under proportional loading reach Mindlin's F_t = 2/3 k_t(delta_n) delta_t") {
  // δ_n = c τ, δ_t = d τ with F_t/F_n < μ (no slip): ∫ 8G*√(R c τ) d dτ = (2/3) k_t(δ_n) δ_t [Mindlin 1949;
  // docs/theory.md §6]. Both incremental schemes are first-order explicit in δ_n: error ≈ 1/N, N = 20000 steps.
  constexpr int kSteps = 20000;
  constexpr double kFirstOrderTol = 3.0 / kSteps;
  const double dn_end = 1e-5, dt_end = 2e-6;
  for (const auto& law : AllLaws(1e3)) {
    if (law->name() == "cundall_strack") continue;
    CAPTURE(law->name());
    Driver d{*law};
    for (int i = 1; i <= kSteps; ++i) d.Step(dn_end * i / kSteps, Eigen::Vector3d(dt_end / kSteps, 0, 0));
    const double mindlin = -2.0 / 3.0 * kStiffness(dn_end) * dt_end;
    if (law->name() == "mindlin_integral") {
      CHECK(d.last.force[0] == doctest::Approx(1.5 * mindlin).epsilon(1e-12));  // Tsuji: 3/2 too stiff
    } else if (law->name() == "mindlin_scaled_integral") {
      CHECK(d.last.force[0] == doctest::Approx(mindlin).epsilon(1e-12));  // secant: exact
    } else {
      CHECK(d.last.force[0] == doctest::Approx(mindlin).epsilon(kFirstOrderTol));
    }
    CHECK(std::abs(d.friction) <= kRoundOff * law->StoredEnergy(d.z, dn_end));
    CHECK(d.max_identity_error <= kRoundOff);
  }
}

TEST_CASE("elastic no-slip loop: energy ledger closes to round-off, nothing generated, nothing dissipated") {
  // Closed loop δ_t: 0 → a → −a → 0 at fixed δ_n, below the cap: U back to 0, Σ work_in = 0.
  const double dn = 1e-5;
  for (const auto& law : AllLaws(1e3)) {
    CAPTURE(law->name());
    Driver d{*law};
    d.Step(dn, Eigen::Vector3d::Zero());
    const int n = 1000;
    const double a = 1e-7;
    auto go = [&](double from, double to) {
      for (int i = 0; i < n; ++i) d.Step(dn, Eigen::Vector3d((to - from) / n, 0.3 * (to - from) / n, 0.0));
    };
    go(0, a);
    go(a, -a);
    go(-a, 0);
    const double u_peak = 0.5 * ConstantLoadStiffness(*law, dn) * a * a * 1.09;
    CHECK(std::abs(d.work) <= kRoundOff * u_peak);
    CHECK(std::abs(d.generated) <= kRoundOff * u_peak);
    CHECK(std::abs(d.friction) <= kRoundOff * u_peak);
    CHECK(law->StoredEnergy(d.z, dn) <= kRoundOff * u_peak);
  }
}

TEST_CASE("integral law: generated work equals the stiffness-change work 1/2 dk delta_prev.delta_trial") {
  const double mu = 1e3;
  MindlinIntegralLaw law(kStiffness, mu);
  Driver d{law};
  d.Step(1e-5, Eigen::Vector3d(1e-7, 0, 0));
  const double dprev = -law.SpringForce(d.z, 1e-5)[0] / kStiffness(1e-5);
  d.Step(1.2e-5, Eigen::Vector3d(3e-8, 0, 0));
  const double expected = 0.5 * (kStiffness(1.2e-5) - kStiffness(1e-5)) * dprev * (dprev + 3e-8);
  CHECK(d.last.generated_work == doctest::Approx(expected).epsilon(1e-12));
  // constant stiffness: nothing generated
  CundallStrackLaw cs(2e7, mu);
  Driver c{cs};
  c.Step(1e-5, Eigen::Vector3d(1e-7, 0, 0));
  c.Step(1.2e-5, Eigen::Vector3d(3e-8, 0, 0));
  CHECK(std::abs(c.last.generated_work) <= 1e-15 * c.last.stored_energy);
}

TEST_CASE("tangential laws reject bad parameters naming them") {
  CHECK_THROWS_AS(CundallStrackLaw(-1.0, 0.1), InvalidParameter);
  CHECK_THROWS_AS(MindlinIntegralLaw(kStiffness, -0.1), InvalidParameter);
  CHECK_THROWS_AS(MindlinIncrementalLaw(MindlinStiffness{0.0, 0.01}, 0.1), InvalidParameter);
  try {
    MindlinRescaledIncrementalLaw(kStiffness, std::nan(""));
    FAIL("no throw");
  } catch (const InvalidParameter& e) {
    CHECK(std::string(e.what()).find("mu") != std::string::npos);
  }
}

TEST_CASE("mindlin_deresiewicz at constant F_n follows Mindlin's loading curve and the Masing unloading curve") {
  // Loading: τ = μF_n[1 − (1 − 16G*a x/(3μF_n))^{3/2}]; unloading from (x*, τ*):
  // τ = τ* − 2μF_n[1 − (1 − 8G*a(x* − x)/(3μF_n))^{3/2}] [Mindlin & Deresiewicz 1953; docs/theory.md §6].
  // The update is explicit in θ (first order): error ≈ 1/N of the force scale with N = 20000 steps.
  constexpr int kSteps = 20000;
  constexpr double kFirstOrderTol = 3.0 / kSteps;
  const double mu = 0.3, dn = 1e-5;
  MindlinDeresiewiczLaw law(kStiffness, mu);
  Driver d(law);
  d.Step(dn, Eigen::Vector3d::Zero());
  const double fn = kHertzK * std::pow(dn, 1.5), k = kStiffness(dn);
  const double x_full = 3.0 * mu * fn / (2.0 * k);  // full slip at 16G*a x/(3μF_n) = 1
  const double x_star = 0.6 * x_full;
  auto loading = [&](double x) { return mu * fn * (1.0 - std::pow(1.0 - 2.0 * k * x / (3.0 * mu * fn), 1.5)); };
  for (int i = 1; i <= kSteps; ++i) d.Step(dn, Eigen::Vector3d(x_star / kSteps, 0, 0));
  const double tau_star = -d.last.force[0];
  CHECK(tau_star == doctest::Approx(loading(x_star)).epsilon(kFirstOrderTol));
  CHECK(tau_star < mu * fn);
  // Unload by 2 x*: Masing's rule ends at −τ*.
  for (int i = 1; i <= kSteps; ++i) {
    d.Step(dn, Eigen::Vector3d(-2.0 * x_star / kSteps, 0, 0));
    if (i == kSteps / 2) {
      const double y = x_star;  // x* − x
      const double expected = tau_star - 2.0 * mu * fn * (1.0 - std::pow(1.0 - k * y / (3.0 * mu * fn), 1.5));
      CHECK(-d.last.force[0] == doctest::Approx(expected).epsilon(kFirstOrderTol));
    }
  }
  CHECK(-d.last.force[0] == doctest::Approx(-tau_star).epsilon(kFirstOrderTol));
  // The loading–unloading half cycle dissipates (hysteresis): positive friction work, identity to round-off.
  CHECK(d.friction > 0.0);
  CHECK(d.max_identity_error <= kRoundOff);
  // Loading past full slip reaches the cap μ F_n.
  for (int i = 1; i <= kSteps; ++i) d.Step(dn, Eigen::Vector3d(-3.0 * x_full / kSteps, 0, 0));
  CHECK(-d.last.force[0] == doctest::Approx(-mu * fn).epsilon(1e-12));
}

TEST_CASE("tangential laws: at the committed configuration a step is the identity (CommittedTangentialResponse)") {
  // After any committed step, a step with Δs = 0 at the committed δ_n, F_n and normal returns the committed spring
  // force (the spring lies in the tangent plane, within the cap; stiffness ratios are 1). CommittedTangentialResponse
  // takes SpringForce(z, δ_n) without the rotation, cap and energy split: the same force to round-off, stored energy
  // the same, no work; and it is the force the committed step itself returned. Random paths with tilting normals, loading, unloading and gross slip, for every law.
  const double mu = 0.3;
  std::vector<std::unique_ptr<TangentialLaw>> laws = AllLaws(mu);
  laws.push_back(std::make_unique<MindlinDeresiewiczLaw>(kStiffness, mu));
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const auto& law : laws) {
    CAPTURE(law->name());
    Driver d{*law};
    double dn = 1e-5;
    Eigen::Vector3d n = Eigen::Vector3d::UnitZ();
    int slipping = 0;
    double worst_force = 0.0, worst_energy = 0.0, worst_axis_drift = 0.0;
    for (int i = 0; i < 400; ++i) {
      dn *= 1.0 + 0.05 * u(rng);
      n = (n + 0.02 * Eigen::Vector3d(u(rng), u(rng), u(rng))).normalized();
      // Back and forth along x with a random part: ≈ 40 steps of 2e-7 m each way, past the slip onset
      // μ F_n / k_t ≈ 2.5e-6 m.
      const double way = (i / 40) % 2 == 0 ? 1.0 : -1.0;
      const Eigen::Vector3d ds = 2e-7 * Eigen::Vector3d(way + 0.3 * u(rng), 0.3 * u(rng), 0.3 * u(rng));
      d.Step(dn, ds - ds.dot(n) * n, n);
      slipping += d.last.sliding;
      TangentialKinematics k;
      k.normal = n;
      k.delta_n_prev = k.delta_n = dn;
      k.normal_force_prev = k.normal_force = d.fn;
      std::vector<double> next(d.z.size());
      const TangentialResponse step = law->Evaluate(k, d.z, next);
      const TangentialResponse committed = CommittedTangentialResponse(*law, d.z, dn);
      const double scale = mu * d.fn;
      // mindlin_deresiewicz keeps its loading axis e as a vector whose length drifts from 1 by round-off (rotated
      // into each new plane keeping |e|); a step computes F = −(−F_prev·e) e, i.e. F_prev |e|², so it differs from
      // the stored force by | |e|² − 1 | on top of round-off.
      const double axis_drift = law->name() == "mindlin_deresiewicz"
                                    ? std::abs(Eigen::Vector3d(d.z[3], d.z[4], d.z[5]).squaredNorm() - 1.0)
                                    : 0.0;
      const double force_error = std::max((committed.force - step.force).norm() / scale - axis_drift,
                                          (committed.force - d.last.force).norm() / scale);
      worst_force = std::max(worst_force, force_error);
      worst_axis_drift = std::max(worst_axis_drift, axis_drift);
      worst_energy = std::max(worst_energy, std::abs(committed.stored_energy - step.stored_energy) /
                                                std::max(step.stored_energy, 1e-300));
      CHECK(committed.previous_force == committed.force);
      CHECK(committed.work_in == 0.0);
      CHECK(committed.friction_work == 0.0);
      CHECK(committed.generated_work == 0.0);
    }
    MESSAGE(law->name(), ": committed vs zero-increment step, |dF|/(mu F_n) - ||e|^2 - 1| <= ", worst_force,
            ", |dU|/U <= ", worst_energy, " (", slipping, " of 400 steps slipping; ||e|^2 - 1| <= ", worst_axis_drift,
            ")");
    CHECK(slipping > 20);        // the cap was exercised
    CHECK(slipping < 380);       // and the stick branch
    CHECK(worst_force <= 2e-15);  // round-off: a few ulp of the cap (measured ≤ 4e-16)
    CHECK(worst_energy <= 1e-14 + 2.5 * worst_axis_drift);  // measured ≤ 7e-16; mindlin_deresiewicz 4.7e-14 (2.0 × its drift)
  }
}
