// Compliant vs nonsmooth (docs/nonsmooth-peers.md; issue 21): the same problems through Siconos' rigid-contact
// schemes and impactlab's compliant ones.
//  - ball on a floor under gravity (contact_oscillator with g, e = 0.8): event-driven impact ratios and times
//    against the closed form (free flight, ẏ⁺ = −e ẏ⁻) [Acary & Brogliato 2008 ch. 8]; Moreau–Jean apex heights,
//    their first-order convergence measured over a ladder of steps [Moreau 1988; Jean 1999];
//  - Newton's cradle, 3 and 5 touching beads at e = 1 (hertz_chain's beads): final velocities and momentum of
//    Moreau–Jean, event-driven (the simultaneous-impact LCP: (1 − 2/N, 2/N, …) v₀ with the striker reversed,
//    (−1/3, 2/3, 2/3) for N = 3) and the Hertz chain with velocity Verlet and Simo–Tarnow (near (0, …, 0, 1)).
//  - (c) sphere–wall oblique impact with Coulomb friction (Thornton et al. 2013's sphere, e_n = 1, μ = 0.3, θ from
//    2° to 85° off the normal): e_t and β of Moreau–Jean with the Newton–Coulomb law (FC3D) against rigid-body theory
//    (Walton 1993 / Brach 1991: gross sliding β = −1 + ψ, ψ = 7/2 μ(1 + e)|cot θ| < 1, sticking β = 0, e_t = 5/7;
//    docs/nonsmooth-peers.md derives it) and against the compliant Hertz–Mindlin laws (mindlin_integral,
//    mindlin_deresiewicz) with velocity Verlet: equal in gross sliding (the tangential impulse is μ∫F_n dt there,
//    whatever the compliance), different where the contact sticks (tangential compliance: Maw, Barber & Fawcett
//    1981 — β > 0 reversal near ψ ≈ 1…4, β → −1 towards normal incidence).
// Built and registered only with Siconos. Split as compute (typed results) → claims (pure) → render.
#pragma once

#include <string>
#include <vector>

#include "report/study.h"

namespace impactlab {

struct NonsmoothPeersResults {
  double e = 0.8;
  // Event-driven ball: per impact |v⁺/v⁻ + e| and |t − t_exact|.
  std::vector<double> ed_ratio_errors, ed_time_errors;
  // Moreau–Jean ball: levels h and the mean (over 7 steps h·(1 … 1.42)) of the max apex error of 3 rebounds.
  std::vector<double> mj_steps, mj_apex_errors;
  double mj_apex_order = 0.0;
  // Compliant ball (velocity Verlet, linear spring k + linear viscous damper calibrated to e, dt = 1e-6 s): the first
  // apex error against the rigid closed form as k grows, and the fitted exponent of |error| ∝ k^p (t_c ∝ k^−½).
  std::vector<double> compliant_k, compliant_apex_errors;
  double compliant_apex_exponent = 0.0;
  struct CradleRun {
    int beads = 0;
    std::string integrator;
    std::vector<double> velocities;  ///< final, divided by v₀
    double momentum_drift = 0.0;     ///< |P(end) − P(0)| / |P(0)|
    double energy_change = 0.0;      ///< |E + D − E₀| / E₀ at the end
    std::vector<double> times;                    ///< sample times of the velocity history [s]
    std::vector<std::vector<double>> history;     ///< velocities / v₀ at each sample time
  };
  std::vector<CradleRun> cradles;
  // (c) oblique sphere–wall impact, one row per angle θ [deg from the normal].
  double oblique_mu = 0.3, oblique_e = 1.0;
  std::vector<std::string> compliant_laws;  ///< tangential laws of the compliant runs
  struct ObliqueRow {
    double theta_deg = 0.0, psi = 0.0;       ///< ψ = 7/2 μ (1 + e) |cot θ|
    double et_rigid = 0.0, beta_rigid = 0.0;  ///< Walton's closed form
    double et_mj = 0.0, beta_mj = 0.0, en_mj = 0.0;
    std::vector<double> et_compliant, beta_compliant;  ///< per law of compliant_laws (NaN if not separated)
  };
  std::vector<ObliqueRow> oblique;
};

NonsmoothPeersResults ComputeNonsmoothPeers(const StudyContext& context);
/// The claims, a pure function of the results.
std::vector<Claim> NonsmoothPeersClaims(const NonsmoothPeersResults& results);

class NonsmoothPeersStudy final : public Study {
 public:
  std::string name() const override { return "nonsmooth_peers"; }
  std::string title() const override { return "Compliant vs nonsmooth: Siconos Moreau-Jean and event-driven"; }
  std::string source() const override {
    return "Moreau 1988; Jean 1999; Acary & Brogliato 2008 ch. 8, §10.1; docs/nonsmooth-peers.md";
  }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
