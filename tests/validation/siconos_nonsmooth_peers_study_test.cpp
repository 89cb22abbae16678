// Claims of the nonsmooth_peers study (validation/studies/nonsmooth_peers_study.h) on hand-made results: a pure
// function, so each claim can be made to pass and to fail without a simulation.
#include <doctest/doctest.h>

#include <string>

#include "studies/nonsmooth_peers_study.h"

using namespace impactlab;

namespace {

NonsmoothPeersResults Good() {
  NonsmoothPeersResults r;
  r.ed_ratio_errors = {1e-16, 0.0, 0.0};
  r.ed_time_errors = {2e-14, 1e-11, 7e-11};
  r.mj_apex_order = 1.05;
  NonsmoothPeersResults::CradleRun mj;
  mj.beads = 3;
  mj.integrator = "siconos_moreau_jean";
  mj.velocities = {-1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0};
  r.cradles.push_back(mj);
  NonsmoothPeersResults::CradleRun vv;
  vv.beads = 3;
  vv.integrator = "velocity_verlet";
  vv.velocities = {-0.07, 0.076, 0.9945};
  vv.momentum_drift = 2e-15;
  r.cradles.push_back(vv);
  return r;
}

const Claim& Find(const std::vector<Claim>& claims, const std::string& id) {
  for (const auto& c : claims)
    if (c.id == id) return c;
  FAIL("no claim " << id);
  return claims.front();
}

}  // namespace

TEST_CASE("nonsmooth_peers claims: pass on the expected results, fail on each perturbed one") {
  const auto good = NonsmoothPeersClaims(Good());
  for (const auto& c : good) {
    INFO(c.id);
    CHECK(c.pass);
  }
  CHECK(good.size() == 1u + 1u + 1u + 1u + (1u + 3u) + 1u);  // ED ratio, count, times, MJ order, MJ cradle, VV momentum
  NonsmoothPeersResults r = Good();
  r.ed_ratio_errors[1] = 1e-11;
  CHECK_FALSE(Find(NonsmoothPeersClaims(r), "nonsmooth.ed.ball_ratio").pass);
  r = Good();
  r.ed_ratio_errors.pop_back();
  CHECK_FALSE(Find(NonsmoothPeersClaims(r), "nonsmooth.ed.ball_impacts").pass);
  r = Good();
  r.mj_apex_order = 1.5;
  CHECK_FALSE(Find(NonsmoothPeersClaims(r), "nonsmooth.mj.apex_order").pass);
  r = Good();
  r.cradles[0].velocities[2] = 2.0 / 3.0 + 1e-8;
  CHECK_FALSE(Find(NonsmoothPeersClaims(r), "nonsmooth.cradle3.siconos_moreau_jean.v2").pass);
  r = Good();
  r.cradles[1].momentum_drift = 1e-10;
  CHECK_FALSE(Find(NonsmoothPeersClaims(r), "nonsmooth.cradle3.velocity_verlet.momentum").pass);
}
