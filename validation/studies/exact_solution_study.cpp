#include "studies/exact_solution_study.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <numbers>
#include <sstream>

#include "contact/restitution_calibration.h"
#include "convergence/exact_convergence.h"
#include "core/errors.h"
#include "exact/critical_time_step.h"
#include "exact/feng_power_law_solution.h"
#include "integrators/cvode_bdf.h"
#include "integrators/exact_oscillator_stepper.h"
#include "integrators/simulation.h"
#include "io/atomic_file.h"
#include "metrics/contact_metrics.h"
#include "registry/registries.h"
#include "report/figure_spec.h"

namespace impactlab {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

ParameterSet OscillatorParameters(double m, double k, double p, double e, double v0, double gap) {
  ParameterSet s;
  s.Set("normal_law", std::string("power_law"));
  s.Set("k", k);
  s.Set("p", p);
  s.Set("m", m);
  s.Set("v0", v0);
  s.Set("e", e);
  s.Set("damping", std::string(e < 1.0 ? "tsuji" : "none"));
  s.Set("initial_gap", gap);
  return s;
}

std::shared_ptr<const MechanicalSystem> System(const ParameterSet& p) { return ModelRegistry().Get("contact_oscillator").make(p).system; }

// CVODE at rtol 1e-12; atol scaled with the problem (δ_max and v₀ span 4 decades here).
CvodeBdf::Options CvodeOptions(const FengPowerLawSolution& sol) {
  CvodeBdf::Options o;
  o.rel_tol = 1e-12;
  o.abs_tol = 1e-14 * std::min({1.0, sol.max_overlap(), sol.parameters().impact_velocity});
  return o;
}

ContactMetrics FirstContact(const MechanicalSystem& sys, Integrator& integ, double t_end, double dt) {
  SimulationOptions so;
  so.t_end = t_end;
  so.dt = dt;
  so.stop_after_separation = dt;
  return FirstContactMetrics(Simulate(sys, integ, sys.InitialState(), so, {}).events, 0);
}

std::string Num(double v, int digits = 6) {
  std::ostringstream os;
  os << std::setprecision(digits) << v;
  return os.str();
}

// Records δ at every accepted step.
class OverlapRecorder final : public StepObserver {
 public:
  void OnStep(const MechanicalSystem&, const MechanicalState& s) override {
    t.push_back(s.t);
    delta.push_back(-s.q[0]);
  }
  std::vector<double> t, delta;
};

double LeastSquaresSlope(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/// The inputs every section of ExactSolutionStudy::Run shares.
struct ExactSetup {
  std::vector<double> ps;
  std::vector<double> v0s;
  std::vector<double> es;
  double m;
  double k;
};

// 1. CVODE vs closed forms (docs/theory.md §10 row 11).
void CvodeVsClosedForms(const StudyContext& ctx, const ExactSetup& setup, StudyResult& result) {
  const std::vector<double>& ps = setup.ps;
  const std::vector<double>& v0s = setup.v0s;
  const std::vector<double>& es = setup.es;
  const double& m = setup.m;
  const double& k = setup.k;
  std::ostringstream csv, table;
  csv << "p,e,v0,restitution_rel_error,delta_max_rel_error,t_contact_rel_error\n" << std::setprecision(17);
  table << "CVODE (BDF, rtol 1e-12, root finding at δ = 0) vs the closed forms, m = " << m << ", k = " << k
        << ". Worst relative error per p over e ∈ {";
  for (double e : es) table << e << (e == es.back() ? "" : ", ");
  table << "}, v₀ ∈ {";
  for (double v : v0s) table << v << (v == v0s.back() ? "" : ", ");
  table << "}.\n\n| p | e rel. error | δ_max rel. error | t_c rel. error |\n|---|---|---|---|\n";
  double worst_e = 0, worst_d = 0, worst_t = 0;
  for (double p : ps) {
    double we = 0, wd = 0, wt = 0;
    ctx.progress("CVODE vs closed form, p = " + Num(p));
    for (double e : es) {
      for (double v0 : v0s) {
        const auto sol = FengPowerLawSolution::FromRestitution(m, k, p, e, v0);
        auto sys = System(OscillatorParameters(m, k, p, e, v0, 0.0));
        CvodeBdf cvode(CvodeOptions(sol));
        // Output step t_c/1000: δ_max is read from the driver's cubic Hermite interpolant between output
        // points (O(Δt⁴)); at t_c/200 that interpolation error alone reaches ~1e-9 for p = 3.
        const auto cm = FirstContact(*sys, cvode, 1.5 * sol.contact_time(), sol.contact_time() / 1000);
        const double re = cm.restitution ? std::abs(*cm.restitution / sol.restitution() - 1) : kNan;
        const double rd = cm.max_overlap ? std::abs(*cm.max_overlap / sol.max_overlap() - 1) : kNan;
        const double rt = cm.contact_duration ? std::abs(*cm.contact_duration / sol.contact_time() - 1) : kNan;
        csv << p << ',' << e << ',' << v0 << ',' << re << ',' << rd << ',' << rt << '\n';
        we = std::isnan(re) || re > we ? re : we;
        wd = std::isnan(rd) || rd > wd ? rd : wd;
        wt = std::isnan(rt) || rt > wt ? rt : wt;
      }
    }
    table << "| " << p << " | " << Num(we, 3) << " | " << Num(wd, 3) << " | " << Num(wt, 3) << " |\n";
    worst_e = std::isnan(we) || we > worst_e ? we : worst_e;
    worst_d = std::isnan(wd) || wd > worst_d ? wd : worst_d;
    worst_t = std::isnan(wt) || wt > worst_t ? wt : worst_t;
  }
  WriteFileAtomically(ctx.out_dir / "cvode_vs_exact.csv", csv.str());
  result.tables_markdown.push_back(table.str());
  auto bound = [&](const std::string& id, const std::string& what, double measured, double tol) {
    Claim c = MakeClaim(id, what, "Seed001 §4 (\"5 decimals\"); docs/theory.md §5, §10 row 11", std::nullopt,
                        std::isnan(measured) ? 1.0 : measured, tol);
    if (std::isnan(measured)) c.note = "a CVODE run did not separate";
    result.claims.push_back(c);
  };
  bound("exact.cvode.restitution", "max relative |e_CVODE/e − 1| over p, e, v0 (e = exp(−πλ))", worst_e, 1e-9);
  bound("exact.cvode.delta_max", "max relative δ_max error (closed form A x_max^q)", worst_d, 1e-9);
  bound("exact.cvode.t_contact", "max relative t_c error (one quadrature)", worst_t, 1e-8);
}

// 2. docs/theory.md §10 rows 12 and 13.
void ClosedFormRows12And13(const StudyContext& ctx, const ExactSetup&, StudyResult& result) {
  (void)ctx;
  struct Row {
    double p, e, delta_max, t_max, t_c;
  };
  std::ostringstream table;
  table << "docs/theory.md §10 rows 12/13 (m = k = v₀ = 1): printed value vs this solver.\n\n| quantity | printed | "
           "computed |\n|---|---|---|\n";
  for (const Row r : {Row{1.5, 0.5, 0.860991, 1.485639, 3.518532}, Row{2.0, 0.5, 0.938050, 1.523346, 3.671569},
                      Row{3.0, 0.1, 0.843182, 1.471265, 6.712267}}) {
    const auto s = FengPowerLawSolution::FromRestitution(1, 1, r.p, r.e, 1);
    const std::string tag = "p" + Num(r.p) + ".e" + Num(r.e);
    const std::vector<std::tuple<std::string, double, double>> q{
        {"delta_max", r.delta_max, s.max_overlap()}, {"t_max", r.t_max, s.time_of_max_overlap()}, {"t_c", r.t_c, s.contact_time()}};
    for (const auto& [name, printed, computed] : q) {
      result.claims.push_back(MakeClaim("exact.row12." + tag + "." + name, name + " at p = " + Num(r.p) + ", e = " + Num(r.e),
                                        "docs/theory.md §10 row 12", printed, computed, 5e-7, true));
      table << "| " << name << " (p = " << r.p << ", e = " << r.e << ") | " << Num(printed, 10) << " | " << Num(computed, 10)
            << " |\n";
    }
  }
  const auto s = FengPowerLawSolution::FromRestitution(1, 1, 2.5, 0.5, 1);
  const double w_ratio = 1.0 - s.energy_dissipated_loading() / s.initial_energy();
  result.claims.push_back(MakeClaim("exact.row12.w_max_ratio", "W(δ_max)/E₀ at e = 0.5 (any p; p = 2.5 here)",
                                    "docs/theory.md §10 row 12", 0.550283, w_ratio, 5e-7, true));
  table << "| W_max/E₀ (e = 0.5) | 0.550283 | " << Num(w_ratio, 10) << " |\n";
  const std::vector<std::pair<double, double>> row13{{1.0, std::numbers::pi}, {1.5, 2.94328}, {2.0, 2.80436}, {3.0, 2.62206}};
  for (const auto& [p, printed] : row13) {
    FengPowerLawParameters par;
    par.exponent = p;
    const FengPowerLawSolution u(par);
    const double v = u.contact_time() / u.max_overlap();
    result.claims.push_back(MakeClaim("exact.row13.p" + Num(p), "undamped t_c v₀/δ_max at p = " + Num(p),
                                      "docs/theory.md §10 row 13", printed, v, 5e-6, true));
    table << "| t_c v₀/δ_max (p = " << p << ", undamped) | " << Num(printed, 10) << " | " << Num(v, 10) << " |\n";
  }
  result.tables_markdown.push_back(table.str());
}

// 2b. Figure: exact trajectories, normalized (m = k = v₀ = 1, e = 0.5).
void ExactTrajectoryFigure(const StudyContext& ctx, const ExactSetup& setup, StudyResult& result) {
  const std::vector<double>& ps = setup.ps;
  FigureSpec fig{"exact_trajectories", "Exact solution, e = 0.5, m = k = v0 = 1", "t / t_c", "delta / delta_max",
                 false, false, {}};
  for (double p : ps) {
    const auto sol = FengPowerLawSolution::FromRestitution(1, 1, p, 0.5, 1);
    std::ostringstream csv;
    csv << "t_over_tc,delta_over_delta_max,delta_dot_over_v0\n" << std::setprecision(12);
    for (const auto& st : sol.Trajectory(ctx.quick ? 101 : 401))
      csv << st.t / sol.contact_time() << ',' << st.delta / sol.max_overlap() << ',' << st.delta_dot << '\n';
    const std::string name = "exact_trajectory_p" + Num(p) + ".csv";
    WriteFileAtomically(ctx.out_dir / name, csv.str());
    fig.series.push_back({name, "t_over_tc", "delta_over_delta_max", "p = " + Num(p), "-"});
  }
  WriteFigureSpec(ctx.out_dir, fig);
  result.figures.push_back("exact_trajectories.png");
}

// 3. t_c ∝ v₀^(−(p−1)/(p+1)) measured with CVODE.
void ContactTimeScaling(const StudyContext& ctx, const ExactSetup& setup, StudyResult& result) {
  const double& m = setup.m;
  const double& k = setup.k;
  std::ostringstream table;
  table << "Contact-time scaling measured with CVODE over v₀ ∈ [1e-2, 1e2], e = 0.5: least-squares slope of "
           "log t_c vs log v₀.\n\n| p | predicted −(p−1)/(p+1) | measured |\n|---|---|---|\n";
  const std::vector<double> vs = ctx.quick ? std::vector<double>{0.01, 1.0, 100.0}
                                           : std::vector<double>{0.01, 0.1, 1.0, 10.0, 100.0};
  for (double p : {1.0, 1.5, 2.0, 3.0}) {
    ctx.progress("t_c scaling, p = " + Num(p));
    std::vector<double> lx, ly;
    for (double v0 : vs) {
      const auto sol = FengPowerLawSolution::FromRestitution(m, k, p, 0.5, v0);
      auto sys = System(OscillatorParameters(m, k, p, 0.5, v0, 0.0));
      CvodeBdf cvode(CvodeOptions(sol));
      const auto cm = FirstContact(*sys, cvode, 1.5 * sol.contact_time(), sol.contact_time() / 100);
      lx.push_back(std::log(v0));
      ly.push_back(cm.contact_duration ? std::log(*cm.contact_duration) : kNan);
    }
    const double slope = LeastSquaresSlope(lx, ly), predicted = -(p - 1) / (p + 1);
    table << "| " << p << " | " << Num(predicted) << " | " << Num(slope, 10) << " |\n";
    result.claims.push_back(MakeClaim("exact.tc_scaling.p" + Num(p), "slope of log t_c(v₀) (CVODE) at p = " + Num(p),
                                      "Seed001 §3D; docs/theory.md §5", predicted, std::isnan(slope) ? 1e9 : slope, 1e-6));
  }
  result.tables_markdown.push_back(table.str());
}

// 4. Exact stepper trajectory vs CVODE at the same output times.
void ExactStepperVsCvode(const StudyContext& ctx, const ExactSetup& setup, StudyResult& result) {
  const double& m = setup.m;
  const double& k = setup.k;
  ctx.progress("exact stepper vs CVODE trajectory");
  const double p = 2.5, e = 0.3, v0 = 2.0, gap = 0.01;
  const auto sol = FengPowerLawSolution::FromRestitution(m, k, p, e, v0);
  auto sys = System(OscillatorParameters(m, k, p, e, v0, gap));
  const double dt = sol.contact_time() / 50;
  SimulationOptions so;
  so.t_end = gap / v0 + 1.3 * sol.contact_time();
  so.dt = dt;
  OverlapRecorder a, b;
  CvodeBdf cvode(CvodeOptions(sol));
  ExactOscillatorStepper exact;
  Simulate(*sys, cvode, sys->InitialState(), so, {&a});
  Simulate(*sys, exact, sys->InitialState(), so, {&b});
  double worst = 0;
  for (std::size_t i = 0; i < std::min(a.t.size(), b.t.size()); ++i)
    worst = std::max(worst, std::abs(a.delta[i] - b.delta[i]) / sol.max_overlap());
  result.claims.push_back(MakeClaim("exact.stepper_vs_cvode", "max |δ_exact-stepper − δ_CVODE|/δ_max at 50 steps per "
                                    "contact (p = 2.5, e = 0.3, entry and exit inside steps)",
                                    "docs/theory.md §5", std::nullopt, worst, 1e-8));
}

// 5. Work–precision on one damped Hertz impact.
void WorkPrecision(const StudyContext& ctx, const ExactSetup&, StudyResult& result) {
  const double p = 1.5, e = 0.5, v0 = 1.0;
  const auto sol = FengPowerLawSolution::FromRestitution(1, 1, p, e, v0);
  const double tc = sol.contact_time();
  std::ostringstream table;
  table << "Work–precision, Hertz (p = 1.5) with Tsuji damping e = 0.5, m = k = v₀ = 1 (t_c = " << Num(tc)
        << " s). Fixed-step schemes: Δt = t_c/N; adaptive schemes: rtol sweep at output Δt = t_c/20. Error = "
           "trajectory max-norm over the contact / δ_max (at output steps); |e − e_exact|.\n\n"
           "| integrator | setting | RHS evals | wall [s] | trajectory error | restitution error |\n|---|---|---|---|---|---|\n";
  FigureSpec f_rhs{"work_precision_rhs", "Work-precision: damped Hertz impact", "RHS evaluations",
                   "trajectory error / delta_max", true, true, {}};
  FigureSpec f_wall{"work_precision_wall", "Work-precision: damped Hertz impact", "wall time [s]",
                    "trajectory error / delta_max", true, true, {}};
  const std::vector<double> n_steps = ctx.quick ? std::vector<double>{10, 100, 1000}
                                                : std::vector<double>{10, 30, 100, 300, 1000, 3000};
  const std::vector<double> rtols = ctx.quick ? std::vector<double>{1e-5, 1e-9}
                                              : std::vector<double>{1e-4, 1e-6, 1e-8, 1e-10, 1e-12};
  for (const auto& name : IntegratorRegistry().names()) {
    ctx.progress("work-precision: " + name);
    std::ostringstream csv;
    csv << "setting,rhs_evaluations,wall_time_s,trajectory_error,restitution_error\n" << std::setprecision(17);
    try {
      ParameterSet probe;
      auto integ0 = IntegratorRegistry().Get(name).make(probe);
      const bool adaptive = integ0->traits().adaptive;
      std::vector<std::pair<std::string, ParameterSet>> settings;
      std::vector<double> dts;
      if (name == "exact") {
        settings.push_back({"dt = t_c/20", ParameterSet{}});
        dts.push_back(tc / 20);
      } else if (adaptive) {
        for (double r : rtols) {
          ParameterSet s;
          s.Set("rk_rtol", r);
          s.Set("rk_atol", r * 1e-2);
          s.Set("cvode_rtol", r);
          s.Set("cvode_atol", r * 1e-2);
          settings.push_back({"rtol = " + Num(r, 2), s});
          dts.push_back(tc / 20);
        }
      } else {
        for (double n : n_steps) {
          settings.push_back({"dt = t_c/" + Num(n), ParameterSet{}});
          dts.push_back(tc / n);
        }
      }
      auto sys = System(OscillatorParameters(1, 1, p, e, v0, 0.0));
      const ExactReference ref = MakeExactReference(*sys);
      for (std::size_t i = 0; i < settings.size(); ++i) {
        auto integ = IntegratorRegistry().Get(name).make(settings[i].second);
        const ExactErrors err = MeasureAgainstExact(*sys, *integ, ref, dts[i]);
        csv << '"' << settings[i].first << "\"," << err.rhs_evaluations << ',' << err.wall_time_s << ','
            << err.trajectory << ',' << err.restitution << '\n';
        table << "| " << name << " | " << settings[i].first << " | " << err.rhs_evaluations << " | "
              << Num(err.wall_time_s, 3) << " | " << Num(err.trajectory, 3) << " | " << Num(err.restitution, 3) << " |\n";
      }
    } catch (const std::exception& ex) {
      table << "| " << name << " | — | failed: " << ex.what() << " | | | |\n";
    }
    WriteFileAtomically(ctx.out_dir / ("work_precision_" + name + ".csv"), csv.str());
    f_rhs.series.push_back({"work_precision_" + name + ".csv", "rhs_evaluations", "trajectory_error", name, "o-"});
    f_wall.series.push_back({"work_precision_" + name + ".csv", "wall_time_s", "trajectory_error", name, "o-"});
  }
  WriteFigureSpec(ctx.out_dir, f_rhs);
  WriteFigureSpec(ctx.out_dir, f_wall);
  result.figures.push_back("work_precision_rhs.png");
  result.key_figures.push_back("work_precision_rhs.png");
  result.figures.push_back("work_precision_wall.png");
  result.tables_markdown.push_back(table.str());
}

// 6. Velocity-Verlet energy-growth threshold vs v₀ (docs/theory.md §4, §10 row 14).
void VerletEnergyThreshold(const StudyContext& ctx, const ExactSetup&, StudyResult& result) {
  std::ostringstream table, csv;
  csv << "p,v0,dt_threshold_s,dt_crit_s,ratio\n" << std::setprecision(17);
  table << "Velocity Verlet, undamped, m = k = 1: largest Δt* (bisection, 40 halvings of [0.05, 3] Δt_crit) at which "
           "the rebound kinetic energy stays ≤ 2 E₀ (energy-growth threshold), vs Δt_crit = 4δ_max/((p+1)v₀).\n\n"
           "| p | predicted slope | measured slope of log Δt*(v₀) | Δt*/Δt_crit (all v₀) |\n|---|---|---|---|\n";
  const int n_v = ctx.quick ? 3 : 11;
  FigureSpec fig{"verlet_threshold", "Velocity Verlet energy-growth threshold", "v0 [m/s]", "dt* [s]", true, true, {}};
  for (double p : {1.0, 1.5, 2.0, 3.0}) {
    ctx.progress("Verlet threshold, p = " + Num(p));
    std::vector<double> lx, ly;
    double ratio_min = 1e9, ratio_max = 0;
    std::ostringstream pcsv;
    pcsv << "v0,dt_threshold_s,dt_crit_s\n" << std::setprecision(17);
    for (int i = 0; i < n_v; ++i) {
      const double v0 = 1e-3 * std::pow(1e5, double(i) / (n_v - 1));
      const double dtc = PowerLawCriticalTimeStep(1, 1, p, v0).effective;
      auto sys = System(OscillatorParameters(1, 1, p, 1.0, v0, 0.0));
      const double e0 = 0.5 * v0 * v0;
      auto stable = [&](double dt) {
        auto vv = IntegratorRegistry().Get("velocity_verlet").make(ParameterSet{});
        SimulationOptions so;
        so.dt = dt;
        so.t_end = 50 * dtc;
        so.stop_after_separation = dt;
        so.adaptive_retry = false;
        try {
          const auto rec = Simulate(*sys, *vv, sys->InitialState(), so, {});
          const auto cm = FirstContactMetrics(rec.events, 0);
          if (!cm.rebounds) return false;
          const double v = rec.final_state.v[0];
          return 0.5 * v * v <= 2.0 * e0;
        } catch (const StepFailure&) {
          return false;
        }
      };
      double lo = 0.05 * dtc, hi = 3.0 * dtc;
      if (!stable(lo) || stable(hi)) {
        table << "| " << p << " | bracket failed at v₀ = " << v0 << " | | |\n";
        continue;
      }
      for (int it = 0; it < 40; ++it) {
        const double mid = std::sqrt(lo * hi);
        (stable(mid) ? lo : hi) = mid;
      }
      lx.push_back(std::log(v0));
      ly.push_back(std::log(lo));
      ratio_min = std::min(ratio_min, lo / dtc);
      ratio_max = std::max(ratio_max, lo / dtc);
      csv << p << ',' << v0 << ',' << lo << ',' << dtc << ',' << lo / dtc << '\n';
      pcsv << v0 << ',' << lo << ',' << dtc << '\n';
    }
    const std::string pcsv_name = "verlet_threshold_p" + Num(p) + ".csv";
    WriteFileAtomically(ctx.out_dir / pcsv_name, pcsv.str());
    fig.series.push_back({pcsv_name, "v0", "dt_threshold_s", "measured p = " + Num(p), "o"});
    fig.series.push_back({pcsv_name, "v0", "dt_crit_s", "4 delta_max/((p+1) v0), p = " + Num(p), "--"});
    const double predicted = -(p - 1) / (p + 1);
    const double slope = lx.size() >= 2 ? LeastSquaresSlope(lx, ly) : kNan;
    table << "| " << p << " | " << Num(predicted) << " | " << Num(slope, 8) << " | " << Num(ratio_min, 5) << " – "
          << Num(ratio_max, 5) << " |\n";
    result.claims.push_back(MakeClaim("exact.verlet_threshold_scaling.p" + Num(p),
                                      "slope of log Δt*(v₀) for velocity Verlet at p = " + Num(p),
                                      "Seed001 §3D; docs/theory.md §4, §10 row 14", predicted,
                                      std::isnan(slope) ? 1e9 : slope, 1e-3));
  }
  WriteFileAtomically(ctx.out_dir / "verlet_threshold.csv", csv.str());
  WriteFigureSpec(ctx.out_dir, fig);
  result.figures.push_back("verlet_threshold.png");
  result.tables_markdown.push_back(table.str());
}

// 7. Observed orders of velocity Verlet against the exact solution (docs/exact-solution.md §5).
void VerletObservedOrders(const StudyContext& ctx, const ExactSetup&, StudyResult& result) {
  std::ostringstream table;
  const int levels = ctx.quick ? 4 : 7;
  const double dt_min = ctx.quick ? 4e-3 : 1e-3, dt_max = ctx.quick ? 0.05 : 0.1;
  table << "Velocity Verlet vs the exact solution, m = k = v₀ = 1, " << levels << " steps log-spaced in [" << dt_min
        << ", " << dt_max << "] s; observed order (least squares, finest levels) per measure. Damped prediction: "
           "min(2, 1 + (p−1)/2), set by the δ^((p−1)/2) onset/exit singularity of the Tsuji force.\n\n"
           "| p | e | order e | order δ_max | order t_c | order trajectory | predicted |\n|---|---|---|---|---|---|---|\n";
  struct Case {
    double p, e;
  };
  for (const Case c : {Case{1.5, 1.0}, Case{1.0, 0.5}, Case{1.5, 0.5}, Case{2.5, 0.5}, Case{3.0, 0.5}}) {
    ctx.progress("Verlet order p = " + Num(c.p) + ", e = " + Num(c.e));
    auto sys = System(OscillatorParameters(1, 1, c.p, c.e, 1, 0.0));
    const ExactReference ref = MakeExactReference(*sys);
    std::vector<double> dts, errs[4];
    for (int i = 0; i < levels; ++i) {
      const double dt = dt_max * std::pow(dt_min / dt_max, double(i) / (levels - 1));
      auto vv = IntegratorRegistry().Get("velocity_verlet").make(ParameterSet{});
      const ExactErrors err = MeasureAgainstExact(*sys, *vv, ref, dt);
      dts.push_back(dt);
      errs[0].push_back(err.restitution);
      errs[1].push_back(err.delta_max);
      errs[2].push_back(err.t_contact);
      errs[3].push_back(err.trajectory);
    }
    const double predicted = c.e < 1.0 ? std::min(2.0, 1.0 + (c.p - 1.0) / 2.0) : 2.0;
    table << "| " << c.p << " | " << c.e;
    double orders[4];
    for (int mi = 0; mi < 4; ++mi) {
      const auto o = ObservedOrder(dts, errs[mi]);
      orders[mi] = o ? *o : kNan;
      table << " | " << Num(orders[mi], 3);
    }
    table << " | " << Num(predicted, 3) << " |\n";
    const std::string id = "exact.verlet_order.p" + Num(c.p) + (c.e < 1.0 ? ".damped" : ".undamped");
    result.claims.push_back(MakeClaim(id + ".delta_max", "observed order of velocity Verlet in δ_max, p = " + Num(c.p) +
                                          ", e = " + Num(c.e),
                                      c.e < 1.0 ? "this work: docs/exact-solution.md §5 (onset/exit order reduction)"
                                                : "issue 3 (≈ 2 on undamped Hertz); docs/theory.md §9",
                                      predicted, std::isnan(orders[1]) ? 0.0 : orders[1], 0.15));
    result.claims.push_back(MakeClaim(id + ".trajectory", "observed order of velocity Verlet in the trajectory, p = " +
                                          Num(c.p) + ", e = " + Num(c.e),
                                      "this work: docs/exact-solution.md §5", predicted,
                                      std::isnan(orders[3]) ? 0.0 : orders[3], 0.15));
  }
  result.tables_markdown.push_back(table.str());
}

}  // namespace

StudyResult ExactSolutionStudy::Run(const StudyContext& ctx) const {
  StudyResult result;
  const std::vector<double> ps{1.0, 1.5, 2.0, 2.5, 3.0};
  const std::vector<double> v0s = ctx.quick ? std::vector<double>{0.1, 10.0} : std::vector<double>{0.01, 1.0, 100.0};
  const std::vector<double> es = ctx.quick ? std::vector<double>{0.3, 0.9} : std::vector<double>{0.1, 0.5, 0.9};
  const double m = 0.7, k = 3.0;
  const ExactSetup setup{ps, v0s, es, m, k};
  CvodeVsClosedForms(ctx, setup, result);
  ClosedFormRows12And13(ctx, setup, result);
  ExactTrajectoryFigure(ctx, setup, result);
  ContactTimeScaling(ctx, setup, result);
  ExactStepperVsCvode(ctx, setup, result);
  WorkPrecision(ctx, setup, result);
  VerletEnergyThreshold(ctx, setup, result);
  VerletObservedOrders(ctx, setup, result);
  result.narrative =
      "The closed forms of seed 001 (as corrected in docs/theory.md §3/§5: α = √(2(p+1)) ξ_L) agree with CVODE to its "
      "tolerance for every p, e and v₀ tested; restitution is independent of v₀. The velocity-Verlet threshold "
      "Δt* is an energy-growth threshold (one contact lasts only ~2 steps at Δt_crit, so linear-stability "
      "analysis does not apply literally); its v₀ scaling follows from the self-similarity of the undamped "
      "power-law impact (t ∝ v₀^(−(p−1)/(p+1))), which Verlet respects, so the measured slope equals the "
      "prediction to bisection accuracy. The ratio Δt*/Δt_crit per p is the informative number "
      "(docs/exact-solution.md).";
  return result;
}

}  // namespace impactlab
