// Contact-centric damping [Seed000 eq. 33; docs/theory.md §3]: η = 2 ξ_L(e_cn) √(m k_eff) with the mass chosen by
// the mode, ξ_L closed form, e_cn = 1 undamped, names parsed and bad names / values rejected.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "contact/damping/contact_centric_damping.h"
#include "core/errors.h"

using namespace impactlab;

TEST_CASE("contact_centric_damping: coefficient per mass mode and calibration") {
  const double e = 0.5, l = std::log(e);
  const double xi = -l / std::sqrt(std::numbers::pi * std::numbers::pi + l * l);  // eq. 23
  const double m_now = 0.66, k = 4.3e3, fixed = 0.648;
  const ContactCentricDamping adaptive(e, DampingMassMode::kAdaptive, 1.0);
  const ContactCentricDamping reduced(e, DampingMassMode::kFixedReducedMass, 1.0);
  const ContactCentricDamping initial(e, DampingMassMode::kFixedInitialMass, fixed);
  CHECK(adaptive.damping_ratio() == doctest::Approx(xi).epsilon(1e-15));
  CHECK(adaptive.Coefficient(m_now, k) == doctest::Approx(2 * xi * std::sqrt(m_now * k)).epsilon(1e-15));
  CHECK(reduced.Coefficient(m_now, k) == doctest::Approx(2 * xi * std::sqrt(1.0 * k)).epsilon(1e-15));
  CHECK(initial.Coefficient(m_now, k) == doctest::Approx(2 * xi * std::sqrt(fixed * k)).epsilon(1e-15));
  CHECK(ContactCentricDamping(1.0, DampingMassMode::kAdaptive, 1.0).Coefficient(m_now, k) == 0.0);
  for (auto mode : {DampingMassMode::kAdaptive, DampingMassMode::kFixedReducedMass, DampingMassMode::kFixedInitialMass})
    CHECK(ParseDampingMassMode(ToString(mode)) == mode);
  CHECK_THROWS_WITH_AS(ContactCentricDamping(1.5, DampingMassMode::kAdaptive, 1.0), doctest::Contains("e_cn"),
                       InvalidParameter);
  CHECK_THROWS_WITH_AS(ContactCentricDamping(0.5, DampingMassMode::kAdaptive, -1.0), doctest::Contains("fixed_mass"),
                       InvalidParameter);
}
