// Seed000 §6.5 Table 3 / Fig. 4: stiffness sweep K_n = 1e1 … 1e4 Pa at θ = 30° (oblique) and θ = 0 (aligned),
// target e_cn = 0.5, adaptive damping. The error |e_cn − 0.5|/0.5 is governed by δ_max/ρ (ρ = ρ_G = abc/h²
// at first touch, docs/theory.md §2.1, §11.2). Claims (text of §6.5 and §7): δ_max/ρ < 2 % ⇒ error < 1 %;
// δ_max/ρ ≈ 5 % ⇒ error ≈ 7 %; aligned error < 0.3 % throughout. Table 3 itself is not in the seed.
#include "studies/seed000_table3_stiffness_study.h"

#include <cmath>
#include <sstream>

#include <algorithm>

#include "io/atomic_file.h"
#include "report/figure_spec.h"
#include "studies/seed000_common.h"

namespace impactlab {

using namespace seed000;

StudyResult Seed000Table3StiffnessStudy::Run(const StudyContext& ctx) const {
  StudyResult result;
  const double steps = ctx.quick ? 1000 : 4000;
  const std::vector<double> stiffness = ctx.quick ? std::vector<double>{1e1, 1e2, 1e3, 1e4}
                                                  : std::vector<double>{1e1, 2e1, 5e1, 1e2, 2e2, 5e2, 1e3, 3e3, 1e4};
  ResumableTable store(ctx.out_dir / (ctx.quick ? "table3_quick.csv" : "table3.csv"),
                       {"key", "theta_deg", "K_n", "e_cn", "e_E", "delta_max_over_rho", "error"});
  std::ostringstream table;
  table << "Target e_cn = 0.5, (a,b,c) = (1,0.6,0.6) m, v_z = −1.5 m/s, " << steps
        << " steps per estimated contact time; error = |e_cn − 0.5|/0.5.\n\n"
           "| integrator | θ [deg] | K_n [Pa] | δ_max/ρ_G | e_cn | error | e_E |\n|---|---|---|---|---|---|---|\n";
  std::ostringstream fig_csv;
  fig_csv << "integrator,theta_deg,K_n,delta_max_over_rho,e_cn,error_pct\n";
  for (const auto& integrator : StudyIntegrators()) {
    double worst_small = 0.0, worst_aligned = 0.0;
    std::vector<std::pair<double, double>> oblique;  // (δ/ρ, error)
    for (double theta : {30.0, 0.0}) {
      for (double K : stiffness) {
        EllipsoidCase c;
        c.theta_deg = theta;
        c.K_n = K;
        c.e_cn = 0.5;
        c.integrator = integrator;
        c.steps_per_contact = steps;
        if (!store.Has(c.Key())) {
          ctx.progress("table 3: " + integrator + " theta " + Fixed(theta, 0) + " K_n " + Sci(K, 2));
          const auto run = RunEllipsoid(c);
          const double e = run["e_cn"];
          store.Put(c.Key(), {theta, K, e, run["e_E"].get<double>(), run["delta_max_over_rho"].get<double>(),
                              RelativeError(e, 0.5)});
        }
        const auto& v = store.Get(c.Key());
        table << "| " << integrator << " | " << Fixed(theta, 0) << " | " << Sci(K, 2) << " | " << Fixed(100 * v[4], 2)
              << " % | " << Fixed(v[2], 4) << " | " << Fixed(100 * v[5], 2) << " % | " << Fixed(v[3], 4) << " |\n";
        fig_csv << integrator << ',' << theta << ',' << K << ',' << v[4] << ',' << v[2] << ',' << 100 * v[5] << '\n';
        if (theta == 0.0) worst_aligned = std::max(worst_aligned, v[5]);
        if (theta == 30.0) {
          oblique.push_back({v[4], v[5]});
          if (v[4] < 0.02) worst_small = std::max(worst_small, v[5]);
        }
      }
    }
    // error at δ_max/ρ = 5 %: log–log interpolation between the bracketing oblique runs
    double err5 = std::nan("");
    std::sort(oblique.begin(), oblique.end());
    for (size_t i = 0; i + 1 < oblique.size(); ++i)
      if (oblique[i].first <= 0.05 && oblique[i + 1].first >= 0.05) {
        const double s = std::log(0.05 / oblique[i].first) / std::log(oblique[i + 1].first / oblique[i].first);
        err5 = std::exp(std::log(oblique[i].second) + s * std::log(oblique[i + 1].second / oblique[i].second));
      }
    const std::string id = "seed000.table3." + integrator;
    result.claims.push_back(MakeClaim(
        id + ".small_penetration", "oblique: max e_cn error over runs with δ_max/ρ < 2 % is < 1 %, " + integrator,
        "Seed000 §6.5, §7", std::nullopt, worst_small, 0.01, false));
    result.claims.push_back(MakeClaim(id + ".five_percent_penetration",
                                         "oblique: error at δ_max/ρ = 5 % (interpolated) ≈ 7 % (1 digit), " + integrator,
                                         "Seed000 §7", 0.07, err5, 0.005, false));
    result.claims.push_back(MakeClaim(id + ".aligned_below_0.3pct",
                                         "aligned (θ = 0): max e_cn error over all K_n < 0.3 %, " + integrator,
                                         "Seed000 §6.5", std::nullopt, worst_aligned, 0.003, false));
  }
  WriteFileAtomically(ctx.out_dir / "fig4.csv", fig_csv.str());
  result.tables_markdown.push_back(table.str());
  result.narrative =
      "The aligned case is exact for every stiffness (the residual is integration error). In the oblique case "
      "the error grows smoothly with δ_max/ρ_G, which is the single governing parameter; see docs/ellipsoid-wall.md "
      "for the comparison with the paper's thresholds.";
  return result;
}

}  // namespace impactlab
