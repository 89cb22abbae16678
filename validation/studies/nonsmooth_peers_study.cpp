#include "studies/nonsmooth_peers_study.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <sstream>

#include "core/parameter_set.h"
#include "integrators/siconos/siconos_event_driven.h"
#include "io/atomic_file.h"
#include "references/rigid_sphere_impact_theory.h"
#include "registry/registries.h"
#include "report/figure_spec.h"
#include "studies/sphere_wall_study_support.h"

namespace impactlab {

namespace {

constexpr double kG = 9.81, kY0 = 1.0, kV0 = 1.0;
constexpr int kCradleSampleEvery = 20;  ///< steps of 1e-7 s between samples of the cradle velocity history

ParameterSet BallKeys(double e) {
  ParameterSet p;
  p.Set("normal_law", std::string("linear"));
  p.Set("k", 1.0e6);
  p.Set("m", 1.0);
  p.Set("g", kG);
  p.Set("initial_gap", kY0);
  p.Set("v0", kV0);
  p.Set("e", e);
  return p;
}

double ImpactSpeed() { return std::sqrt(kV0 * kV0 + 2.0 * kG * kY0); }

void ComputeEventDrivenBall(NonsmoothPeersResults& r) {
  const ModelInstance model = ModelRegistry().Get("contact_oscillator").make(BallKeys(r.e));
  SiconosEventDriven::Options o;
  o.restitution = r.e;
  SiconosEventDriven integrator(o);
  MechanicalState s = model.system->InitialState();
  const double v = ImpactSpeed();
  const double t_end = (v - kV0) / kG + 2.0 * r.e * v / kG + 2.0 * r.e * r.e * v / kG + 0.05;
  while (s.t < t_end)
    if (integrator.Step(*model.system, s, 1e-2).status != StepStatus::kAccepted) break;
  double t_exact = (v - kV0) / kG, speed = v;
  for (const auto& impact : integrator.impacts()) {
    r.ed_ratio_errors.push_back(std::abs(-impact.v_after[0] / impact.v_before[0] - r.e));
    r.ed_time_errors.push_back(std::abs(impact.t - t_exact));
    speed *= r.e;
    t_exact += 2.0 * speed / kG;
  }
}

// Max apex error over the first 3 rebounds of one Moreau–Jean run at step h.
double MoreauJeanApexError(double e, double h) {
  const ParameterSet p = BallKeys(e);
  const ModelInstance model = ModelRegistry().Get("contact_oscillator").make(p);
  auto integrator = IntegratorRegistry().Get("siconos_moreau_jean").make(p);
  MechanicalState s = model.system->InitialState();
  double apex = 0.0, speed = ImpactSpeed(), worst = 0.0;
  bool rising = false;
  int rebounds = 0;
  while (rebounds < 3 && s.t < 10.0) {
    const double v_before = s.v[0];
    if (integrator->Step(*model.system, s, h).status != StepStatus::kAccepted) return std::nan("");
    if (v_before <= 0.0 && s.v[0] > 0.0) {
      rising = true;
      apex = s.q[0];
    }
    if (rising) apex = std::max(apex, s.q[0]);
    if (rising && s.v[0] < 0.0) {
      rising = false;
      speed *= e;
      worst = std::max(worst, std::abs(apex - speed * speed / (2.0 * kG)));
      ++rebounds;
    }
  }
  return worst;
}

void ComputeMoreauJeanBall(NonsmoothPeersResults& r) {
  r.mj_steps = {4e-3, 2e-3, 1e-3, 5e-4};
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (double h : r.mj_steps) {
    double sum = 0.0;
    const double factors[] = {1.0, 1.07, 1.14, 1.21, 1.28, 1.35, 1.42};
    for (double f : factors) sum += MoreauJeanApexError(r.e, h * f);
    const double mean = sum / 7.0;
    r.mj_apex_errors.push_back(mean);
    const double x = std::log(h), y = std::log(mean);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double n = static_cast<double>(r.mj_steps.size());
  r.mj_apex_order = (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// First apex after the first impact, compliant ball with stiffness k (velocity Verlet, dt = 1e-6 s), minus the rigid
// (eV)²/2g.
double CompliantFirstApexError(double e, double k) {
  ParameterSet p = BallKeys(e);
  p.Set("k", k);
  p.Set("damping", std::string("linear_viscous"));
  const ModelInstance model = ModelRegistry().Get("contact_oscillator").make(p);
  auto integrator = IntegratorRegistry().Get("velocity_verlet").make(p);
  MechanicalState s = model.system->InitialState();
  bool rebounded = false;
  double apex = -1.0;
  while (s.t < 2.0) {
    if (integrator->Step(*model.system, s, 1e-6).status != StepStatus::kAccepted) return std::nan("");
    if (s.q[0] > 0.0 && s.v[0] > 0.0) rebounded = true;
    if (rebounded) apex = std::max(apex, s.q[0]);
    if (rebounded && s.v[0] < 0.0) break;
  }
  const double v = e * ImpactSpeed();
  return apex - v * v / (2.0 * kG);
}

void ComputeCompliantBall(NonsmoothPeersResults& r) {
  r.compliant_k = {1e4, 1e6, 1e8};
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (double k : r.compliant_k) {
    const double err = CompliantFirstApexError(r.e, k);
    r.compliant_apex_errors.push_back(err);
    const double x = std::log(k), y = std::log(std::abs(err));
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double n = static_cast<double>(r.compliant_k.size());
  r.compliant_apex_exponent = (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

void ComputeCradles(NonsmoothPeersResults& r, const StudyContext& ctx) {
  for (int beads : {3, 5})
    for (const char* name : {"siconos_moreau_jean", "siconos_event_driven", "velocity_verlet", "simo_tarnow"}) {
      ctx.progress("cradle " + std::to_string(beads) + " beads: " + name);
      ParameterSet p;
      p.Set("num_beads", static_cast<double>(beads));
      p.Set("normal_law", std::string("hertz"));
      p.Set("E_star", 1.15e11);
      p.Set("R_star", 0.0025);
      p.Set("R", 0.005);
      p.Set("m", 0.0041);
      p.Set("v0", 1.0);
      const ModelInstance model = ModelRegistry().Get("bead_chain").make(p);
      auto integrator = IntegratorRegistry().Get(name).make(p);
      MechanicalState s = model.system->InitialState();
      const Eigen::Vector3d p0 = *model.system->LinearMomentum(s);
      const double e0 = model.system->TotalEnergy(s);
      NonsmoothPeersResults::CradleRun run;
      run.beads = beads;
      run.integrator = name;
      auto sample = [&] {
        run.times.push_back(s.t);
        run.history.emplace_back(s.v.data(), s.v.data() + beads);
      };
      sample();
      for (int i = 0; i < 4000; ++i) {  // 4e-4 s at 1e-7 s: the Hertz chain has separated
        if (integrator->Step(*model.system, s, 1e-7).status != StepStatus::kAccepted) break;
        if ((i + 1) % kCradleSampleEvery == 0) sample();
      }
      for (int i = 0; i < beads; ++i) run.velocities.push_back(s.v[i] / 1.0);
      run.momentum_drift = (*model.system->LinearMomentum(s) - p0).norm() / p0.norm();
      run.energy_change = std::abs(model.system->TotalEnergy(s) + s.dissipated - e0) / e0;
      r.cradles.push_back(std::move(run));
    }
}

// (c) One angle: rigid theory, Moreau–Jean (h = 1e-5 s: the impact is one step) and the compliant laws (velocity
// Verlet at Seed002's 1e-7 s, ~1200 steps per contact).
NonsmoothPeersResults::ObliqueRow ObliqueImpact(const NonsmoothPeersResults& r, double theta_deg) {
  NonsmoothPeersResults::ObliqueRow row;
  row.theta_deg = theta_deg;
  const double theta = theta_deg * std::numbers::pi / 180.0;
  row.psi = 3.5 * r.oblique_mu * (1.0 + r.oblique_e) * std::abs(std::cos(theta) / std::sin(theta));
  RigidSphereImpactInput in;
  in.normal_speed = 5.0 * std::cos(theta);
  in.tangential_velocity = 5.0 * std::sin(theta);
  in.radius = 0.025;
  in.mu = r.oblique_mu;
  in.e_n = r.oblique_e;
  const RigidSphereImpactResult rigid = RigidSphereImpact(in);
  row.et_rigid = rigid.e_t.value_or(std::nan(""));
  row.beta_rigid = rigid.beta;
  Scenario mj = ThorntonScenario(0.3, 180.0 - theta_deg, r.oblique_mu, "mindlin_integral", r.oblique_e);
  mj.parameters.Set("dt", 1e-5);
  mj.parameters.Set("t_end", 1e-4);
  const nlohmann::json run_mj = RunSphereWall(mj, "siconos_moreau_jean");
  row.et_mj = JsonNumber(run_mj, "e_t");
  row.beta_mj = JsonNumber(run_mj, "beta");
  row.en_mj = JsonNumber(run_mj, "e_n");
  for (const std::string& law : r.compliant_laws) {
    const nlohmann::json run =
        RunSphereWall(ThorntonScenario(0.3, 180.0 - theta_deg, r.oblique_mu, law, r.oblique_e), "velocity_verlet");
    row.et_compliant.push_back(JsonNumber(run, "e_t"));
    row.beta_compliant.push_back(JsonNumber(run, "beta"));
  }
  return row;
}

void ComputeOblique(NonsmoothPeersResults& r, const StudyContext& ctx) {
  r.compliant_laws = {"mindlin_integral", "mindlin_deresiewicz"};
  const std::vector<double> angles = ctx.quick ? std::vector<double>{5, 30, 60, 75, 85}
                                               : std::vector<double>{2, 5, 10, 20, 30, 40, 50, 60, 65, 70, 75, 80, 85};
  for (double theta : angles) {
    ctx.progress("oblique sphere-wall impact, theta = " + std::to_string(static_cast<int>(theta)) + " deg");
    r.oblique.push_back(ObliqueImpact(r, theta));
  }
}

std::string Num(double x, int digits = 6) {
  std::ostringstream os;
  os << std::setprecision(digits) << x;
  return os.str();
}

void Render(const NonsmoothPeersResults& r, const StudyContext& ctx, StudyResult& out) {
  std::ostringstream ball;
  ball << "Ball on a floor (m = 1 kg, g = 9.81, y₀ = 1 m, v₀ = 1 m/s, e = " << r.e << ").\n\n"
       << "| event-driven impact | abs(v⁺/v⁻ + e) | abs(t − t_exact) [s] |\n|---|---|---|\n";
  for (size_t i = 0; i < r.ed_ratio_errors.size(); ++i)
    ball << "| " << i + 1 << " | " << Num(r.ed_ratio_errors[i], 3) << " | " << Num(r.ed_time_errors[i], 3) << " |\n";
  ball << "\n| Moreau–Jean h [s] | mean max apex error, 3 rebounds [m] |\n|---|---|\n";
  for (size_t i = 0; i < r.mj_steps.size(); ++i)
    ball << "| " << Num(r.mj_steps[i]) << " | " << Num(r.mj_apex_errors[i], 3) << " |\n";
  ball << "\nMeasured order of the Moreau–Jean apex heights: " << Num(r.mj_apex_order, 3) << ".\n";
  ball << "\n| compliant k [N/m] (velocity Verlet, dt = 1e-6 s) | first apex − rigid (eV)²/2g [m] |\n|---|---|\n";
  for (size_t i = 0; i < r.compliant_k.size(); ++i)
    ball << "| " << Num(r.compliant_k[i]) << " | " << Num(r.compliant_apex_errors[i], 4) << " |\n";
  ball << "\nFitted exponent of abs(apex error) ∝ k^p: p = " << Num(r.compliant_apex_exponent, 3) << ".\n";
  out.tables_markdown.push_back(ball.str());

  std::ostringstream table, csv;
  table << "Newton's cradle, touching beads (R = 5 mm, m = 4.1 g, Hertz E* = 1.15e11 Pa for the compliant runs), "
           "v₀ = 1 m/s, e = 1, h = 1e-7 s, t = 4e-4 s.\n\n"
        << "| beads | integrator | final velocities / v₀ | momentum drift | abs(E + D − E₀)/E₀ |\n|---|---|---|---|---|\n";
  csv << "beads,integrator,velocities,momentum_drift,energy_change\n" << std::setprecision(17);
  for (const auto& c : r.cradles) {
    std::string v;
    for (double x : c.velocities) v += (v.empty() ? "" : ", ") + Num(x);
    table << "| " << c.beads << " | " << c.integrator << " | (" << v << ") | " << Num(c.momentum_drift, 3) << " | "
          << Num(c.energy_change, 3) << " |\n";
    csv << c.beads << ',' << c.integrator << ",\"" << v << "\"," << c.momentum_drift << ',' << c.energy_change << '\n';
  }
  out.tables_markdown.push_back(table.str());
  WriteFileAtomically(ctx.out_dir / "cradles.csv", csv.str());

  // Velocities vs time, one CSV and one figure per cradle size: every bead for Moreau–Jean (dashed) and velocity
  // Verlet (solid), the striker, the middle bead and the last bead for the other two schemes.
  for (int beads : {3, 5}) {
    const std::string name = "cradle" + std::to_string(beads) + "_velocities";
    std::ostringstream hist;
    hist << std::setprecision(10) << "t_us";
    std::vector<const NonsmoothPeersResults::CradleRun*> runs;
    for (const auto& c : r.cradles)
      if (c.beads == beads) runs.push_back(&c);
    for (const auto* c : runs)
      for (int i = 0; i < beads; ++i) hist << ',' << c->integrator << "_v" << i;
    hist << '\n';
    const size_t rows = runs.empty() ? 0 : runs.front()->times.size();
    for (size_t k = 0; k < rows; ++k) {
      hist << runs.front()->times[k] * 1e6;
      for (const auto* c : runs)
        for (int i = 0; i < beads; ++i)
          hist << ',' << (k < c->history.size() ? c->history[k][static_cast<size_t>(i)] : std::nan(""));
      hist << '\n';
    }
    WriteFileAtomically(ctx.out_dir / (name + ".csv"), hist.str());
    FigureSpec f{name, "Newton's cradle, " + std::to_string(beads) + " beads: velocities vs time", "t [µs]",
                 "v / v0", false, false, {}};
    for (const auto* c : runs) {
      const bool all = c->integrator == "siconos_moreau_jean" || c->integrator == "velocity_verlet";
      for (int i = 0; i < beads; ++i) {
        if (!all && i != 0 && i != beads / 2 && i != beads - 1) continue;
        const std::string style = c->integrator == "siconos_moreau_jean"    ? "--"
                                  : c->integrator == "siconos_event_driven" ? ":"
                                  : c->integrator == "velocity_verlet"      ? "-"
                                                                            : "-.";
        f.series.push_back({name + ".csv", "t_us", c->integrator + "_v" + std::to_string(i),
                            c->integrator + " bead " + std::to_string(i), style});
      }
    }
    WriteFigureSpec(ctx.out_dir, f);
    out.figures.push_back(name + ".png");
  }

  // (c) oblique impact
  std::ostringstream ob, obcsv;
  ob << "Oblique sphere–wall impact with Coulomb friction (Thornton et al. 2013's sphere: R = 25 mm, E = 70 GPa, "
        "ν = 0.3, ρ = 2650 kg/m³, 5 m/s; μ = "
     << r.oblique_mu << ", e_n = " << r.oblique_e
     << "). Rigid: Walton's closed form; MJ: siconos_moreau_jean (Newton–Coulomb, FC3D, h = 1e-5 s); compliant: "
        "Hertz + the Mindlin law, velocity Verlet at 1e-7 s. e_t = v_x⁺/v_x⁻, β = −v_s⁺/v_s⁻.\n\n"
     << "| θ [deg] | ψ | e_t rigid | e_t MJ | β rigid | β MJ |";
  obcsv << "theta_deg,psi,et_rigid,beta_rigid,et_mj,beta_mj";
  for (const auto& l : r.compliant_laws) {
    ob << " e_t " << l << " | β " << l << " |";
    obcsv << ",et_" << l << ",beta_" << l;
  }
  ob << "\n|---|---|---|---|---|---|";
  for (size_t k = 0; k < r.compliant_laws.size(); ++k) ob << "---|---|";
  ob << '\n';
  obcsv << '\n' << std::setprecision(17);
  for (const auto& row : r.oblique) {
    ob << "| " << Num(row.theta_deg) << " | " << Num(row.psi, 4) << " | " << Num(row.et_rigid, 6) << " | "
       << Num(row.et_mj, 6) << " | " << Num(row.beta_rigid, 6) << " | " << Num(row.beta_mj, 6) << " |";
    obcsv << row.theta_deg << ',' << row.psi << ',' << row.et_rigid << ',' << row.beta_rigid << ',' << row.et_mj << ','
          << row.beta_mj;
    for (size_t k = 0; k < r.compliant_laws.size(); ++k) {
      ob << ' ' << Num(row.et_compliant[k], 6) << " | " << Num(row.beta_compliant[k], 6) << " |";
      obcsv << ',' << row.et_compliant[k] << ',' << row.beta_compliant[k];
    }
    ob << '\n';
    obcsv << '\n';
  }
  out.tables_markdown.push_back(ob.str());
  WriteFileAtomically(ctx.out_dir / "oblique_impact.csv", obcsv.str());
  for (const auto& [column, label] : std::vector<std::pair<std::string, std::string>>{{"beta", "β = −v_s⁺/v_s⁻"},
                                                                                       {"et", "e_t = v_x⁺/v_x⁻"}}) {
    FigureSpec f{"oblique_" + column + "_vs_psi", "Oblique sphere-wall impact: " + label + " vs ψ", "ψ = 7/2 μ(1+e)|cot θ|",
                 label, true, false, {}};
    f.series.push_back({"oblique_impact.csv", "psi", column + "_rigid", "rigid theory (Walton)", "k-"});
    f.series.push_back({"oblique_impact.csv", "psi", column + "_mj", "siconos_moreau_jean", "rs"});
    const char* styles[] = {"bo--", "g^--"};
    for (size_t k = 0; k < r.compliant_laws.size(); ++k)
      f.series.push_back({"oblique_impact.csv", "psi", column + "_" + r.compliant_laws[k],
                          r.compliant_laws[k] + " (velocity_verlet)", styles[k % 2]});
    WriteFigureSpec(ctx.out_dir, f);
    out.figures.push_back(f.name + ".png");
  }
}

}  // namespace

NonsmoothPeersResults ComputeNonsmoothPeers(const StudyContext& ctx) {
  NonsmoothPeersResults r;
  ctx.progress("ball: event-driven");
  ComputeEventDrivenBall(r);
  ctx.progress("ball: Moreau-Jean ladder");
  ComputeMoreauJeanBall(r);
  ctx.progress("ball: compliant, k = 1e4, 1e6, 1e8");
  ComputeCompliantBall(r);
  ComputeCradles(r, ctx);
  ComputeOblique(r, ctx);
  return r;
}

std::vector<Claim> NonsmoothPeersClaims(const NonsmoothPeersResults& r) {
  std::vector<Claim> claims;
  const std::string law = "Newton's impact law; Acary & Brogliato 2008 ch. 8";
  const double ratio = r.ed_ratio_errors.empty() ? std::nan("")
                                                 : *std::max_element(r.ed_ratio_errors.begin(), r.ed_ratio_errors.end());
  claims.push_back(MakeClaim("nonsmooth.ed.ball_ratio", "event-driven ball: max abs(v+/v- + e) over 3 impacts", law,
                             std::nullopt, ratio, 1e-12));
  claims.push_back(MakeClaim("nonsmooth.ed.ball_impacts", "event-driven ball: number of impacts in 3 flights", law, 3.0,
                             static_cast<double>(r.ed_ratio_errors.size()), 0.0));
  const double times = r.ed_time_errors.empty() ? std::nan("")
                                                : *std::max_element(r.ed_time_errors.begin(), r.ed_time_errors.end());
  claims.push_back(MakeClaim("nonsmooth.ed.ball_times", "event-driven ball: max abs(t - t_exact) of the impacts [s] "
                             "(LSODAR rtol 1e-10)", law, std::nullopt, times, 1e-8));
  claims.push_back(MakeClaim("nonsmooth.mj.apex_order", "Moreau-Jean ball: measured order of the apex heights",
                             "Jean 1999; Acary & Brogliato 2008 §10.1 (first order through impacts)", 1.0,
                             r.mj_apex_order, 0.3));
  claims.push_back(MakeClaim("nonsmooth.compliant.apex_exponent",
                             "compliant ball (velocity Verlet): exponent p of abs(first apex - rigid) ~ k^p, k = 1e4..1e8",
                             "rigid limit: gravity acts over the contact time t_c ~ k^-1/2 (docs/nonsmooth-peers.md)",
                             -0.5, r.compliant_k.empty() ? std::nan("") : r.compliant_apex_exponent, 0.1));
  for (const auto& c : r.cradles) {
    const std::string id = "nonsmooth.cradle" + std::to_string(c.beads) + "." + c.integrator;
    claims.push_back(MakeClaim(id + ".momentum", "cradle " + std::to_string(c.beads) + " beads, " + c.integrator +
                               ": relative momentum drift", "isolated system", std::nullopt, c.momentum_drift, 1e-12));
    const bool rigid = c.integrator.rfind("siconos_", 0) == 0;
    if (!rigid) continue;
    const double n = static_cast<double>(c.beads);
    // Simultaneous-impact LCP at e = 1: striker 1 − 2·(N−1)/N … = (2 − N)/N, the others 2/N.
    for (int i = 0; i < c.beads; ++i) {
      const double expected = i == 0 ? (2.0 - n) / n : 2.0 / n;
      claims.push_back(MakeClaim(id + ".v" + std::to_string(i), "cradle: final velocity of bead " + std::to_string(i) +
                                 " / v0 (simultaneous-impact LCP)", "Acary & Brogliato 2008 §10.1; Brogliato 2016 §6",
                                 expected, i < static_cast<int>(c.velocities.size()) ? c.velocities[static_cast<size_t>(i)]
                                                                                     : std::nan(""), 1e-9));
    }
  }
  // (c) oblique impact
  double mj_et = 0.0, mj_beta = 0.0, mj_en = 0.0;
  for (const auto& row : r.oblique) {
    mj_et = std::max(mj_et, std::abs(row.et_mj - row.et_rigid));
    mj_beta = std::max(mj_beta, std::abs(row.beta_mj - row.beta_rigid));
    mj_en = std::max(mj_en, std::abs(row.en_mj - r.oblique_e));
    if (std::isnan(row.et_mj) || std::isnan(row.beta_mj)) mj_et = mj_beta = std::nan("");
  }
  const std::string walton = "Walton 1993 / Brach 1991 rigid Newton-Coulomb impact (docs/nonsmooth-peers.md)";
  claims.push_back(MakeClaim("nonsmooth.oblique.mj_et", "oblique impact: max abs(e_t MJ - e_t rigid) over the angles",
                             walton, std::nullopt, r.oblique.empty() ? std::nan("") : mj_et, 1e-10));
  claims.push_back(MakeClaim("nonsmooth.oblique.mj_beta", "oblique impact: max abs(beta MJ - beta rigid) over the angles",
                             walton, std::nullopt, r.oblique.empty() ? std::nan("") : mj_beta, 1e-10));
  claims.push_back(MakeClaim("nonsmooth.oblique.mj_en", "oblique impact: max abs(e_n MJ - e) over the angles",
                             "Newton's impact law", std::nullopt, r.oblique.empty() ? std::nan("") : mj_en, 1e-12));
  for (size_t k = 0; k < r.compliant_laws.size(); ++k) {
    const std::string& law = r.compliant_laws[k];
    // Gross sliding (ψ ≤ 0.8): F_t = μ F_n throughout, so the tangential impulse is μ m (1 + e) v_n whatever the
    // compliance: only velocity Verlet's error (O(dt²)) separates the compliant from the rigid answer.
    double sliding = 0.0, reversal = -1.0, normal = std::nan("");
    int sliding_rows = 0, stick_rows = 0;
    for (const auto& row : r.oblique) {
      if (row.psi <= 0.8) {
        sliding = std::max(sliding, std::abs(row.beta_compliant[k] - row.beta_rigid));
        if (std::isnan(row.beta_compliant[k])) sliding = std::nan("");
        ++sliding_rows;
      } else if (row.psi >= 1.0 && row.psi <= 5.0) {
        reversal = std::max(reversal, row.beta_compliant[k] - row.beta_rigid);
        ++stick_rows;
      }
      if (row.psi > 20.0) normal = row.et_compliant[k] - row.et_rigid;
    }
    claims.push_back(MakeClaim("nonsmooth.oblique." + law + ".sliding_beta",
                               "oblique impact, gross sliding (psi <= 0.8): max abs(beta compliant - beta rigid), " + law,
                               "Maw, Barber & Fawcett 1981 (compliant = rigid in gross sliding)", std::nullopt,
                               sliding_rows ? sliding : std::nan(""), 1e-4));
    claims.push_back(MakeClaim("nonsmooth.oblique." + law + ".stick_reversal",
                               "oblique impact, rigid sticking (1 <= psi <= 5): max(beta compliant - beta rigid) "
                               "as 0.1 - that (<= 0: tangential compliance reverses the slip by at least 0.1), " + law,
                               "Maw, Barber & Fawcett 1981 (tangential compliance: beta > 0 where rigid theory sticks)",
                               std::nullopt, stick_rows ? 0.1 - reversal : std::nan(""), 0.0));
    if (!std::isnan(normal))
      claims.push_back(MakeClaim("nonsmooth.oblique." + law + ".near_normal_et",
                                 "oblique impact, psi > 20: 0.1 - (e_t compliant - e_t rigid 5/7) (<= 0: elastic tangential rebound), " + law,
                                 "Maw, Barber & Fawcett 1981 (near-normal incidence: elastic tangential rebound)",
                                 std::nullopt, 0.1 - normal, 0.0));
  }
  return claims;
}

StudyResult NonsmoothPeersStudy::Run(const StudyContext& ctx) const {
  const NonsmoothPeersResults r = ComputeNonsmoothPeers(ctx);
  StudyResult result;
  result.claims = NonsmoothPeersClaims(r);
  Render(r, ctx, result);
  result.narrative =
      "The rigid schemes give the simultaneous-impact answer of one LCP over all closed contacts; the compliant "
      "Hertz chain transmits the wave and ends near (0, ..., 0, 1). See docs/nonsmooth-peers.md.";
  return result;
}

}  // namespace impactlab
