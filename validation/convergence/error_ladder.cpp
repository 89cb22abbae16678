#include "convergence/error_ladder.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

#include "convergence/exact_convergence.h"
#include "convergence/order_fit.h"
#include "convergence/reference_spec.h"
#include "core/errors.h"
#include "io/resumable_table.h"
#include "observe/energy_ledger.h"
#include "registry/registries.h"
#include "run/scenario_runner.h"

namespace impactlab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct ToleranceInfo {
  std::string rtol_key, atol_key;
  double rtol_default, atol_default;
};

std::optional<ToleranceInfo> FindToleranceInfo(const std::string& integrator) {
  // Keys and defaults of validation/registry/registries.cpp (OdeintRungeKutta::Options, CvodeBdf::Options).
  if (integrator == "dopri5" || integrator == "rkf78") return ToleranceInfo{"rk_rtol", "rk_atol", 1e-10, 1e-12};
  if (integrator == "cvode_bdf") return ToleranceInfo{"cvode_rtol", "cvode_atol", 1e-10, 1e-14};
  // LSODAR between the events of Siconos' event-driven scheme (registered only with Siconos).
  if (integrator == "siconos_event_driven") return ToleranceInfo{"siconos_rtol", "siconos_atol", 1e-10, 1e-12};
  return std::nullopt;
}

std::string Num(double x) { return FormatShortest(x); }

void Set(Scenario& sc, const std::string& key, double value) { ApplyOverride(sc, key + "=" + Num(value)); }

double ValueOr(const Scenario& sc, const std::string& key, double fallback) {
  const auto& v = sc.parameters.values();
  const auto it = v.find(key);
  if (it == v.end()) return fallback;
  if (const auto* d = std::get_if<double>(&it->second)) return *d;
  return fallback;
}

/// Number of equally spaced sample times t_k = k t_end / n (k = 1..n) of the "trajectory" metric.
constexpr int kTrajectorySamples = 20;

/// Records the state at the sample times: the integrator's dense output inside the step where it has one,
/// else the cubic Hermite interpolant of the step end points (integrators/simulation.h, O(h⁴)).
class TrajectorySampler final : public StepObserver {
 public:
  TrajectorySampler(const Integrator& integrator, double t_end) : integrator_(integrator) {
    for (int k = 1; k <= kTrajectorySamples; ++k) times_.push_back(t_end * k / kTrajectorySamples);
  }
  void OnStart(const MechanicalSystem&, const MechanicalState& s) override {
    previous_ = s;
    next_ = 0;
    q_.clear();
    v_.clear();
  }
  void OnStep(const MechanicalSystem& system, const MechanicalState& s) override {
    while (next_ < times_.size() && times_[next_] <= s.t * (1.0 + 1e-14)) {
      const double t = times_[next_++];
      if (t >= s.t) {
        q_.push_back(s.q);
        v_.push_back(s.v);
        continue;
      }
      const auto dense = integrator_.Interpolate(system, t);
      const MechanicalState x = dense ? *dense : HermiteInterpolate(system, previous_, s, t);
      q_.push_back(x.q);
      v_.push_back(x.v);
    }
    previous_ = s;
  }
  std::vector<Eigen::VectorXd> q_, v_;

 private:
  const Integrator& integrator_;
  std::vector<double> times_;
  size_t next_ = 0;
  MechanicalState previous_;
};

struct OneRun {
  nlohmann::json summary;
  Eigen::VectorXd q0, v0, q, v;
  std::vector<Eigen::VectorXd> q_samples, v_samples;  ///< at t_k = k t_end / kTrajectorySamples
  double wall_time_s = 0.0;
  long steps = 0, rhs_evaluations = 0;
  double energy_initial = 0.0, energy_final = 0.0;  ///< E = T + V [J]
  std::string failure;
  bool unstable = false, above_stability = false;
};

