// Every normal law: F = W' and dF/dδ by central finite differences, k_eff = W'²/(2W) against its closed form,
// exactness at δ = 0, bad parameters rejected with the parameter named.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "contact/power_law.h"
#include "core/errors.h"

using namespace impactlab;

namespace {
// Central differences with relative step 1e-5: truncation ~1e-10·W''', round-off ~1e-11; tolerance 1e-7 rel.
constexpr double kFdRelStep = 1e-5;
constexpr double kFdTol = 1e-7;

void CheckLaw(const NormalContactLaw& law) {
  for (double delta : {1e-4, 1e-2, 0.3, 1.0, 2.5}) {
    const double h = kFdRelStep * delta;
    const double fd_force = (law.Potential(delta + h) - law.Potential(delta - h)) / (2 * h);
    const double fd_stiff = (law.Force(delta + h) - law.Force(delta - h)) / (2 * h);
    CHECK(law.Force(delta) == doctest::Approx(fd_force).epsilon(kFdTol));
    CHECK(law.Stiffness(delta) == doctest::Approx(fd_stiff).epsilon(kFdTol));
    const double w = law.Potential(delta), f = law.Force(delta);
    CHECK(law.EffectiveStiffness(delta) == doctest::Approx(f * f / (2 * w)).epsilon(1e-13));
    // closed form k_eff = (p+1)/2 k δ^(p−1) [docs/theory.md §2]
    CHECK(law.EffectiveStiffness(delta) ==
          doctest::Approx(0.5 * (law.exponent() + 1) * law.coefficient() * std::pow(delta, law.exponent() - 1))
              .epsilon(1e-13));
  }
  CHECK(law.Potential(0.0) == 0.0);
  CHECK(law.Force(0.0) == 0.0);
  CHECK(law.Potential(-1e-3) == 0.0);
  CHECK(law.Force(-1e-3) == 0.0);
  CHECK(law.Stiffness(-1e-3) == 0.0);
}
}  // namespace

TEST_CASE("normal laws: F = W', stiffness = F', k_eff closed form") {
  SUBCASE("linear") { CheckLaw(LinearLaw(2.5e4)); }
  SUBCASE("hertz") { CheckLaw(HertzLaw(1.7e6)); }
  SUBCASE("power law p = 2") { CheckLaw(PowerLaw(3.0, 2.0)); }
  SUBCASE("power law p = 3") { CheckLaw(PowerLaw(0.5, 3.0)); }
  SUBCASE("power law p = 1.25") { CheckLaw(PowerLaw(10.0, 1.25)); }
}

TEST_CASE("Hertz from material: K_H = 4/3 E* sqrt(R*) [Seed002 eq. 18]") {
  const HertzLaw law = HertzLaw::FromMaterial(7e10, 0.025);
  CHECK(law.coefficient() == doctest::Approx(4.0 / 3.0 * 7e10 * std::sqrt(0.025)).epsilon(1e-15));
  CHECK(law.exponent() == 1.5);
  // dF/dδ = 2 E* a with a = sqrt(R* δ)  [docs/theory.md §2]
  const double delta = 1e-5;
  CHECK(law.Stiffness(delta) == doctest::Approx(2 * 7e10 * std::sqrt(0.025 * delta)).epsilon(1e-13));
}

TEST_CASE("normal laws reject bad parameters, naming them") {
  CHECK_THROWS_WITH_AS(PowerLaw(1.0, 0.5), doctest::Contains("p = 0.5"), InvalidParameter);
  CHECK_THROWS_WITH_AS(PowerLaw(-1.0, 2.0), doctest::Contains("k = -1"), InvalidParameter);
  CHECK_THROWS_AS(HertzLaw::FromMaterial(0.0, 1.0), InvalidParameter);
  CHECK_THROWS_AS(LinearLaw(std::nan("")), InvalidParameter);
}
