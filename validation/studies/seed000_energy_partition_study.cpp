// Seed000 §6, eqs. (48)–(49), Fig. 1: undamped (e_cn = 1) oblique impact θ = 30°, v_z = −1.5 m/s,
// K_n = 1e6 Pa, Δt = 2e-6 s (the paper's step, also in quick mode: ~600 steps per contact).
// Claims: max relative energy error of velocity Verlet 4.4e-6 at maximum penetration; "returns to near-zero
// at separation". The time series (translational / rotational kinetic energy, W, error) are the figure data.
// Extra row: velocity_verlet_event, whose energy error does return to ≈ 0 after the contact.
#include "studies/seed000_energy_partition_study.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "io/atomic_file.h"
#include "report/figure_spec.h"
#include "studies/seed000_common.h"

namespace impactlab {

using namespace seed000;

StudyResult Seed000EnergyPartitionStudy::Run(const StudyContext& ctx) const {
  StudyResult result;
  std::ostringstream table;
  table << "Undamped ECC-I impact, (a,b,c) = (1,0.6,0.6) m, m = 1 kg, θ = 30°, v_z = −1.5 m/s, K_n = 1e6 Pa, "
           "Δt = 2e-6 s for every integrator (CVODE: output step, rtol 1e-10).\n\n"
           "| integrator | max |ΔE|/E0 | t(max err) [s] | t(δ_max) [s] | |ΔE|/E0 last in-contact step | "
           "|ΔE|/E0 after separation | e_cn | wall [s] |\n|---|---|---|---|---|---|---|---|\n";
  std::ostringstream csv;
  csv << "integrator,energy_error_max,t_error_max,t_delta_max,error_last_in_contact,error_after,e_cn\n";
  FigureSpec partition{"energy_partition", "Seed000 Fig. 1a: energy partition (velocity Verlet)", "t [s]",
                       "energy [J]", false, false, {}};
  FigureSpec error{"energy_error", "Seed000 Fig. 1b: relative energy error, dt = 2e-6 s", "t [s]", "|E - E0| / E0",
                   false, true, {}};
  // velocity_verlet_event (integrators/event_split_velocity_verlet.h) as an extra row: the same Verlet update,
  // split at the located contact exit.
  std::vector<std::string> integrators = StudyIntegrators();
  integrators.push_back("velocity_verlet_event");
  for (const auto& integrator : integrators) {
    ctx.progress("energy partition: " + integrator);
    EllipsoidCase c;
    c.theta_deg = 30.0;
    c.K_n = 1e6;
    c.e_cn = 1.0;
    c.dt = 2e-6;
    c.integrator = integrator;
    c.out_dir = (ctx.out_dir / "series").string();
    const auto run = RunEllipsoid(c);
    const auto cols = ReadCsvColumns(ctx.out_dir / "series" / (integrator + ".csv"));
    const auto& t = cols.at("t_s");
    const auto& res = cols.at("balance_residual_rel");
    const auto& delta = cols.at("delta_m");
    size_t i_err = 0, i_delta = 0, i_last = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      if (std::abs(res[i]) > std::abs(res[i_err])) i_err = i;
      if (delta[i] > delta[i_delta]) i_delta = i;
      if (delta[i] > 0.0) i_last = i;
    }
    const double err_max = run["energy_error_max"].get<double>();
    const double err_last = std::abs(res[i_last]);
    const double err_after = std::abs(res.back());
    const double e_cn = run["e_cn"].get<double>();
    table << "| " << integrator << " | " << Sci(err_max) << " | " << Fixed(t[i_err], 6) << " | " << Fixed(t[i_delta], 6)
          << " | " << Sci(err_last) << " | " << Sci(err_after) << " | " << Fixed(e_cn, 6) << " | "
          << Sci(run["wall_time_s"].get<double>(), 2) << " |\n";
    csv << integrator << ',' << err_max << ',' << t[i_err] << ',' << t[i_delta] << ',' << err_last << ',' << err_after
        << ',' << e_cn << '\n';
    error.series.push_back({"series/" + integrator + ".csv", "t_s", "abs:balance_residual_rel", integrator, "-"});
    if (integrator == "velocity_verlet") {
      partition.series = {{"series/velocity_verlet.csv", "t_s", "E_kin_trans_J", "translational kinetic", "-"},
                          {"series/velocity_verlet.csv", "t_s", "E_kin_rot_J", "rotational kinetic", "-"},
                          {"series/velocity_verlet.csv", "t_s", "W_J", "contact energy K_n V_c", "-"},
                          {"series/velocity_verlet.csv", "t_s", "energy_J", "total", "--"}};
      result.claims.push_back(MakeClaim(
          "seed000.fig1.verlet_max_energy_error", "velocity Verlet max relative energy error (2 digits)",
          "Seed000 §6 Fig. 1b", 4.4e-6, err_max, 0.05e-6, false));
      result.claims.push_back(MakeClaim(
          "seed000.fig1.error_peak_at_max_penetration",
          "the max energy error occurs at maximum penetration: |t(max err) − t(δ_max)| [s] ≤ 2 Δt",
          "Seed000 §6 Fig. 1b", std::nullopt, std::abs(t[i_err] - t[i_delta]), 4e-6, false));
      result.claims.push_back(MakeClaim(
          "seed000.fig1.error_near_zero_at_separation",
          "energy error at the last in-contact step ≤ 10 % of the peak (\"returns to near-zero at separation\")",
          "Seed000 §6 Fig. 1b", std::nullopt, err_last, 0.1 * err_max, false));
      result.claims.push_back(MakeClaim(
          "seed000.fig1.error_near_zero_after_contact",
          "energy error in free flight after the contact ≤ 10 % of the peak", "Seed000 §6 Fig. 1b", std::nullopt,
          err_after, 0.1 * err_max, false));
    }
    if (integrator == "velocity_verlet_event") {
      result.claims.push_back(MakeClaim(
          "seed000.fig1.event_verlet_error_near_zero_after_contact",
          "velocity_verlet_event (exit located inside the step): energy error in free flight after the contact "
          "≤ 1 % of the peak (\"returns to ≈ 0\" with event-located exit; measured ≈ 0.1 %)",
          "docs/theory.md §12.3; docs/event-splitting.md", std::nullopt, err_after, 0.01 * err_max, false));
    }
  }
  WriteFileAtomically(ctx.out_dir / "energy_partition.csv", csv.str());
  WriteFigureSpec(ctx.out_dir, partition);
  WriteFigureSpec(ctx.out_dir, error);
  result.figures = {"energy_partition.png", "energy_error.png"};
  result.tables_markdown.push_back(table.str());
  result.narrative =
      "The Verlet energy error oscillates with the contact (modified-energy oscillation, O(Δt²)) and peaks at "
      "maximum penetration, as in the paper. It is back to ~1e-9 at the last step before separation; the crossing "
      "step itself leaves a permanent error of the size of the peak because the force has a kink at δ = 0 and the "
      "driver's Verlet does not locate the exit inside the step (docs/theory.md §12.3).";
  return result;
}

}  // namespace impactlab