OneRun RunOne(const Scenario& sc, const std::string& integrator, double grid_offset = 0.0) {
  RunRequest req;
  req.scenario = sc;
  req.integrators = {integrator};
  PreparedRun pr = PrepareScenarioRun(req);
  pr.options.grid_offset = grid_offset;
  const MechanicalSystem& system = *pr.model.system;
  Integrator& integ = *pr.integrators.front();
  const MechanicalState s0 = system.InitialState();
  EnergyLedger ledger;
  TrajectorySampler sampler(integ, pr.options.t_end);
  const SimulationRecord rec = Simulate(system, integ, s0, pr.options, {&ledger, &sampler});
  OneRun r;
  r.q_samples = std::move(sampler.q_);
  r.v_samples = std::move(sampler.v_);
  pr.model.summarize(RunOutcome{rec, ledger}, r.summary);
  r.q0 = s0.q;
  r.v0 = s0.v;
  r.q = rec.final_state.q;
  r.v = rec.final_state.v;
  r.wall_time_s = rec.wall_time_s;
  r.steps = rec.steps;
  r.rhs_evaluations = rec.statistics.rhs_evaluations;
  r.failure = rec.failure;
  const double e0 = ledger.initial_energy(), scale = std::abs(e0) > 0 ? std::abs(e0) : 1.0;
  r.energy_initial = e0;
  r.energy_final = system.TotalEnergy(rec.final_state);
  r.unstable = (r.energy_final - e0) / scale > kUnstableGrowth;
  if (r.summary.contains("restitution") && r.summary["restitution"].is_number())
    r.unstable = r.unstable || r.summary["restitution"].get<double>() > 1.0 + kUnstableGrowth;
  if (const auto crit = system.CriticalTimeStep(s0))
    r.above_stability = IsConditionallyStable(integ.traits()) && pr.options.dt > *crit;
  return r;
}

double MetricError(const std::string& metric, const OneRun& a, const OneRun& ref) {
  if (!a.failure.empty() || !ref.failure.empty()) return kNaN;
  if (metric == "final_state") {
    if (a.q.size() != ref.q.size() || a.v.size() != ref.v.size() || ref.q.size() == 0) return kNaN;
    const double Q = std::max({ref.q.lpNorm<Eigen::Infinity>(), ref.q0.lpNorm<Eigen::Infinity>(), 1e-300});
    const double V = std::max({ref.v.lpNorm<Eigen::Infinity>(), ref.v0.lpNorm<Eigen::Infinity>(), 1e-300});
    return std::max((a.q - ref.q).lpNorm<Eigen::Infinity>() / Q, (a.v - ref.v).lpNorm<Eigen::Infinity>() / V);
  }
  if (metric == "trajectory") {
    if (a.q_samples.size() != ref.q_samples.size() || ref.q_samples.empty()) return kNaN;
    double q_scale = ref.q0.lpNorm<Eigen::Infinity>(), v_scale = ref.v0.lpNorm<Eigen::Infinity>();
    for (size_t k = 0; k < ref.q_samples.size(); ++k) {
      q_scale = std::max(q_scale, ref.q_samples[k].lpNorm<Eigen::Infinity>());
      v_scale = std::max(v_scale, ref.v_samples[k].lpNorm<Eigen::Infinity>());
    }
    q_scale = std::max(q_scale, 1e-300);
    v_scale = std::max(v_scale, 1e-300);
    double e = 0.0;
    for (size_t k = 0; k < ref.q_samples.size(); ++k) {
      if (a.q_samples[k].size() != ref.q_samples[k].size()) return kNaN;
      e = std::max({e, (a.q_samples[k] - ref.q_samples[k]).lpNorm<Eigen::Infinity>() / q_scale,
                    (a.v_samples[k] - ref.v_samples[k]).lpNorm<Eigen::Infinity>() / v_scale});
    }
    return e;
  }
  if (metric == "energy") {
    const double scale = std::abs(ref.energy_initial) > 0.0 ? std::abs(ref.energy_initial) : 1.0;
    return std::abs(a.energy_final - ref.energy_final) / scale;
  }
  if (!a.summary.contains(metric) || !ref.summary.contains(metric) || !a.summary[metric].is_number() ||
      !ref.summary[metric].is_number())
    return kNaN;
  const double x = a.summary[metric].get<double>(), xr = ref.summary[metric].get<double>();
  if (metric == "restitution") return std::abs(x - xr);
  if (!(std::abs(xr) > 0.0)) return kNaN;
  return std::abs(x - xr) / std::abs(xr);
}

Scenario Base(const Scenario& scenario) {
  Scenario sc = scenario;
  Set(sc, "stop_after_separation", 0.0);  // every run ends at t_end: final states are comparable
  return sc;
}

