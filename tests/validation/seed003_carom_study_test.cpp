// The seed003 carom study in quick mode: every claim passes or sits inside its reviewed known-deviation band (Routh first impact vs docs/theory.md §8, EFDA vs the
// rigid reference, K_N convergence, observed order, energy balance and momenta to 1e-12) and it writes its
// tables and figure specs.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "report/known_deviations.h"
#include "studies/seed003_carom_study.h"

using namespace impactlab;

TEST_CASE("[study] seed003_carom quick mode: all claims pass or are documented deviations") {
  // Per-process folder: two concurrent test runs (e.g. Release and sanitizer ctest) must not share it.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("impactlab_seed003_carom_test_" + std::to_string(static_cast<long>(getpid())));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  StudyContext ctx;
  ctx.out_dir = dir;
  ctx.quick = true;
  ctx.progress = [](const std::string&) {};
  StudyResult r = Seed003CaromStudy().Run(ctx);
  ReviewClaims(r.claims, KnownDeviations::Load(KnownDeviations::DefaultPath()), ctx.quick);
  REQUIRE(r.claims.size() >= 9);
  for (const auto& c : r.claims) {
    INFO(c.id << " measured " << c.measured);
    CHECK(IsAcceptable(c.status));
  }
  CHECK(std::filesystem::exists(dir / "carom_impacts.csv"));
  CHECK(std::filesystem::exists(dir / "carom_trajectory.plot.json"));
  CHECK(std::filesystem::exists(dir / "kn_convergence.csv"));
  std::filesystem::remove_all(dir);
}
