// Known deviations as reviewed data (validation/report/known_deviations.h): the review is a pure function of
// the claims and the list (no study marks its own miss), the TOML is checked field by field, the repository
// file is well-formed, and — through the real CLI — a perturbed study input pushes a listed claim out of its
// band (validate exits 1 naming it) while a listed claim that passes is reported "fixed".
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/errors.h"
#include "report/known_deviations.h"
#include "support/run_impactlab.h"

using namespace impactlab;

namespace {

const char* kList = R"(
[[deviation]]
id = "a.listed"
study = "s"
published = 0.5
measured = 0.49
band = [0.488, 0.492]
quick = { measured = 0.47, band = [0.46, 0.48] }
reason = "r"
evidence = "e"
)";

Claim Measured(const std::string& id, double measured) {
  return MakeClaim(id, "d", "Seed000 Table 2", 0.5, measured, 0.001);
}

std::filesystem::path TempDir(const std::string& stem) {
  const auto dir = std::filesystem::temp_directory_path() / (stem + std::to_string(static_cast<long>(getpid())));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("known deviations: review sets pass, fixed, known deviation, outside band and fail") {
  const KnownDeviations list = KnownDeviations::Parse(kList, "test");
  std::vector<Claim> claims = {Measured("a.listed", 0.49), Measured("a.listed", 0.50), Measured("a.listed", 0.40),
                               Measured("b.unlisted", 0.50), Measured("b.unlisted", 0.40)};
  ReviewClaims(claims, list, false);
  CHECK(claims[0].status == ClaimStatus::kKnownDeviation);
  REQUIRE(claims[0].band.has_value());
  CHECK(claims[0].band->low == 0.488);
  CHECK(claims[1].status == ClaimStatus::kFixed);  // passes its published tolerance: the entry can go
  CHECK(claims[2].status == ClaimStatus::kOutsideBand);  // a reason never rescues a value outside the band
  CHECK(claims[3].status == ClaimStatus::kPass);
  CHECK(claims[4].status == ClaimStatus::kFail);
  CHECK_FALSE(IsAcceptable(ClaimStatus::kOutsideBand));
  CHECK_FALSE(IsAcceptable(ClaimStatus::kFail));
  // --quick uses its own band: 0.49 is outside the quick band, 0.47 inside.
  std::vector<Claim> quick = {Measured("a.listed", 0.49), Measured("a.listed", 0.47)};
  ReviewClaims(quick, list, true);
  CHECK(quick[0].status == ClaimStatus::kOutsideBand);
  CHECK(quick[1].status == ClaimStatus::kKnownDeviation);
  // A non-finite measurement is never inside a band.
  std::vector<Claim> nan = {Measured("a.listed", NAN)};
  ReviewClaims(nan, list, false);
  CHECK(nan[0].status == ClaimStatus::kOutsideBand);
}

TEST_CASE("known deviations: stale entries are those of a study that ran whose id matches no claim") {
  const KnownDeviations list = KnownDeviations::Parse(kList, "test");
  CHECK(StaleEntries(list, {"s"}, {"a.listed"}).empty());
  CHECK(StaleEntries(list, {"other"}, {}).empty());  // its study did not run
  CHECK(StaleEntries(list, {"s"}, {"a.renamed"}) == std::vector<std::string>{"a.listed"});
}

TEST_CASE("known deviations: malformed entries are rejected naming entry and field") {
  auto error = [](const std::string& text) {
    try {
      (void)KnownDeviations::Parse(text, "kd.toml");
    } catch (const InvalidParameter& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string ok_tail = "study = \"s\"\nreason = \"r\"\nevidence = \"e\"\n";
  CHECK(error("[[deviation]]\nid = \"x\"\nmeasured = 1.0\nband = [0.9, 0.95]\n" + ok_tail).find("band") !=
        std::string::npos);  // the band must contain our measured value
  CHECK(error("[[deviation]]\nid = \"x\"\nmeasured = 1.0\nband = [0.9, 1.1]\ncolour = 1\n" + ok_tail)
            .find("colour") != std::string::npos);
  CHECK(error("[[deviation]]\nid = \"x\"\nmeasured = 1.0\nband = [0.9, 1.1]\nstudy = \"s\"\nevidence = \"e\"\n")
            .find("reason") != std::string::npos);
  const std::string entry = "[[deviation]]\nid = \"x\"\nmeasured = 1.0\nband = [0.9, 1.1]\n" + ok_tail;
  CHECK(error(entry + entry).find("listed once") != std::string::npos);
  CHECK(error("[[deviation]]\nid = \"x\"\nband = [0.9, 1.1]\n" + ok_tail).find("measured") != std::string::npos);
  CHECK(error("x = 1\n").find("only [[deviation]]") != std::string::npos);
}

TEST_CASE("known deviations: the repository list is well-formed and every entry is reviewed") {
  const KnownDeviations list = KnownDeviations::Load(KnownDeviations::DefaultPath());
  CHECK(list.entries().size() >= 21);
  for (const auto& d : list.entries()) {
    INFO(d.id);
    CHECK(d.full.low <= d.full.expected);
    CHECK(d.full.expected <= d.full.high);
    CHECK(d.reason.size() > 20);
    CHECK(d.evidence.size() > 20);
  }
}

TEST_CASE("[study] validate: a perturbed study input moves a known deviation out of its band") {
  const auto dir = TempDir("impactlab_perturbed_");
  // Seed 001 summary's α at e_target = 0.3 instead of 0.5: the simulated restitution moves far from the band
  // reviewed for 0.5; the review must fail the claim whatever its reason says.
  const auto r = test::RunImpactlab("validate --quick --only oscillator_comparison --set "
                                    "oscillator_comparison.calibration_e_target=0.3 --out '" + dir.string() + "'");
  INFO(r.out);
  CHECK(r.status == 1);
  CHECK(r.out.find("OUTSIDE BAND: calibration.seed001_summary.p1.5") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("[study] validate: a listed claim that now passes is reported fixed") {
  const auto dir = TempDir("impactlab_fixed_");
  std::ifstream in(KnownDeviations::DefaultPath());
  std::stringstream text;
  text << in.rdbuf();
  // The CVODE linear spring–dashpot claim passes (|e − 0.5| ≈ 1e-11): listing it as a deviation must report
  // it "fixed", and — a passing claim being acceptable — validate still exits 0.
  text << "\n[[deviation]]\nid = \"oscillator.linear_dashpot_e\"\nstudy = \"oscillator_comparison\"\n"
          "published = 0.5\nmeasured = 0.45\nband = [0.4, 0.46]\nreason = \"test entry\"\nevidence = \"test entry\"\n";
  std::ofstream(dir / "kd.toml") << text.str();
  const auto r = test::RunImpactlab("validate --quick --only oscillator_comparison --deviations '" +
                                    (dir / "kd.toml").string() + "' --out '" + (dir / "out").string() + "'");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("FIXED: oscillator.linear_dashpot_e") != std::string::npos);
  CHECK(r.out.find("1 fixed") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("validate: an unknown study input is a one-line error naming the valid inputs") {
  const auto r = test::RunImpactlab("validate --quick --only oscillator_comparison --set oscillator_comparison.nope=1 "
                                    "--out /nonexistent-impactlab-dir");
  CHECK(r.status == 2);
  CHECK(r.out.find("oscillator_comparison.calibration_e_target") != std::string::npos);
}
