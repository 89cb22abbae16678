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
  r.compliant_k = {1e4, 1e6, 1e8};
  r.compliant_apex_errors = {-9.4e-3, -8.6e-4, -9.5e-5};
  r.compliant_apex_exponent = -0.499;
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
  // (c) one law; rows in gross sliding, rigid sticking with compliant reversal, near-normal incidence.
  r.compliant_laws = {"mindlin_integral"};
  auto row = [&](double psi, double et_rigid, double beta_rigid, double et_c, double beta_c) {
    NonsmoothPeersResults::ObliqueRow o;
    o.psi = psi;
    o.et_rigid = o.et_mj = et_rigid;
    o.beta_rigid = o.beta_mj = beta_rigid;
    o.en_mj = r.oblique_e;
    o.et_compliant = {et_c};
    o.beta_compliant = {beta_c};
    r.oblique.push_back(o);
  };
  row(0.5, 0.857, -0.5, 0.857, -0.5 + 1e-9);
  row(2.0, 5.0 / 7.0, 0.0, 0.62, 0.31);
  row(24.0, 5.0 / 7.0, 0.0, 0.987, -0.95);
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
  // ED ratio, count, times, MJ order, MJ cradle, VV momentum; oblique: MJ e_t, β, e_n; per law sliding, reversal,
  // near-normal e_t
  CHECK(good.size() == 1u + 1u + 1u + 1u + 1u + (1u + 3u) + 1u + 3u + 3u);  // + compliant apex exponent
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
  r = Good();
  r.compliant_apex_exponent = -0.65;
  CHECK_FALSE(Find(NonsmoothPeersClaims(r), "nonsmooth.compliant.apex_exponent").pass);
  r = Good();
  r.oblique[1].beta_mj = 1e-9;
  CHECK_FALSE(Find(NonsmoothPeersClaims(r), "nonsmooth.oblique.mj_beta").pass);
  r = Good();
  r.oblique[0].et_mj += 1e-9;
  CHECK_FALSE(Find(NonsmoothPeersClaims(r), "nonsmooth.oblique.mj_et").pass);
  r = Good();
  r.oblique[2].en_mj = 0.99;
  CHECK_FALSE(Find(NonsmoothPeersClaims(r), "nonsmooth.oblique.mj_en").pass);
  r = Good();
  r.oblique[0].beta_compliant[0] = -0.5 + 2e-4;
  CHECK_FALSE(Find(NonsmoothPeersClaims(r), "nonsmooth.oblique.mindlin_integral.sliding_beta").pass);
  r = Good();
  r.oblique[1].beta_compliant[0] = 0.05;
  CHECK_FALSE(Find(NonsmoothPeersClaims(r), "nonsmooth.oblique.mindlin_integral.stick_reversal").pass);
  r = Good();
  r.oblique[2].et_compliant[0] = 0.75;
  CHECK_FALSE(Find(NonsmoothPeersClaims(r), "nonsmooth.oblique.mindlin_integral.near_normal_et").pass);
}
