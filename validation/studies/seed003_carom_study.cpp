#include "studies/seed003_carom_study.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "integrators/efda.h"
#include "io/atomic_file.h"
#include "metrics/carom_comparison.h"
#include "models/ellipse_box.h"
#include "models/ellipses_multi.h"
#include "observe/energy_ledger.h"
#include "registry/registries.h"
#include "report/figure_spec.h"

namespace impactlab {

namespace {

// Records (t, x, y, θ, v_x, v_y, ω, E) of body 0 every `every` steps.
class Sampler final : public StepObserver {
 public:
  explicit Sampler(long every) : every_(every) {}
  void OnStart(const MechanicalSystem& system, const MechanicalState& s) override { Record(system, s); }
  void OnStep(const MechanicalSystem& system, const MechanicalState& s) override {
    if (++count_ % every_ == 0) Record(system, s);
  }
  const std::string& csv() const { return csv_; }

 private:
  void Record(const MechanicalSystem& system, const MechanicalState& s) {
    std::ostringstream os;
    os << std::setprecision(10) << s.t << ',' << s.q[0] << ',' << s.q[1] << ',' << s.q[2] << ',' << s.v[0] << ','
       << s.v[1] << ',' << s.v[2] << ',' << system.TotalEnergy(s) << '\n';
    csv_ += os.str();
  }
  long every_, count_ = 0;
  std::string csv_ = "t_s,x_m,y_m,theta_rad,vx_mps,vy_mps,omega_radps,energy_J\n";
};

// Sums EFDA's per-step energy report (slip work, releases) over a run.
class EfdaReportSum final : public StepObserver {
 public:
  explicit EfdaReportSum(const Efda* efda) : efda_(efda) {}
  void OnStep(const MechanicalSystem&, const MechanicalState&) override {
    if (efda_ == nullptr) return;
    const EfdaStepReport& r = efda_->last_step();
    slip += r.slip_work;
    release += r.release_energy;
    release_max = std::max(release_max, r.release_energy);
    slip_steps += r.slipping_contacts > 0;
    stick_steps += r.sticking_contacts > 0;
  }
  double slip = 0.0, release = 0.0, release_max = 0.0;
  long slip_steps = 0, stick_steps = 0;