std::string DefaultReference(const Scenario& sc, const LadderOptions& o) {
  try {
    const ModelInstance m = ModelRegistry().Get(sc.model).make(sc.parameters);
    (void)MakeExactReference(*m.system);
    return "exact";
  } catch (const InvalidParameter&) {
  }
  double dt_min = ValueOr(sc, "dt", 1e-3);
  for (double d : o.dts) dt_min = std::min(dt_min, d);
  return "rk4:dt=" + Num(dt_min / 8.0);
}

std::vector<double> SortedDescending(std::vector<double> x) {
  std::sort(x.begin(), x.end(), std::greater<>());
  return x;
}

}  // namespace

std::pair<std::string, std::string> ToleranceKeys(const std::string& integrator) {
  const auto info = FindToleranceInfo(integrator);
  if (!info)
    throw InvalidParameter("--integrator", "\"" + integrator + "\"",
                           "an adaptive integrator with a tolerance ladder: dopri5, rkf78, cvode_bdf, siconos_event_driven");
  return {info->rtol_key, info->atol_key};
}

void CheckErrorLadder(const Scenario& scenario, const LadderOptions& o) {
  if (o.integrators.empty()) throw InvalidParameter("--integrator", "(none)", "at least one integrator");
  if (o.repeats < 1 || o.repeats > 1000) throw InvalidParameter("--repeats", o.repeats, "an integer in [1, 1000]");
  if (o.grid_shifts < 1 || o.grid_shifts > 64) throw InvalidParameter("--grid-shifts", o.grid_shifts, "an integer in [1, 64]");
  bool any_fixed = false, any_adaptive = false;
  const Scenario sc = Base(scenario);
  for (const auto& n : o.integrators) {
    const auto traits = IntegratorRegistry().Get(n).make(sc.parameters)->traits();
    if (traits.adaptive) {
      (void)ToleranceKeys(n);
      any_adaptive = true;
    } else {
      any_fixed = true;
    }
  }
  for (double d : o.dts)
    if (!(d > 0.0 && std::isfinite(d))) throw InvalidParameter("dt ladder", d, "> 0 and finite [s]");
  for (double t : o.tolerances)
    if (!(t > 0.0 && t < 1.0)) throw InvalidParameter("tolerance ladder", t, "in (0, 1)");
  if (any_fixed && o.dts.size() < 3) throw InvalidParameter("--levels", static_cast<double>(o.dts.size()), ">= 3 steps for a fixed-step scheme");
  if (any_adaptive && o.tolerances.size() < 3)
    throw InvalidParameter("--levels", static_cast<double>(o.tolerances.size()), ">= 3 tolerances for an adaptive scheme");
  for (const auto& m : o.metrics)
    if (m.empty()) throw InvalidParameter("--metric", "\"\"", "final_state, energy, trajectory or a numeric key of the run summary");
  // The scenario itself (every key known), and one trial step of each integrator: a scheme that cannot
  // handle the model (e.g. a conserving scheme needing ConstantMassSystem) says so now, not after the
  // reference and the other ladders have run.
  RunRequest req;
  req.scenario = sc;
  req.integrators = o.integrators;
  PreparedRun prepared = PrepareScenarioRun(req);
  for (auto& integrator : prepared.integrators) {
    MechanicalState s = prepared.model.system->InitialState();
    integrator->Reset();
    try {
      (void)integrator->Step(*prepared.model.system, s, prepared.options.dt);
    } catch (const StepFailure&) {
      // a numerical failure of the trial step is the ladder's business (marked "failed" per point)
    }
  }
  const ReferenceSpec ref = ParseReferenceSpec(o.reference.empty() ? DefaultReference(sc, o) : o.reference);
  RunRequest rr;
  rr.scenario = ReferenceScenario(sc, ref);
  rr.integrators = {ref.integrator};
  (void)PrepareScenarioRun(rr);
}

