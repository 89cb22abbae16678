// RadiusBoundTangentialLaw (contact/radius_bound_tangential_law.h): R* frozen at first touch, the in-contact
// fraction of the slip on the touching step, the stick force of Mindlin's k_t = 8 G* √(R* δ) for the frozen R*,
// the release of the spring's energy at opening, and the algorithmic force whose work the law books.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <memory>

#include "contact/radius_bound_tangential_law.h"
#include "contact/tangential/cundall_strack.h"
#include "contact/tangential/mindlin_incremental.h"
#include "core/errors.h"

using namespace impactlab;

namespace {
constexpr double kShearModulus = 1.0e9;  // G* [Pa]
constexpr double kMu = 0.5;

RadiusBoundTangentialLaw MindlinBound(double reference_radius) {
  return RadiusBoundTangentialLaw(
      "mindlin_incremental",
      [](double radius) { return std::make_shared<MindlinIncrementalLaw>(MindlinStiffness{kShearModulus, radius}, kMu); },
      reference_radius);
}
}  // namespace

TEST_CASE("radius-bound law: R* is taken at first touch and kept, k_t = 8 G* sqrt(R* delta) of that R*") {
  const RadiusBoundTangentialLaw law = MindlinBound(0.01);
  CHECK(law.history_size() > 0);
  CHECK(law.friction_coefficient() == kMu);
  std::array<double, 8> h0{}, h1{}, h2{};
  const auto n = static_cast<size_t>(law.history_size());
  REQUIRE(n <= h0.size());
  const Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  const double delta = 1.0e-6, fn = 1.0e3;  // a large normal force: the cap stays far away (stick)
  const double r_touch = 0.02;
  // Step 1 touches at R* = 0.02 (δ₀ = 0: the in-contact fraction δ₁/(δ₁ − δ₀) of Δs is 1).
  const Eigen::Vector3d ds(1.0e-9, 0.0, 0.0);
  const RadiusBoundTangentialStep s1 = law.Step(0.0, r_touch, 0.0, delta, 0.0, fn, normal, ds,
                                                std::span<const double>(h0.data(), n), std::span<double>(h1.data(), n));
  CHECK(s1.active);
  CHECK_FALSE(s1.sliding);
  CHECK(s1.radius == r_touch);
  // Step 2 at constant δ offers another R* (the contact point rolled): it is ignored, R* stays 0.02, and the
  // incremental spring adds k_t(δ) Δs with k_t = 8 G* √(R* δ) of the frozen R*.
  const RadiusBoundTangentialStep s2 = law.Step(s1.radius, 0.5, delta, delta, fn, fn, normal, ds,
                                                std::span<const double>(h1.data(), n), std::span<double>(h2.data(), n));
  CHECK(s2.radius == r_touch);
  const double k_frozen = 8.0 * kShearModulus * std::sqrt(r_touch * delta);
  CHECK(s2.force.x() - s1.force.x() == doctest::Approx(-k_frozen * ds.x()).epsilon(1e-12));
  CHECK(std::abs(s2.force.y()) < 1e-300);
  // The stored energy is the law's for the frozen R* (with R* = 0 there is no contact, hence none).
  const double u = law.StoredEnergy(r_touch, std::span<const double>(h2.data(), n), delta);
  CHECK(u > 0.0);
  CHECK(u == law.LawFor(r_touch)->StoredEnergy(std::span<const double>(h2.data(), n), delta));
  CHECK(law.StoredEnergy(0.0, std::span<const double>(h2.data(), n), delta) == 0.0);
}

TEST_CASE("radius-bound law: the touching step loads only the in-contact fraction of the slip") {
  const double kt = 2.0e4;
  const RadiusBoundTangentialLaw law(
      "cundall_strack", [kt](double) { return std::make_shared<CundallStrackLaw>(kt, kMu); }, 1.0);
  std::array<double, 3> h0{}, h1{};
  const Eigen::Vector3d ds(0.0, 4.0e-6, 0.0);
  // δ₀ = −3e-6, δ₁ = 1e-6: contact from a quarter of the way before the end, so ¼ of Δs loads the spring.
  const RadiusBoundTangentialStep s = law.Step(0.0, 1.0, -3.0e-6, 1.0e-6, 0.0, 10.0, Eigen::Vector3d::UnitZ(), ds,
                                               h0, h1);
  CHECK(s.force.y() == doctest::Approx(-kt * 0.25 * ds.y()).epsilon(1e-12));
  // f̄_t · Δs equals the work the law books over the whole Δs: −U(end) here (U₀ = 0, stick, no generated work).
  const double u_end = law.StoredEnergy(1.0, h1, 1.0e-6);
  CHECK(u_end == doctest::Approx(0.5 * kt * std::pow(0.25 * ds.y(), 2)).epsilon(1e-12));
  CHECK(s.algorithmic_force.dot(ds) == doctest::Approx(-u_end).epsilon(1e-12));
}

