// Seed000 §6 Table 2 / Fig. 3: θ = 30°, K_n = 1e3 Pa, target e_cn = 0.5, adaptive damping.
// Claims: m_n*(t₀) = 0.648 m (eq. 14); e_cn within 1 % of 0.5; e_E within 0.4 % of the impulsive 0.7169.
// Also the two fixed-mass baselines (η from m, and from m_n*(t₀)), and the Fig. 3 time series
// (energies, breathing mass m_n*(t), v_cn(t), k_eff(t)).
#include "studies/seed000_table2_oblique_study.h"

#include <cmath>
#include <sstream>

#include "io/atomic_file.h"
#include "report/figure_spec.h"
#include "studies/seed000_common.h"

namespace impactlab {

using namespace seed000;

StudyResult Seed000Table2ObliqueStudy::Run(const StudyContext& ctx) const {
  StudyResult result;
  const double steps = ctx.quick ? 1000 : 4000;
  constexpr double kImpulsive = 0.7169;  // docs/theory.md §10 row 4 [V]
  std::ostringstream table;
  table << "θ = 30°, (a,b,c) = (1,0.6,0.6) m, K_n = 1e3 Pa, v_z = −1.5 m/s, target e_cn = 0.5, " << steps
        << " steps per estimated contact time. Paper: e_cn within 1 %, e_E within 0.4 % of impulsive 0.7169.\n\n"
           "| integrator | damping | m_n*(t₀)/m | m_n*(exit)/m | e_cn | e_cn error | e_E | e_E impulsive | "
           "e_E vs impulsive | δ_max/ρ_G | v_z⁺ [m/s] | ω_y⁺ [rad/s] | max |E+D−E0|/E0 |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  std::ostringstream csv;
  csv << "integrator,damping,m_n_star_initial,m_n_star_exit,e_cn,e_E,e_E_impulsive,delta_max_over_rho,v_z_after,"
         "omega_y_after,energy_balance_residual_max\n";
  csv.precision(12);
  for (const auto& integrator : StudyIntegrators()) {
    for (const std::string damping : {"adaptive", "fixed_reduced_mass", "fixed_initial_mass"}) {
      if (ctx.quick && damping != "adaptive" && integrator != "velocity_verlet") continue;
      ctx.progress("table 2: " + integrator + " " + damping);
      EllipsoidCase c;
      c.theta_deg = 30.0;
      c.K_n = 1e3;
      c.e_cn = 0.5;
      c.damping = damping;
      c.integrator = integrator;
      c.steps_per_contact = steps;
      if (damping == "adaptive") c.out_dir = (ctx.out_dir / "series").string();
      const auto run = RunEllipsoid(c);
      const double m0 = run["m_n_star_initial"], m1 = run["m_n_star_exit"], e_cn = run["e_cn"], e_E = run["e_E"];
      const double e_imp = run["e_E_impulsive"], dr = run["delta_max_over_rho"], vz = run["v_z_after"];
      const double wy = run["omega_y_after"], bal = run["energy_balance_residual_max"];
      table << "| " << integrator << " | " << damping << " | " << Fixed(m0, 4) << " | " << Fixed(m1, 4) << " | "
            << Fixed(e_cn, 4) << " | " << Fixed(100 * RelativeError(e_cn, 0.5), 2) << " % | " << Fixed(e_E, 4)
            << " | " << Fixed(e_imp, 4) << " | " << Fixed(100 * RelativeError(e_E, kImpulsive), 2) << " % | "
            << Fixed(100 * dr, 2) << " % | " << Fixed(vz, 4) << " | " << Fixed(wy, 4) << " | " << Sci(bal, 2)
            << " |\n";
      csv << integrator << ',' << damping << ',' << m0 << ',' << m1 << ',' << e_cn << ',' << e_E << ',' << e_imp
          << ',' << dr << ',' << vz << ',' << wy << ',' << bal << '\n';
      if (damping != "adaptive") continue;
      const std::string id = "seed000.table2." + integrator;
      if (integrator == "velocity_verlet")
        result.claims.push_back(MakeClaim("seed000.eq14.m_n_star_initial", "m_n*(t₀)/m at θ = 30°, a/b = 1.67 (3 digits)",
                                             "Seed000 eq. 14, §6", 0.648, m0, 0.0005, false));
      result.claims.push_back(MakeClaim(id + ".e_cn_within_1pct", "e_cn within 1 % of the target 0.5, " + integrator,
                                           "Seed000 §6 Table 2", 0.5, e_cn, 0.01, true));
      result.claims.push_back(MakeClaim(
          id + ".e_E_within_0.4pct_of_impulsive",
          "e_E within 0.4 % of the impulsive 0.7169 (one significant digit: < 0.45 %), " + integrator,
          "Seed000 §6 Table 2", kImpulsive, e_E, 0.0045, true));
    }
  }
  WriteFileAtomically(ctx.out_dir / "table2.csv", csv.str());
  result.tables_markdown.push_back(table.str());
  const std::string vv = "series/velocity_verlet.csv";
  WriteFigureSpec(ctx.out_dir, {"fig3a_energy", "Seed000 Fig. 3a: energies, theta = 30 deg, e_cn = 0.5", "t [s]",
                                "energy [J]", false, false,
                                {{vv, "t_s", "E_kin_trans_J", "translational", "-"},
                                 {vv, "t_s", "E_kin_rot_J", "rotational", "-"},
                                 {vv, "t_s", "W_J", "K_n V_c", "-"},
                                 {vv, "t_s", "dissipated_J", "dissipated", "--"},
                                 {vv, "t_s", "energy_J", "K + W", "-"}}});
  WriteFigureSpec(ctx.out_dir, {"fig3b_breathing_mass", "Seed000 Fig. 3b: breathing mass m_n*(t)", "t [s]",
                                "m_n* [kg]", false, false, {{vv, "t_s", "m_n_star_kg", "m_n*", "-"}}});
  WriteFigureSpec(ctx.out_dir, {"fig3c_v_cn", "Seed000 Fig. 3c: contact-point normal velocity", "t [s]",
                                "v_cn [m/s]", false, false, {{vv, "t_s", "v_cn_m_s", "v_cn", "-"}}});
  WriteFigureSpec(ctx.out_dir, {"fig3d_k_eff", "Seed000 Fig. 3d: effective stiffness k_eff(t)", "t [s]",
                                "k_eff [N/m]", false, false, {{vv, "t_s", "k_eff_N_m", "k_eff", "-"}}});
  result.figures = {"fig3a_energy.png", "fig3b_breathing_mass.png", "fig3c_v_cn.png", "fig3d_k_eff.png"};
  result.narrative =
      "m_n* starts at its lower bound 0.648 m and rises during the contact (the lever to the section centroid "
      "shrinks and the body rotates). The adaptive law is then an approximation (docs/theory.md §12.10): e_cn lands "
      "≈1.4 % below the target, outside the paper's 1 % band (a documented known deviation, identical for all "
      "integrators, so not a time-integration error). "
      "The fixed-mass baselines are listed for comparison (no published values).";
  return result;
}

}  // namespace impactlab
