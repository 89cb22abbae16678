// Damping laws: Φ' = C and C' = dC/dδ (finite differences; Hertz and the other power laws, closed forms for Tsuji at
// p = 3/2), universal = Tsuji with α = √(2(p+1)) ξ for power laws,
// C(δ ≤ 0) = 0, parameters validated.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "core/errors.h"

using namespace impactlab;

TEST_CASE("damping potential: dPhi/ddelta = C") {
  auto elastic = std::make_shared<PowerLaw>(2.0, 2.5);
  const LinearViscousDamping lin(0.7);
  const TsujiDamping tsuji(0.9, 1.5, 2.0, 2.5);
  const UniversalDamping uni(0.3, 1.5, elastic);
  const KuwabaraKonoDamping kk(0.4);
  for (const DampingLaw* law : std::initializer_list<const DampingLaw*>{&lin, &tsuji, &uni, &kk}) {
    CAPTURE(law->name());
    for (double d : {1e-3, 0.2, 1.3}) {
      const double h = 1e-6 * d;
      const double fd = (law->DissipationPotential(d + h) - law->DissipationPotential(d - h)) / (2 * h);
      CHECK(law->Coefficient(d) == doctest::Approx(fd).epsilon(1e-7));
    }
    CHECK(law->Coefficient(-0.1) == 0.0);
    CHECK(law->DissipationPotential(-0.1) == 0.0);
  }
}

TEST_CASE("damping coefficient derivative: C' = dC/ddelta against central differences and closed forms") {
  // Every law on a power law of exponent 2.5, on Hertz (p = 3/2, Tsuji's δ^{1/4} branch) and on the linear law.
  for (const double p : {2.5, 1.5, 1.0}) {
    CAPTURE(p);
    auto elastic = std::make_shared<PowerLaw>(2.0, p);
    const NoDamping none;
    const LinearViscousDamping lin(0.7);
    const TsujiDamping tsuji(0.9, 1.5, 2.0, p);
    const UniversalDamping uni(0.3, 1.5, elastic);
    const KuwabaraKonoDamping kk(0.4);
    for (const DampingLaw* law : std::initializer_list<const DampingLaw*>{&none, &lin, &tsuji, &uni, &kk}) {
      CAPTURE(law->name());
      for (double d : {1e-3, 0.2, 1.3}) {
        const double h = 1e-6 * d;
        const double fd = (law->Coefficient(d + h) - law->Coefficient(d - h)) / (2 * h);
        CHECK(law->CoefficientDerivative(d) == doctest::Approx(fd).epsilon(1e-7).scale(1e-9));
      }
      CHECK(law->CoefficientDerivative(-0.1) == 0.0);
      CHECK(law->CoefficientDerivative(0.0) == 0.0);
    }
    // Closed forms: Tsuji α √(mk) (p−1)/2 δ^((p−3)/2); universal C (p − 1)/(2δ) (C ∝ δ^((p−1)/2)); Kuwabara–Kono
    // γ/(2√δ).
    const double d = 0.37;
    CHECK(tsuji.CoefficientDerivative(d) ==
          doctest::Approx(0.9 * std::sqrt(1.5 * 2.0) * 0.5 * (p - 1.0) * std::pow(d, 0.5 * (p - 3.0))).epsilon(1e-14));
    CHECK(uni.CoefficientDerivative(d) == doctest::Approx(uni.Coefficient(d) * (p - 1.0) / (2.0 * d)).epsilon(1e-13));
    CHECK(kk.CoefficientDerivative(d) == doctest::Approx(0.2 / std::sqrt(d)).epsilon(1e-15));
  }
}

TEST_CASE("universal damping equals Tsuji with alpha = sqrt(2(p+1)) xi for power laws") {
  const double m = 1.5, k = 2.0, p = 2.5, xi = 0.3;
  auto elastic = std::make_shared<PowerLaw>(k, p);
  const UniversalDamping uni(xi, m, elastic);
  const TsujiDamping tsuji(std::sqrt(2 * (p + 1)) * xi, m, k, p);
  for (double d : {1e-4, 0.5, 2.0}) CHECK(uni.Coefficient(d) == doctest::Approx(tsuji.Coefficient(d)).epsilon(1e-13));
}

TEST_CASE("damping laws reject bad parameters") {
  CHECK_THROWS_AS(LinearViscousDamping(-1.0), InvalidParameter);
  CHECK_THROWS_WITH_AS(TsujiDamping(-0.1, 1, 1, 1.5), doctest::Contains("alpha"), InvalidParameter);
  CHECK_THROWS_AS(TsujiDamping(0.1, 0.0, 1, 1.5), InvalidParameter);
  CHECK_THROWS_AS(UniversalDamping(1.0, 1.0, std::make_shared<LinearLaw>(1.0)), InvalidParameter);
  CHECK_THROWS_AS(KuwabaraKonoDamping(std::nan("")), InvalidParameter);
}