TEST_CASE("radius-bound law: opening releases the stored energy and clears the history") {
  const double kt = 3.0e4;
  const RadiusBoundTangentialLaw law(
      "cundall_strack", [kt](double) { return std::make_shared<CundallStrackLaw>(kt, kMu); }, 1.0);
  std::array<double, 3> h0{}, h1{}, h2{};
  const Eigen::Vector3d ds(2.0e-6, -1.0e-6, 0.0);
  const RadiusBoundTangentialStep loaded =
      law.Step(0.0, 0.7, 1.0e-6, 1.0e-6, 10.0, 10.0, Eigen::Vector3d::UnitZ(), ds, h0, h1);
  REQUIRE_FALSE(loaded.sliding);
  const RadiusBoundTangentialStep open =
      law.Step(loaded.radius, 0.7, 1.0e-6, -1.0e-7, 10.0, 0.0, Eigen::Vector3d::UnitZ(), ds, h1, h2);
  CHECK_FALSE(open.active);
  CHECK(open.radius == 0.0);
  CHECK(open.force.norm() == 0.0);
  CHECK(open.release_energy == doctest::Approx(0.5 * kt * ds.squaredNorm()).epsilon(1e-12));
  CHECK(h2 == std::array<double, 3>{});
}

TEST_CASE("radius-bound law: the reference law is built once, bad arguments name the parameter") {
  int built = 0;
  const RadiusBoundTangentialLaw law(
      "cundall_strack",
      [&built](double) {
        ++built;
        return std::make_shared<CundallStrackLaw>(1.0e3, kMu);
      },
      0.3);
  CHECK(built == 1);
  CHECK(law.LawFor(0.3) == law.LawFor(0.3));
  CHECK(built == 1);
  (void)law.LawFor(0.4);
  CHECK(built == 2);
  CHECK_THROWS_WITH_AS(RadiusBoundTangentialLaw("x", nullptr, 1.0), doctest::Contains("tangential_law"),
                       InvalidParameter);
  CHECK_THROWS_WITH_AS(
      RadiusBoundTangentialLaw("x", [](double) { return std::make_shared<CundallStrackLaw>(1.0, 0.1); }, 0.0),
      doctest::Contains("R_star"), InvalidParameter);
}

TEST_CASE("radius-bound law: a law for another R* is built once per thread and law, with the same physics") {
  int built = 0;
  auto factory = [&built](double radius) {
    ++built;
    return std::make_shared<MindlinIncrementalLaw>(MindlinStiffness{kShearModulus, radius}, kMu);
  };
  const RadiusBoundTangentialLaw law("mindlin_incremental", factory, 0.01);
  REQUIRE(built == 1);
  // A contact's frozen R* (first touch, then every step of the contact): one factory call.
  const auto first = law.LawFor(0.02);
  CHECK(built == 2);
  CHECK(law.laws_built() == 1);
  for (int k = 0; k < 100; ++k) CHECK(law.LawFor(0.02) == first);
  CHECK(built == 2);
  // The cache is keyed by the bits of R*: the next double up is another radius.
  (void)law.LawFor(std::nextafter(0.02, 1.0));
  CHECK(built == 3);
  // A copy shares the factory, so its entries; another law with the same R* does not (its own factory).
  const RadiusBoundTangentialLaw copy = law;
  CHECK(copy.LawFor(0.02) == first);
  CHECK(built == 3);
  int other_built = 0;
  const RadiusBoundTangentialLaw other(
      "cundall_strack",
      [&other_built](double) {
        ++other_built;
        return std::make_shared<CundallStrackLaw>(1.0e3, kMu);
      },
      0.01);
  CHECK(other.LawFor(0.02) != first);
  CHECK(other_built == 2);
  CHECK(other.LawFor(0.02)->name() == "cundall_strack");
  // More radii than the cache holds: the oldest is rebuilt, and the rebuilt law gives the same numbers.
  for (int k = 0; k < RadiusBoundTangentialLaw::kCachedLaws; ++k) (void)law.LawFor(0.03 + 1e-4 * k);
  const int before = built;
  const auto rebuilt = law.LawFor(0.02);
  CHECK(built == before + 1);
  CHECK(rebuilt != first);
  // k_t = 8 G* sqrt(R* δ) of the cached R*: the stored energy of a stuck spring, U = |F|²/(2 k_t) (closed form),
  // from the cached law and from the rebuilt one, bit for bit.
  std::array<double, 8> h0{}, h1{}, h2{};
  const auto n = static_cast<size_t>(law.history_size());
  REQUIRE(n <= h0.size());
  const double delta = 1.0e-6, fn = 1.0e3;
  const Eigen::Vector3d ds(1.0e-9, 0.0, 0.0);
  const auto s1 = law.Step(0.02, 0.02, delta, delta, fn, fn, Eigen::Vector3d::UnitZ(), ds,
                           std::span<const double>(h0.data(), n), std::span<double>(h1.data(), n));
  const double kt = 8.0 * kShearModulus * std::sqrt(0.02 * delta);
  CHECK(s1.force.x() == doctest::Approx(-kt * ds.x()).epsilon(1e-12));
  const double u = law.StoredEnergy(0.02, std::span<const double>(h1.data(), n), delta);
  CHECK(u == doctest::Approx(0.5 * kt * ds.x() * ds.x()).epsilon(1e-12));
  const auto s2 = RadiusBoundTangentialLaw("mindlin_incremental", factory, 0.01)
                      .Step(0.02, 0.02, delta, delta, fn, fn, Eigen::Vector3d::UnitZ(), ds,
                            std::span<const double>(h0.data(), n), std::span<double>(h2.data(), n));
  CHECK(s2.force.x() == s1.force.x());
  CHECK(h2 == h1);
}