nlohmann::json RunErrorLadder(const Scenario& scenario, const LadderOptions& o) {
  CheckErrorLadder(scenario, o);
  const Scenario sc = Base(scenario);
  const std::string ref_text = o.reference.empty() ? DefaultReference(sc, o) : o.reference;
  const ReferenceSpec ref_spec = ParseReferenceSpec(ref_text);
  const Scenario ref_sc = ReferenceScenario(sc, ref_spec);
  const auto ref_traits = IntegratorRegistry().Get(ref_spec.integrator).make(ref_sc.parameters)->traits();

  // ---- reference, Richardson-checked ----
  if (o.progress) o.progress("reference " + ref_text + " ...");
  OneRun ref = RunOne(ref_sc, ref_spec.integrator);
  if (!ref.failure.empty()) throw StepFailure("reference " + ref_text + " did not reach t_end: " + ref.failure);
  std::optional<OneRun> coarse;  // the Richardson partner (ref is the finer run)
  std::string richardson;
  if (ref_spec.integrator == "exact") {
    richardson = "exact solution (round-off only)";
  } else if (ref_traits.adaptive) {
    const auto info = FindToleranceInfo(ref_spec.integrator);
    if (info) {
      Scenario finer = ref_sc;
      Set(finer, info->rtol_key, ValueOr(ref_sc, info->rtol_key, info->rtol_default) / 100.0);
      Set(finer, info->atol_key, ValueOr(ref_sc, info->atol_key, info->atol_default) / 100.0);
      coarse = std::move(ref);
      ref = RunOne(finer, ref_spec.integrator);
      richardson = "rerun at tolerances / 100; error estimate = |R(tol) - R(tol/100)|";
    }
  } else {
    Scenario finer = ref_sc;
    Set(finer, "dt", ValueOr(ref_sc, "dt", 0.0) / 2.0);
    coarse = std::move(ref);
    ref = RunOne(finer, ref_spec.integrator);
    // |R(h) − R(h/2)| bounds the error of R(h/2) for any order ≥ 1; the declared order is not trusted
    // (contact non-smoothness reduces it, docs/convergence.md), so no (2^p − 1) divisor.
    richardson = "rerun at dt / 2; error estimate = |R(h) - R(h/2)| (a bound for any order >= 1)";
  }
  if (!ref.failure.empty()) throw StepFailure("reference " + ref_text + " did not reach t_end: " + ref.failure);

  std::vector<std::string> metrics = o.metrics;
  if (metrics.empty()) {
    metrics.push_back("final_state");
    for (const char* k : {"restitution", "max_overlap", "contact_duration"})
      if (ref.summary.contains(k) && ref.summary[k].is_number()) metrics.push_back(k);
  }
  nlohmann::json j;
  j["scenario"] = scenario.path;
  j["model"] = scenario.model;
  j["t_end"] = ValueOr(sc, "t_end", kNaN);
  j["metrics"] = metrics;
  j["repeats"] = o.repeats;
  std::map<std::string, double> floor;
  nlohmann::json est = nlohmann::json::object();
  for (const auto& m : metrics) {
    const double e = coarse ? MetricError(m, *coarse, ref) : 0.0;
    est[m] = std::isfinite(e) ? nlohmann::json(e) : nlohmann::json(nullptr);
    floor[m] = std::max(kLadderRoundOffFloor, std::isfinite(e) ? kLadderReferenceMargin * e : 0.0);
    if (!ref.summary.contains(m) && m != "final_state" && m != "energy" && m != "trajectory")
      throw InvalidParameter("--metric", "\"" + m + "\"",
                             "final_state, energy, trajectory or a numeric key of the run summary of model \"" + scenario.model + "\"");
  }
  j["reference"] = {{"name", ref_text}, {"integrator", ref_spec.integrator}, {"richardson_check", richardson},
                    {"error_estimate", est}, {"wall_time_s", ref.wall_time_s}, {"steps", ref.steps}};
  j["floor"] = floor;

  // ---- ladders ----
  j["series"] = nlohmann::json::array();
  for (const auto& name : o.integrators) {
    const auto traits = IntegratorRegistry().Get(name).make(sc.parameters)->traits();
    nlohmann::json s;
    s["integrator"] = name;
    s["adaptive"] = traits.adaptive;
    s["ladder"] = traits.adaptive ? "tolerance" : "dt";
    s["declared_order"] = traits.order;
    s["grid_shifts"] = traits.adaptive ? 1 : o.grid_shifts;
    s["points"] = nlohmann::json::array();
    const std::vector<double> xs = SortedDescending(traits.adaptive ? o.tolerances : o.dts);
    std::map<std::string, std::vector<double>> errs;
    std::map<std::string, std::vector<bool>> use;
    for (double x : xs) {
      Scenario run_sc = sc;
      if (traits.adaptive) {
        const auto info = *FindToleranceInfo(name);
        const double ratio = sc.parameters.Has(info.rtol_key) && sc.parameters.Has(info.atol_key)
                                 ? ValueOr(sc, info.atol_key, 0.0) / ValueOr(sc, info.rtol_key, 1.0)
                                 : info.atol_default / info.rtol_default;
        Set(run_sc, info.rtol_key, x);
        Set(run_sc, info.atol_key, x * ratio);
      } else {
        Set(run_sc, "dt", x);
      }
      std::vector<OneRun> runs;
      for (int k = 0; k < o.repeats; ++k) runs.push_back(RunOne(run_sc, name));
      std::vector<double> walls;
      for (const auto& r : runs) walls.push_back(r.wall_time_s);
      std::sort(walls.begin(), walls.end());
      const size_t n = walls.size();
      const double median = n % 2 ? walls[n / 2] : 0.5 * (walls[n / 2 - 1] + walls[n / 2]);
      // Grid shifts (fixed-step schemes): the same dt on K grids offset by k·dt/K; the error of the point is the
      // largest over the K runs, so its order is that of the error bound whatever the event phases.
      const int shifts = traits.adaptive ? 1 : o.grid_shifts;
      std::vector<const OneRun*> shifted = {&runs.front()};
      std::vector<OneRun> extra;
      extra.reserve(shifts);
      for (int k = 1; k < shifts; ++k) {
        extra.push_back(RunOne(run_sc, name, double(k) / shifts));
        shifted.push_back(&extra.back());
      }
      const OneRun& r = runs.front();
      const OneRun* worst_status = &r;
      for (const OneRun* rs : shifted)
        if (worst_status->failure.empty() && (!rs->failure.empty() || (rs->unstable && !worst_status->unstable)))
          worst_status = rs;
      const std::string status = !worst_status->failure.empty() ? "failed" : worst_status->unstable ? "unstable" : "ok";
      nlohmann::json pt;
      pt["x"] = x;
      pt["wall_time_s"] = median;
      pt["wall_time_min_s"] = walls.front();
      pt["wall_time_max_s"] = walls.back();
      pt["steps"] = r.steps;
      pt["rhs_evaluations"] = r.rhs_evaluations;
      pt["above_stability"] = r.above_stability;
      pt["status"] = status;
      if (!worst_status->failure.empty()) pt["failure"] = worst_status->failure;
      pt["errors"] = nlohmann::json::object();
      pt["excluded"] = nlohmann::json::object();
      if (shifts > 1) {
        pt["grid_shifts"] = shifts;
        pt["errors_by_shift"] = nlohmann::json::object();
      }
      for (const auto& m : metrics) {
        double e = 0.0;
        nlohmann::json by_shift = nlohmann::json::array();
        for (const OneRun* rs : shifted) {
          const double ek = MetricError(m, *rs, ref);
          by_shift.push_back(std::isfinite(ek) ? nlohmann::json(ek) : nlohmann::json(nullptr));
          e = std::isfinite(ek) && std::isfinite(e) ? std::max(e, ek) : kNaN;
        }
        if (shifts > 1) pt["errors_by_shift"][m] = by_shift;
        std::string why;
        if (r.above_stability) why = "above_stability";  // the cause, when the run also went unstable
        else if (status != "ok") why = status;
        else if (!std::isfinite(e)) why = "undefined";
        else if (e < floor[m]) why = "at_floor";
        pt["errors"][m] = std::isfinite(e) ? nlohmann::json(e) : nlohmann::json(nullptr);
        pt["excluded"][m] = why.empty() ? nlohmann::json(nullptr) : nlohmann::json(why);
        errs[m].push_back(e);
        use[m].push_back(why.empty());
      }
      if (o.progress) {
        std::ostringstream os;
        os << name << " " << (traits.adaptive ? "tol" : "dt") << " = " << Num(x) << ": " << status;
        for (const auto& m : metrics) os << ", " << m << " " << pt["errors"][m].dump();
        os << ", " << median << " s";
        o.progress(os.str());
      }
      s["points"].push_back(pt);
    }
    s["fit"] = nlohmann::json::object();
    for (const auto& m : metrics) {
      const auto f = FitOrder(xs, errs[m], use[m]);
      s["fit"][m] = f ? nlohmann::json{{"order", f->order}, {"standard_error", f->standard_error},
                                       {"ci95", {f->ci95_low, f->ci95_high}}, {"points", f->points}}
                      : nlohmann::json(nullptr);
    }
    j["series"].push_back(s);
  }
  return j;
}

}  // namespace impactlab
