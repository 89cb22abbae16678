// The rotation study (issue 15 item 4; docs/rotation.md) in quick mode: every claim passes (conserving scheme's
// E and L drift ≤ 1e-12, the baselines drift by more than 1e-10, order 2 of Ω(T), flip period, balance of the
// spinning ellipsoid without and with gravity and friction, in-plane case) and it writes its series CSVs and the two figure specs.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "report/known_deviations.h"
#include "studies/rotation_study.h"

using namespace impactlab;

TEST_CASE("[study] rotation quick mode: all claims pass and the drift figures are written") {
  // Per-process folder: two concurrent test runs (e.g. Release and sanitizer ctest) must not share it.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("impactlab_rotation_study_test_" + std::to_string(static_cast<long>(getpid())));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  StudyContext ctx;
  ctx.out_dir = dir;
  ctx.quick = true;
  ctx.progress = [](const std::string&) {};
  StudyResult r = RotationStudy().Run(ctx);
  ReviewClaims(r.claims, KnownDeviations::Load(KnownDeviations::DefaultPath()), ctx.quick);
  // 2 conserving + 6 baseline controls + 3 orders + flip + 3 balances + 2 in-plane + 3 balances with friction
  CHECK(r.claims.size() == 20);
  for (const auto& c : r.claims) {
    INFO(c.id << " measured " << c.measured);
    CHECK(c.pass);
    CHECK(IsAcceptable(c.status));
  }
  for (const char* f : {"drift_energy.plot.json", "drift_momentum.plot.json", "drift_lie_poisson_midpoint.csv",
                        "drift_rk4.csv", "drift_dopri5.csv", "drift_cvode_bdf.csv", "order.csv",
                        "ellipsoid_wall_3d.csv", "ellipsoid_wall_3d_friction.csv"})
    CHECK(std::filesystem::exists(dir / f));
  CHECK(r.figures.size() == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("[study] rotation claims from hand-made results: a drifting conserving scheme fails") {
  RotationResults r;
  RotationDriftSeries lp;
  lp.integrator = "lie_poisson_midpoint";
  lp.steps = 10;
  lp.n = {10};
  lp.energy = {3e-12};  // above the 1e-12 bound
  lp.momentum = {1e-14};
  RotationDriftSeries rk;
  rk.integrator = "rk4";
  rk.steps = 10;
  rk.n = {10};
  rk.energy = {1e-11};  // a baseline that does not drift by 1e-10: the control fails
  rk.momentum = {0.5};
  r.drift = {lp, rk};
  r.order_steps = {800, 1600};
  r.order_errors = {4e-4, 1e-4};  // order 2
  r.flip_steps = {20000};
  r.flip_errors = {5e-8};
  RotationWallRun wf;  // friction run whose balance misses the bound: its claim fails
  wf.axis = "y";
  wf.integrator = "lie_poisson_midpoint";
  wf.friction = true;
  wf.balance = 2e-12;
  RotationWallRun wf_ok = wf;
  wf_ok.axis = "z";
  wf_ok.balance = 3e-15;
  RotationWallRun wf_other = wf;  // a baseline's balance is reported, not claimed
  wf_other.integrator = "rk4";
  r.wall_friction = {wf, wf_ok, wf_other};
  const auto claims = RotationClaims(r);
  auto find = [&claims](const std::string& id) {
    for (const auto& c : claims)
      if (c.id == id) return c.pass;
    FAIL("missing claim " << id);
    return false;
  };
  CHECK_FALSE(find("rotation.free.lie_poisson_midpoint.energy_drift"));
  CHECK(find("rotation.free.lie_poisson_midpoint.momentum_drift"));
  CHECK_FALSE(find("rotation.free.rk4.energy_drift_exceeds_1e-10"));
  CHECK(find("rotation.free.rk4.momentum_drift_exceeds_1e-10"));
  CHECK(find("rotation.order.800_1600"));
  CHECK(find("rotation.flip_period"));
  CHECK_FALSE(find("rotation.wall_friction.y.balance"));
  CHECK(find("rotation.wall_friction.z.balance"));
  CHECK(claims.size() == 10);  // 2 + 2 controls + 1 order + flip + 2 in-plane + 2 friction balances (not rk4's)
}