 private:
  const Efda* efda_;
};

double ContactOmega(const EllipseBoxParameters& p, double first_impact_mass_ratio) {
  return std::sqrt(p.penalty.normal_stiffness / (p.mass * first_impact_mass_ratio));
}

std::string Fmt(double v, int prec = 6) {
  std::ostringstream os;
  os << std::setprecision(prec) << v;
  return os.str();
}

}  // namespace

namespace {

constexpr int kImpacts = 10;  ///< impacts compared with the rigid reference

/// What the carom study's sections share: the rigid reference and its setup.
struct CaromSetup {
  EllipseBoxParameters bp;
  RigidImpactSequence ref;
  RigidBodyState2D rigid0;
  std::vector<RigidImpactRecord> ref_impacts;
  double t_end;
  double dt;
};


/// Markdown table of EFDA's first impacts against the rigid reference (CompareCarom's JSON).
std::string EfdaImpactTable(const nlohmann::json& efda_carom) {
  std::ostringstream impact_table;
  impact_table << "First " << kImpacts << " impacts, EFDA (K_N = K_T = 1e6 N/m, dt = 2e-5 s) vs the rigid Routh "
               << "reference (e = 1, Stronge). Local = Routh applied to EFDA's own pre-impact state.\n\n"
               << "| # | wall (ref) | t EFDA [s] | t ref [s] | v+ EFDA [m/s] | v+ ref [m/s] | w+ EFDA | w+ ref | local dv | local dw |\n"
               << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& j : efda_carom["impacts"]) {
    impact_table << "| " << j["index"] << " | " << j["wall"];
    if (j.contains("reference")) impact_table << " (" << j["reference"]["wall"] << ")";
    impact_table << " | " << Fmt(j["t_start"].get<double>()) << " | "
                 << (j.contains("reference") ? Fmt(j["reference"]["t"].get<double>()) : "-") << " | ("
                 << Fmt(j["v_plus"][0].get<double>(), 5) << ", " << Fmt(j["v_plus"][1].get<double>(), 5) << ") | ";
    if (j.contains("reference"))
      impact_table << "(" << Fmt(j["reference"]["v_plus"][0].get<double>(), 5) << ", "
                   << Fmt(j["reference"]["v_plus"][1].get<double>(), 5) << ")";
    impact_table << " | " << Fmt(j["omega_plus"].get<double>(), 5) << " | "
                 << (j.contains("reference") ? Fmt(j["reference"]["omega_plus"].get<double>(), 5) : "-") << " | "
                 << (j["local_routh"].contains("velocity_error") ? Fmt(j["local_routh"]["velocity_error"].get<double>(), 3) : "-")
                 << " | "
                 << (j["local_routh"].contains("omega_error") ? Fmt(j["local_routh"]["omega_error"].get<double>(), 3) : "-")
                 << " |\n";
  }
  return impact_table.str();
}

// 1. Carom with three integrators + the rigid reference.
void CaromWithThreeIntegrators(const StudyContext& ctx, const CaromSetup& setup, CaromResults& res, StudyResult& result) {
  const EllipseBoxParameters& bp = setup.bp;
  const RigidImpactSequence& ref = setup.ref;
  const RigidBodyState2D& rigid0 = setup.rigid0;
  const std::vector<RigidImpactRecord>& ref_impacts = setup.ref_impacts;
  const double& t_end = setup.t_end;
  const double& dt = setup.dt;
  const std::vector<std::string> integrators = {"efda", "velocity_verlet", "cvode_bdf"};
  FigureSpec traj{"carom_trajectory", "Carom: centre trajectory (Seed003 Fig. 1 top)", "x [m]", "y [m]", false, false, {}};
  FigureSpec vel{"carom_velocities", "Carom: linear velocities (Seed003 Fig. 1 left)", "t [s]", "v [m/s]", false, false, {}};
  FigureSpec spin{"carom_spin", "Carom: angular velocity (Seed003 Fig. 1 right)", "t [s]", "omega [rad/s]", false, false, {}};
  FigureSpec energy{"carom_energy", "Carom: total energy K + V (Seed003 Fig. 1 right)", "t [s]", "E [J]", false, false, {}};
  std::ostringstream impact_csv;
  impact_csv << "integrator,index,wall,t_start,vx_plus,vy_plus,omega_plus,ref_wall,ref_t,ref_vx,ref_vy,ref_omega,"
                "local_velocity_error,local_omega_error\n";
  nlohmann::json efda_carom;
  std::string summary_rows;
  for (const auto& name : integrators) {
    ctx.progress("carom: " + name);
    PlanarEllipses system(MakeEllipseBoxConfig(bp));
    auto integrator = IntegratorRegistry().Get(name).make(ParameterSet{});
    EnergyLedger ledger;
    Sampler sampler(50);
    EfdaReportSum sums(dynamic_cast<const Efda*>(integrator.get()));
    SimulationOptions o;
    o.t_end = t_end;
    o.dt = dt;
    const SimulationRecord rec = Simulate(system, *integrator, system.InitialState(), o, {&ledger, &sampler, &sums});
    WriteFileAtomically(ctx.out_dir / ("carom_" + name + ".csv"), sampler.csv());
    const nlohmann::json cmp = CompareCarom(ExtractImpacts(rec.events), ref, ref_impacts, kImpacts);
    if (name == "efda") {
      res.efda_balance = ledger.balance_residual_max();
      result.narrative += "Carom, EFDA: total slip work " + Fmt(sums.slip) + " J (" + std::to_string(sums.slip_steps) +
                          " steps with slip, " + std::to_string(sums.stick_steps) + " with stick), springs released at "
                          "contact opening " + Fmt(sums.release) + " J in total (max " + Fmt(sums.release_max) +
                          " J per step), dissipated D = " + Fmt(rec.final_state.dissipated) + " J, E0 = " +
                          Fmt(ledger.initial_energy()) + " J.\n\n";
      efda_carom = cmp;
      if (!cmp["impacts"].empty() && cmp["impacts"][0]["local_routh"].contains("velocity_error"))
        res.efda_first_local = cmp["impacts"][0]["local_routh"]["velocity_error"].get<double>();
    }
    for (const auto& j : cmp["impacts"]) {
      impact_csv << name << ',' << j["index"] << ',' << j["wall"] << ',' << std::setprecision(10) << j["t_start"].get<double>()
                 << ',' << j["v_plus"][0].get<double>() << ',' << j["v_plus"][1].get<double>() << ','
                 << j["omega_plus"].get<double>();
      if (j.contains("reference"))
        impact_csv << ',' << j["reference"]["wall"] << ',' << j["reference"]["t"].get<double>() << ','
                   << j["reference"]["v_plus"][0].get<double>() << ',' << j["reference"]["v_plus"][1].get<double>() << ','
                   << j["reference"]["omega_plus"].get<double>();
      else
        impact_csv << ",,,,,";
      if (j["local_routh"].contains("velocity_error"))
        impact_csv << ',' << j["local_routh"]["velocity_error"].get<double>() << ','
                   << j["local_routh"]["omega_error"].get<double>() << '\n';
      else
        impact_csv << ",,\n";
    }
    const std::string csv = "carom_" + name + ".csv";
    traj.series.push_back({csv, "x_m", "y_m", name, "-"});
    vel.series.push_back({csv, "t_s", "vx_mps", name + " v_x", "-"});
    vel.series.push_back({csv, "t_s", "vy_mps", name + " v_y", "-"});
    spin.series.push_back({csv, "t_s", "omega_radps", name, "-"});
    {
      std::ostringstream row;
      row << "| " << name << " | " << cmp["impacts_measured"].get<size_t>() << " | "
          << Fmt(ledger.balance_residual_max(), 3) << " | ";
      if (!cmp["impacts"].empty() && cmp["impacts"][0]["local_routh"].contains("velocity_error"))
        row << Fmt(cmp["impacts"][0]["local_routh"]["velocity_error"].get<double>(), 3) << " | "
            << Fmt(cmp["impacts"][0]["local_routh"]["omega_error"].get<double>(), 3);
      else
        row << "- | -";
      row << " | " << Fmt(cmp["global_time_error_max"].get<double>(), 3) << " | " << Fmt(rec.wall_time_s, 3) << " |\n";
      summary_rows += row.str();
    }
    energy.series.push_back({csv, "t_s", "energy_J", name, "-"});
  }
  // Rigid reference sampled on the same grid.
  {
    std::ostringstream os;
    os << "t_s,x_m,y_m,theta_rad,vx_mps,vy_mps,omega_radps,energy_J\n" << std::setprecision(10);
    const Ellipse body{bp.semi_axis_a, bp.semi_axis_b, bp.mass};
    for (double t = 0.0; t <= t_end; t += 1e-3) {
      const RigidBodyState2D s = ref.StateAt(rigid0, ref_impacts, t);
      os << t << ',' << s.x.x() << ',' << s.x.y() << ',' << s.theta << ',' << s.v.x() << ',' << s.v.y() << ','
         << s.omega << ',' << 0.5 * body.mass * s.v.squaredNorm() + 0.5 * body.inertia() * s.omega * s.omega << '\n';
    }
    WriteFileAtomically(ctx.out_dir / "carom_reference.csv", os.str());
    traj.series.push_back({"carom_reference.csv", "x_m", "y_m", "rigid reference (Routh)", "--"});
    vel.series.push_back({"carom_reference.csv", "t_s", "vx_mps", "reference v_x", "--"});
    vel.series.push_back({"carom_reference.csv", "t_s", "vy_mps", "reference v_y", "--"});
    spin.series.push_back({"carom_reference.csv", "t_s", "omega_radps", "reference", "--"});
    energy.series.push_back({"carom_reference.csv", "t_s", "energy_J", "reference", "--"});
  }
  result.tables_markdown.push_back(
      "Carom, same penalty law for every integrator (K_N = K_T = 1e6 N/m, dt = 2e-5 s, t_end = " + Fmt(t_end, 4) +
      " s). D of velocity_verlet and cvode_bdf integrates the model's dissipation-power estimate (docs/efda.md §5); "
      "cvode_bdf's tangential spring is updated once per dt.\n\n"
      "| integrator | impacts | max abs(E + D - E0)/E0 | 1st impact local dv [m/s] | 1st impact local dw [rad/s] | "
      "max abs(t - t_ref) over 10 impacts [s] | wall [s] |\n|---|---|---|---|---|---|---|\n" + summary_rows);
  for (const auto* f : {&traj, &vel, &spin, &energy}) {
    WriteFigureSpec(ctx.out_dir, *f);
    result.figures.push_back(f->name + ".png");
  }
  result.key_figures.push_back(traj.name + ".png");
  WriteFileAtomically(ctx.out_dir / "carom_impacts.csv", impact_csv.str());
  result.tables_markdown.push_back(EfdaImpactTable(efda_carom));
}

// 2. First impact vs K_N.
void FirstImpactVsStiffness(const StudyContext& ctx, const CaromSetup& setup, CaromResults& res, StudyResult& result) {
  const EllipseBoxParameters& bp = setup.bp;
  const std::vector<RigidImpactRecord>& ref_impacts = setup.ref_impacts;
  std::vector<double> stiffness = {1e4, 1e5, 1e6};
  if (!ctx.quick) stiffness.push_back(1e7);
  std::ostringstream kn_csv, kn_table;
  kn_csv << "K_N,dt,vx_plus,vy_plus,omega_plus,velocity_error,omega_error\n";
  kn_table << "EFDA first floor impact vs the rigid reference (docs/theory.md §8: v+ = (0.90622, -0.04999), w+ = -11.721), "
           << "K_T = K_N, omega_N dt = 0.028 fixed.\n\n| K_N [N/m] | dt [s] | v+ [m/s] | w+ [rad/s] | norm(dv) [m/s] | abs(dw) [rad/s] |\n|---|---|---|---|---|---|\n";
  const RouthImpactResult first = ref_impacts.front().impact;
  res.first = first;
  std::vector<double> errors;
  for (double k : stiffness) {
    ctx.progress("first impact, K_N = " + Fmt(k));
    EllipseBoxParameters kp = bp;
    kp.penalty.normal_stiffness = kp.penalty.tangential_stiffness = k;
    const double h = 0.028 / ContactOmega(kp, 0.5253);
    PlanarEllipses system(MakeEllipseBoxConfig(kp));
    Efda efda;
    SimulationOptions o;
    o.t_end = ref_impacts.size() > 1 ? 0.5 * (ref_impacts[0].after.t + ref_impacts[1].before.t) : 0.2;
    o.dt = h;
    const SimulationRecord rec = Simulate(system, efda, system.InitialState(), o, {});
    const auto impacts = ExtractImpacts(rec.events);
    if (impacts.empty()) continue;
    const auto& m = impacts.front();
    const double ev = (Eigen::Vector2d(m.end.v[0], m.end.v[1]) - first.velocity).norm();
    const double ew = std::abs(m.end.v[2] - first.omega);
    errors.push_back(ev);
    kn_csv << k << ',' << h << ',' << std::setprecision(12) << m.end.v[0] << ',' << m.end.v[1] << ',' << m.end.v[2]
           << ',' << ev << ',' << ew << '\n';
    kn_table << "| " << Fmt(k) << " | " << Fmt(h, 3) << " | (" << Fmt(m.end.v[0]) << ", " << Fmt(m.end.v[1]) << ") | "
             << Fmt(m.end.v[2]) << " | " << Fmt(ev, 3) << " | " << Fmt(ew, 3) << " |\n";
  }
  WriteFileAtomically(ctx.out_dir / "kn_convergence.csv", kn_csv.str());
  result.tables_markdown.push_back(kn_table.str());
  FigureSpec knfig{"kn_convergence", "EFDA first impact: error vs rigid reference", "K_N [N/m]", "error", true, true, {}};
  knfig.series.push_back({"kn_convergence.csv", "K_N", "velocity_error", "norm(v+ - v+_rigid) [m/s]", "o-"});
  knfig.series.push_back({"kn_convergence.csv", "K_N", "omega_error", "abs(w+ - w+_rigid) [rad/s]", "s-"});
  WriteFigureSpec(ctx.out_dir, knfig);
  result.figures.push_back("kn_convergence.png");

  res.kn_errors = errors;
}

// 2b. Time-step convergence of EFDA through the first impact.
void TimeStepConvergence(const StudyContext& ctx, const CaromSetup& setup, CaromResults& res, StudyResult& result) {
  const EllipseBoxParameters& bp = setup.bp;
  // State at t = 0.2 s (after the first floor impact, before the second) vs a run at dt/32; observed order
  // from consecutive halvings. The penalty force has a kink at δ = 0, so second order is not guaranteed.
  ctx.progress("dt convergence through the first impact");
  const std::vector<double> dts = ctx.quick ? std::vector<double>{8e-5, 4e-5, 2e-5}
                                            : std::vector<double>{8e-5, 4e-5, 2e-5, 1e-5};
  auto run_to = [&](double h) {
    PlanarEllipses system(MakeEllipseBoxConfig(bp));
    Efda efda;
    MechanicalState st = system.InitialState();
    const long n = std::lround(0.2 / h);
    for (long i = 0; i < n; ++i)
      if (efda.Step(system, st, h).status != StepStatus::kAccepted) break;
    return st;
  };
  const MechanicalState fine = run_to(dts.back() / 32.0);
  std::ostringstream dcsv, dtab;
  dcsv << "dt,error_q,error_v\n";
  dtab << "EFDA carom state at t = 0.2 s (after the first impact) vs dt = " << Fmt(dts.back() / 32.0, 3)
       << " s (K_N = 1e6).\n\n| dt [s] | max abs(q - q_ref) | max abs(v - v_ref) | observed order (v) |\n|---|---|---|---|\n";
  double prev = 0.0;
  double last_order = 0.0;
  for (double h : dts) {
    const MechanicalState st = run_to(h);
    const double eq = (st.q - fine.q).cwiseAbs().maxCoeff(), ev = (st.v - fine.v).cwiseAbs().maxCoeff();
    const double order = prev > 0.0 ? std::log2(prev / ev) : std::nan("");
    if (prev > 0.0) last_order = order;
    prev = ev;
    dcsv << h << ',' << std::setprecision(10) << eq << ',' << ev << '\n';
    dtab << "| " << Fmt(h, 3) << " | " << Fmt(eq, 3) << " | " << Fmt(ev, 3) << " | "
         << (std::isnan(order) ? std::string("-") : Fmt(order, 3)) << " |\n";
  }
  WriteFileAtomically(ctx.out_dir / "dt_convergence.csv", dcsv.str());
  result.tables_markdown.push_back(dtab.str());
  FigureSpec dfig{"dt_convergence", "EFDA: error at t = 0.2 s vs time step", "dt [s]", "max error", true, true, {}};
  dfig.series.push_back({"dt_convergence.csv", "dt", "error_q", "positions [m, rad]", "o-"});
  dfig.series.push_back({"dt_convergence.csv", "dt", "error_v", "velocities [m/s, rad/s]", "s-"});
  WriteFigureSpec(ctx.out_dir, dfig);
  result.figures.push_back("dt_convergence.png");
  res.efda_observed_order = last_order;

}

// 2c. Slip-reversal impact vs K_T/K_N.
//
// Three comparisons of the same EFDA impact with Routh's rigid impact from EFDA's own pre-impact state:
//   raw:               |v⁺ − v⁺_Routh| (the claim seed003.efda.reversal_impact.local_error);
//   gravity-corrected: |v⁺ + g t_c ŷ − v⁺_Routh|, gravity's own impulse over the contact duration t_c removed
//                      from the compliant result (the rigid impact is instantaneous: no gravity impulse);
//   gravity-free:      the contact re-run from the same pre-impact state with g = 0 (this also removes the extra
//                      normal and friction impulse that carries the weight during t_c), |v⁺ − v⁺_Routh|.
// Exponents: least-squares slope of ln(error) over ln(K_T/K_N) for K_T/K_N = 1, 10, 100.
double FittedExponent(const std::vector<double>& ratios, const std::vector<double>& errors) {
  const size_t n = std::min(ratios.size(), errors.size());
  double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double x = std::log(ratios[i]), y = std::log(errors[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double den = static_cast<double>(n) * sxx - sx * sx;
  return n >= 2 && den > 0.0 ? (static_cast<double>(n) * sxy - sx * sy) / den : std::nan("");
}

void SlipReversalImpact(const StudyContext& ctx, const CaromSetup& setup, CaromResults& res, StudyResult& result) {
  const EllipseBoxParameters& bp = setup.bp;
  // With gravity the first floor impact already reverses slip (Routh: reversed = true). The tangential spring
  // returns elastic energy after the slip stops, which the rigid model has not: the compliant result approaches
  // the rigid one only as K_T/K_N grows (docs/efda.md §5).
  constexpr double kGravity = 9.81;
  std::ostringstream rtab, rcsv;
  rcsv << "KT_over_KN,dt,velocity_error,omega_error,contact_duration,velocity_error_gravity_corrected,"
          "velocity_error_gravity_free,omega_error_gravity_free\n";
  rtab << "Slip-reversal impact (carom with g = 9.81 m/s^2, first floor impact), EFDA vs Routh from EFDA's own "
          "pre-impact state, K_N = 1e6 N/m. *g-corrected*: v+ + g t_c (gravity's impulse over the contact duration "
          "t_c removed); *g-free contact*: the contact re-run from the same pre-impact state with g = 0. Rows "
          "K_T/K_N = 1e3, 1e4 are outside the claims (fit over 1, 10, 100).\n\n"
          "| K_T/K_N | dt [s] | t_c [s] | local dv [m/s] | local dw [rad/s] | g-corrected dv [m/s] | g-free contact dv [m/s] "
          "| g-free contact dw [rad/s] | rigid: reversed |\n|---|---|---|---|---|---|---|---|---|\n";
  std::vector<double> rev_errors, corrected, gravity_free, fit_ratios;
  for (double ratio : {1.0, 10.0, 100.0, 1000.0, 10000.0}) {
    ctx.progress("reversal impact, K_T/K_N = " + Fmt(ratio));
    EllipseBoxParameters gp = bp;
    gp.gravity = kGravity;
    gp.penalty.tangential_stiffness = ratio * gp.penalty.normal_stiffness;
    const double h = 0.028 / std::sqrt(std::max(1.0, ratio) * gp.penalty.normal_stiffness / (0.5253 * gp.mass));
    PlanarEllipses system(MakeEllipseBoxConfig(gp));
    const RigidImpactSequence gref = MakeEllipseBoxReference(gp);
    Efda efda;
    SimulationOptions o;
    o.t_end = 0.08;
    o.dt = h;
    const auto impacts = ExtractImpacts(Simulate(system, efda, system.InitialState(), o, {}).events);
    if (impacts.empty()) continue;
    const RouthImpactResult local = LocalRouthPrediction(impacts.front(), gref);
    const auto& m = impacts.front();
    const double tc = m.t_end - m.t_start;
    const double ev = (Eigen::Vector2d(m.end.v[0], m.end.v[1]) - local.velocity).norm();
    const double ew = std::abs(m.end.v[2] - local.omega);
    const double evc = (Eigen::Vector2d(m.end.v[0], m.end.v[1] + kGravity * tc) - local.velocity).norm();
    // Gravity-free contact: back the pre-impact state up by τ of force-free flight (exact: q(t) is linear in t
    // without gravity), so that the driver locates the same contact start, and integrate the impact with g = 0.
    EllipseBoxParameters fp = gp;
    fp.gravity = 0.0;
    PlanarEllipses free_system(MakeEllipseBoxConfig(fp));
    MechanicalState s0 = m.start;
    const double tau = 2e-4;
    s0.q -= tau * s0.v;
    s0.t -= tau;
    Efda free_efda;
    SimulationOptions fo;
    fo.t_end = m.t_start + 3.0 * tc;
    fo.dt = h;
    const auto free_impacts = ExtractImpacts(Simulate(free_system, free_efda, s0, fo, {}).events);
    double evf = std::nan(""), ewf = std::nan("");
    if (!free_impacts.empty()) {
      const auto& f = free_impacts.front();
      evf = (Eigen::Vector2d(f.end.v[0], f.end.v[1]) - local.velocity).norm();
      ewf = std::abs(f.end.v[2] - local.omega);
    }
    if (ratio <= 100.0) {
      rev_errors.push_back(ev);
      corrected.push_back(evc);
      gravity_free.push_back(evf);
      fit_ratios.push_back(ratio);
    }
    rcsv << ratio << ',' << h << ',' << std::setprecision(10) << ev << ',' << ew << ',' << tc << ',' << evc << ','
         << evf << ',' << ewf << '\n';
    rtab << "| " << Fmt(ratio) << " | " << Fmt(h, 3) << " | " << Fmt(tc, 4) << " | " << Fmt(ev, 3) << " | "
         << Fmt(ew, 3) << " | " << Fmt(evc, 3) << " | " << Fmt(evf, 3) << " | " << Fmt(ewf, 3) << " | "
         << (local.reversed ? "yes" : "no") << " |\n";
  }
  if (fit_ratios.size() == 3) {
    res.reversal_exponent = FittedExponent(fit_ratios, rev_errors);
    res.reversal_exponent_gravity_corrected = FittedExponent(fit_ratios, corrected);
    res.reversal_exponent_gravity_free = FittedExponent(fit_ratios, gravity_free);
    rtab << "| fitted exponent (1 ... 100) | | | " << Fmt(res.reversal_exponent, 3) << " | | "
         << Fmt(res.reversal_exponent_gravity_corrected, 3) << " | " << Fmt(res.reversal_exponent_gravity_free, 3)
         << " | | |\n";
  }
  WriteFileAtomically(ctx.out_dir / "reversal_kt.csv", rcsv.str());
  result.tables_markdown.push_back(rtab.str());
  res.reversal_errors = rev_errors;
  res.reversal_errors_gravity_corrected = corrected;
  res.reversal_errors_gravity_free = gravity_free;
}

// 3. Multi-body invariants.
void MultiBodyInvariants(const StudyContext& ctx, const CaromSetup&, CaromResults& res, StudyResult& result) {
  double momentum_drift = 0.0, step_energy_isolated = 0.0, step_energy_walls = 0.0, slip_total = 0.0;
  long slip_steps = 0, skipped = 0;
  for (bool walls : {false, true}) {
    ctx.progress(std::string("20 ellipses, walls = ") + (walls ? "true" : "false"));
    ParameterSet mp;
    mp.Set("walls", walls);
    if (walls) {  // a box and gravity: the bottom row lands on the floor within a few ms (wall contacts occur)
      mp.Set("box", 0.56);
      mp.Set("gravity", 9.81);
    }
    PlanarEllipses system(MakeEllipsesMultiConfig(mp));
    Efda efda;
    MechanicalState s = system.InitialState();
    const double e0 = system.TotalEnergy(s);
    std::optional<Eigen::Vector3d> p0 = system.LinearMomentum(s), l0 = system.AngularMomentum(s);
    const int steps = ctx.quick ? 3000 : 10000;
    double worst = 0.0;
    for (int n = 0; n < steps; ++n) {
      const double eb = system.TotalEnergy(s);
      if (efda.Step(system, s, 5e-5).status != StepStatus::kAccepted) break;
      const EfdaStepReport& r = efda.last_step();
      worst = std::max(worst, std::abs(system.TotalEnergy(s) - eb + r.total()) / e0);
      skipped += r.correction_skipped;
      if (!walls) {
        slip_total += r.slip_work;
        slip_steps += r.slipping_contacts > 0;
        momentum_drift = std::max({momentum_drift, (*system.LinearMomentum(s) - *p0).norm() / p0->norm(),
                                   std::abs((*system.AngularMomentum(s) - *l0).z()) / std::abs(l0->z())});
      }
    }
    (walls ? step_energy_walls : step_energy_isolated) = worst;
    if (!walls) result.narrative += "20 isolated ellipses, " + std::to_string(steps) + " EFDA steps of 5e-5 s: slip work " +
                                    Fmt(slip_total) + " J in " + std::to_string(slip_steps) + " steps with slip, E0 = " +
                                    Fmt(e0) + " J.\n\n";
  }
  result.narrative += "Momentum-neutral Gonzalez corrections skipped (near-rigid relative motion) in both multi-body "
                      "runs: " + std::to_string(skipped) + ".\n\n";

  res.momentum_drift = momentum_drift;
  res.step_energy_isolated = step_energy_isolated;
  res.step_energy_walls = step_energy_walls;
}

}  // namespace

std::vector<Claim> CaromClaims(const CaromResults& r) {
  std::vector<Claim> claims;
  Claim oc = MakeClaim("seed003.efda.observed_order", "observed order of EFDA (velocities, last halving) through an impact",
                       "integrators/efda.h traits (declared 2)", 2.0, r.efda_observed_order, 0.5);
  oc.note = "the penalty force is only C0 at delta = 0 (onset/release inside a step)";
  claims.push_back(oc);
  if (r.reversal_errors.size() == 3) {
    claims.push_back(MakeClaim("seed003.efda.reversal_impact.local_error",
                               "EFDA slip-reversal impact norm(v+ - v+_rigid) at K_T = K_N = 1e6 [m/s]",
                               "Seed003 §6.1 (EFDA vs analytical)", std::nullopt, r.reversal_errors.front(), 2e-3));
    claims.push_back(MakeClaim("seed003.efda.reversal_impact.kt_convergence",
                               "reversal impact error(K_T/K_N = 100) / error(K_T/K_N = 1)", "docs/efda.md §5",
                               std::nullopt, r.reversal_errors.back() / r.reversal_errors.front(), 0.5));
  }
  if (r.reversal_errors_gravity_corrected.size() == 3) {
    const auto& c = r.reversal_errors_gravity_corrected;
    Claim k = MakeClaim("seed003.efda.reversal_impact.gravity_corrected.kt_convergence",
                        "reversal impact error with gravity's impulse g t_c removed, (K_T/K_N = 100) / (K_T/K_N = 1)",
                        "review note of issue 14; docs/efda.md §5", std::nullopt, c.back() / c.front(), 0.5);
    claims.push_back(k);
    // The review note reads the corrected error as ∝ (K_T/K_N)^(-1/2), the raw one was documented as ^(-1/3):
    // the tolerance is half their difference, so the claim passes iff the fitted exponent is nearer -1/2.
    Claim e = MakeClaim("seed003.efda.reversal_impact.gravity_corrected.kt_exponent",
                        "fitted exponent of the gravity-corrected reversal impact error vs K_T/K_N (1, 10, 100)",
                        "review note of issue 14 (error ∝ (K_T/K_N)^(-1/2)); docs/efda.md §5", -0.5,
                        r.reversal_exponent_gravity_corrected, 1.0 / 12.0);
    e.note = "raw exponent " + std::to_string(r.reversal_exponent) + ", gravity-free contact " +
             std::to_string(r.reversal_exponent_gravity_free);
    claims.push_back(e);
  }
  claims.push_back(MakeClaim("seed003.routh.first_impact.vx", "rigid first floor impact v_x+ (Routh)",
                                    "docs/theory.md §8", 0.90622, r.first.velocity.x(), 5e-6));
  claims.push_back(MakeClaim("seed003.routh.first_impact.omega", "rigid first floor impact omega+ (Routh)",
                                    "docs/theory.md §8", -11.721, r.first.omega, 5e-4));
  claims.push_back(MakeClaim("seed003.routh.first_impact.energy_ratio", "rigid first impact K+/K-",
                                    "docs/theory.md §8", 0.90332, r.first.kinetic_energy_ratio, 5e-6));
  Claim c = MakeClaim("seed003.efda.first_impact.local_error", "EFDA first impact norm(v+ - v+_rigid) at K_N = 1e6 [m/s]",
                      "Seed003 §6.1 (EFDA vs analytical)", std::nullopt, r.efda_first_local, 2e-3);
  c.note = "compliant penalty contact vs rigid impulse: O(K_N^-1/2) difference, not a scheme error";
  claims.push_back(c);
  if (r.kn_errors.size() >= 2) {
    Claim k = MakeClaim("seed003.efda.kn_convergence", "error(K_N max) / error(K_N min) of the first impact",
                        "Seed003 §6.1; docs/theory.md §10 #9 (O(K^-1/2))", std::nullopt, r.kn_errors.back() / r.kn_errors.front(), 0.5);
    claims.push_back(k);
  }
  claims.push_back(MakeClaim("seed003.efda.carom.energy_balance", "carom max abs(E + D - E0) / E0 (EFDA)",
                                    "Seed003 §4.3", std::nullopt, r.efda_balance, 1e-12));
  claims.push_back(MakeClaim("seed003.efda.multi.momentum", "20 isolated ellipses: max relative momentum drift",
                                    "Seed003 §4.1-4.2", std::nullopt, r.momentum_drift, 1e-12));
  claims.push_back(MakeClaim("seed003.efda.multi.step_energy", "20 isolated ellipses: max per-step abs(dE + slip work) / E0",
                                    "Seed003 §4.3, eqs. 12-16", std::nullopt, r.step_energy_isolated, 1e-12));
  claims.push_back(MakeClaim("seed003.efda.multi_walls.step_energy", "20 ellipses in a box, gravity: max per-step abs(dE + slip work) / E0",
                                    "Seed003 §4.3", std::nullopt, r.step_energy_walls, 1e-12));
  return claims;
}

StudyResult Seed003CaromStudy::Run(const StudyContext& ctx) const {
  StudyResult result;
  const EllipseBoxParameters bp = EllipseBoxParameters::FromParameterSet(ParameterSet{});
  const RigidImpactSequence ref = MakeEllipseBoxReference(bp);
  const RigidBodyState2D rigid0 = EllipseBoxInitialRigidState(bp);
  const auto ref_impacts = ref.Run(rigid0, 30.0, kImpacts);
  const double t_end = ref_impacts.empty() ? 4.0 : ref_impacts.back().after.t + 0.1;
  const double dt = 2e-5;
  // m_n*/m = 0.5253 at the first impact (docs/theory.md §8): ω_N Δt = 0.028 at K_N = 1e6.

  const CaromSetup setup{bp, ref, rigid0, ref_impacts, t_end, dt};
  CaromResults res;
  CaromWithThreeIntegrators(ctx, setup, res, result);
  FirstImpactVsStiffness(ctx, setup, res, result);
  TimeStepConvergence(ctx, setup, res, result);
  SlipReversalImpact(ctx, setup, res, result);
  MultiBodyInvariants(ctx, setup, res, result);
  result.claims = CaromClaims(res);
  result.narrative +=
      "The rigid reference and the penalty simulations are chained independently, so after a few impacts the "
      "sequences diverge (the carom is sensitive to the state at each impact); the 'local' columns compare each "
      "EFDA impact with Routh's rigid impact from EFDA's own pre-impact state. Impacts near a corner (two walls "
      "within one contact duration) have no single-wall rigid counterpart.\n";
  return result;
}

}  // namespace impactlab
