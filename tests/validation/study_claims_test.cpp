// Claims are a pure function of a study's typed results: checked here on hand-made results, without running
// any simulation (validation/studies/oscillator_comparison_study.h, seed003_carom_study.h).
#include <doctest/doctest.h>

#include "studies/oscillator_comparison_study.h"
#include "studies/seed003_carom_study.h"

using namespace impactlab;

namespace {

const Claim& Find(const std::vector<Claim>& claims, const std::string& id) {
  for (const auto& c : claims)
    if (c.id == id) return c;
  FAIL("claim " << id << " missing");
  return claims.front();
}

}  // namespace

TEST_CASE("oscillator comparison claims from hand-made results") {
  OscillatorComparisonResults r;
  r.hertz = {{"cvode_bdf", true, 1.0 + 4e-7, 1e-9, 1e-9, 0.1, 100}, {"efda", false, 0, 0, 0, 0, 0}};
  r.linear_dashpot_e = 0.5 + 2e-8;  // just outside 1e-8
  r.calibration = {{1.0, 1.0, 0.5 + 5e-8, 0.1, 0.9188}, {1.5, 1.0, 0.5 + 2e-7, 0.1, 0.5005}};
  const auto claims = OscillatorComparisonClaims(r);
  REQUIRE(claims.size() == 2 + 2 * r.calibration.size());
  CHECK(Find(claims, "oscillator.cvode.hertz_undamped_e").pass);
  CHECK(Find(claims, "oscillator.cvode.hertz_undamped_e").measured == doctest::Approx(4e-7));
  CHECK_FALSE(Find(claims, "oscillator.linear_dashpot_e").pass);
  CHECK(Find(claims, "calibration.seed000.p1").pass);
  CHECK_FALSE(Find(claims, "calibration.seed000.p1.5").pass);
  CHECK_FALSE(Find(claims, "calibration.seed001_summary.p1").pass);
  CHECK(Find(claims, "calibration.seed001_summary.p1.5").pass);  // |0.5005 − 0.5| ≤ 1e-3
  // Without a CVODE run the Hertz claim cannot pass by default.
  OscillatorComparisonResults none;
  CHECK_FALSE(Find(OscillatorComparisonClaims(none), "oscillator.cvode.hertz_undamped_e").pass);
  // Claims never mark themselves as known deviations: that is the review's job.
  for (const auto& c : claims) CHECK(c.status == ClaimStatus::kUnreviewed);
}

TEST_CASE("seed003 carom claims from hand-made results") {
  CaromResults r;
  r.first.velocity = Eigen::Vector2d(0.90622, -0.04999);
  r.first.omega = -11.721;
  r.first.kinetic_energy_ratio = 0.90332;
  r.efda_first_local = 1e-3;
  r.efda_balance = 5e-13;
  r.kn_errors = {0.1, 0.01};
  r.efda_observed_order = 1.9;
  r.reversal_errors = {0.19, 0.08, 0.04};
  r.reversal_errors_gravity_corrected = {0.183, 0.072, 0.024};
  r.reversal_exponent_gravity_corrected = -0.44;  // nearer −1/2 than −1/3: passes
  r.momentum_drift = 2e-12;  // above 1e-12: must fail
  const auto claims = CaromClaims(r);
  CHECK(claims.size() == 14);
  for (const auto& c : claims) {
    INFO(c.id);
    const bool should_fail = c.id == "seed003.efda.multi.momentum" || c.id == "seed003.efda.reversal_impact.local_error";
    CHECK(c.pass == !should_fail);
  }
  r.reversal_exponent_gravity_corrected = -0.34;  // the raw reading (−1/3) fails the corrected exponent claim
  CHECK_FALSE(Find(CaromClaims(r), "seed003.efda.reversal_impact.gravity_corrected.kt_exponent").pass);
  r.kn_errors = {0.1};  // one stiffness only: no convergence claim, none invented
  r.reversal_errors.clear();
  r.reversal_errors_gravity_corrected.clear();
  CHECK(CaromClaims(r).size() == 9);
}
