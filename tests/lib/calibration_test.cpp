// Restitution calibrations decided by simulation (docs/calibration.md):
//  - ξ_L(e) and its inverse;
//  - linear spring–dashpot: CVODE restitution = exp(−ξπ/√(1−ξ²)) to 1e-8;
//  - generalized Tsuji α = √(2(p+1)) ξ_L(e): target e → α → simulated e for p ∈ {1, 1.5, 2, 3};
//  - seed 001 summary's α = p/(2(p+1)) ξ_L(e) misses the target (the test that decides);
//  - velocity independence of e for Tsuji, velocity dependence for Kuwabara–Kono (and its v0^(1/5) law).
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <numbers>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "contact/restitution_calibration.h"
#include "core/errors.h"
#include "support/oscillator_runs.h"

using namespace impactlab;
using testing::CvodeImpact;

namespace {
// CVODE at rtol 1e-12 with root-located contact end: restitution accurate to ~1e-10; 1e-8 leaves margin.
constexpr double kSimTol = 1e-8;
}  // namespace

TEST_CASE("xi_L(e) and its inverse [Seed000 eq. 23]") {
  for (double e : {0.05, 0.3, 0.5, 0.9, 1.0}) {
    const double xi = DampingRatioFromRestitution(e);
    CHECK(RestitutionFromDampingRatio(xi) == doctest::Approx(e).epsilon(1e-14));
  }
  CHECK(DampingRatioFromRestitution(1.0) == 0.0);
  CHECK_THROWS_WITH_AS(DampingRatioFromRestitution(0.0), doctest::Contains("e = 0"), InvalidParameter);
  CHECK_THROWS_AS(DampingRatioFromRestitution(1.2), InvalidParameter);
}

TEST_CASE("[study] linear spring-dashpot restitution vs closed form, CVODE") {
  for (double e : {0.2, 0.5, 0.8}) {
    const double m = 2.0, k = 50.0;
    const double xi = DampingRatioFromRestitution(e);
    auto elastic = std::make_shared<LinearLaw>(k);
    auto damping = std::make_shared<LinearViscousDamping>(2 * xi * std::sqrt(m * k));
    const auto metrics = CvodeImpact(elastic, damping, m, 0.7);
    REQUIRE(metrics.restitution);
    CHECK(*metrics.restitution == doctest::Approx(std::exp(-std::numbers::pi * xi / std::sqrt(1 - xi * xi))).epsilon(kSimTol));
    // t_c = π/(ω0 √(1−ξ²)) for the unclipped law
    CHECK(*metrics.contact_duration ==
          doctest::Approx(std::numbers::pi / (std::sqrt(k / m) * std::sqrt(1 - xi * xi))).epsilon(kSimTol));
  }
}

TEST_CASE("[study] Tsuji calibration round trip and the seed 001 summary formula") {
  const double e_target = 0.5;
  for (double p : {1.0, 1.5, 2.0, 3.0}) {
    CAPTURE(p);
    const double m = 1.3, k = 4.0;
    auto elastic = std::make_shared<PowerLaw>(k, p);
    const double alpha = TsujiAlphaFromRestitution(e_target, p);
    const auto good = CvodeImpact(elastic, std::make_shared<TsujiDamping>(alpha, m, k, p), m, 0.9);
    REQUIRE(good.restitution);
    CHECK(*good.restitution == doctest::Approx(e_target).epsilon(kSimTol));
    // The printed seed 001 summary formula: far from the target (it under-damps by 2(p+1)√(2(p+1))/p).
    const auto bad = CvodeImpact(elastic, std::make_shared<TsujiDamping>(Seed001SummaryAlpha(e_target, p), m, k, p), m, 0.9);
    REQUIRE(bad.restitution);
    CHECK(std::abs(*bad.restitution - e_target) > 0.2);
    CHECK(*bad.restitution == doctest::Approx(RestitutionFromTsujiAlpha(Seed001SummaryAlpha(e_target, p), p)).epsilon(kSimTol));
  }
}

TEST_CASE("[study] Tsuji restitution is velocity independent - Kuwabara-Kono is not") {
  const double m = 1.0, k = 1.0, p = 1.5;
  auto hertz = std::make_shared<HertzLaw>(k);
  auto tsuji = std::make_shared<TsujiDamping>(TsujiAlphaFromRestitution(0.7, p), m, k, p);
  for (double v0 : {1e-3, 1.0, 30.0}) {
    CAPTURE(v0);
    const auto r = CvodeImpact(hertz, tsuji, m, v0);
    REQUIRE(r.restitution);
    CHECK(*r.restitution == doctest::Approx(0.7).epsilon(kSimTol));
  }
  // Kuwabara–Kono: 1 − e ≈ 1.1534 (γ/k)(k/m)^(2/5) v0^(1/5) for small damping [docs/theory.md §3].
  const double gamma = 1e-4;
  auto kk = std::make_shared<KuwabaraKonoDamping>(gamma);
  double previous = 2.0;
  for (double v0 : {0.01, 1.0, 100.0}) {
    CAPTURE(v0);
    const auto r = CvodeImpact(hertz, kk, m, v0);
    REQUIRE(r.restitution);
    CHECK(*r.restitution < previous);  // faster impacts lose more
    previous = *r.restitution;
    const double c1 = (1 - *r.restitution) / (gamma / k * std::pow(k / m, 0.4) * std::pow(v0, 0.2));
    CHECK(c1 == doctest::Approx(1.1534).epsilon(2e-3));  // O(γ) corrections at γ v0^(1/5) ≲ 2.5e-4
  }
}

TEST_CASE("[study] universal damping gives e for any law [Seed000 eq. 22]") {
  const double m = 0.8;
  for (double p : {1.0, 1.5, 2.5}) {
    auto elastic = std::make_shared<PowerLaw>(3.0, p);
    auto damping = std::make_shared<UniversalDamping>(DampingRatioFromRestitution(0.4), m, elastic);
    const auto r = CvodeImpact(elastic, damping, m, 1.7);
    REQUIRE(r.restitution);
    CHECK(*r.restitution == doctest::Approx(0.4).epsilon(kSimTol));
  }
}
