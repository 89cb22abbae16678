#include "bench/model_benchmarks.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>

#include "core/errors.h"
#include "exact/critical_time_step.h"
#include "models/particle_assembly.h"
#include "registry/registries.h"
#include "scenario/scenario.h"
#include "system/power_law_oscillator_structure.h"

namespace impactlab::bench {
namespace {

/// Above this many unknowns (q and v) an integrator with IntegratorTraits::dense_matrices is not timed: its dense
/// n × n matrices cost O(n²) memory and O(n³) time per factorisation (Siconos on the 10⁴-bead chain: hours per step,
/// docs/performance.md).
constexpr Eigen::Index kMaxDenseSolverUnknowns = 2000;

std::string SourcePath(const std::string& relative) {
  return (std::filesystem::path(IMPACTLAB_SOURCE_DIR) / relative).string();
}

Scenario LoadWithOverrides(const BenchModel& model) {
  Scenario sc = LoadScenario(SourcePath(model.scenario));
  for (const auto& o : model.overrides) ApplyOverride(sc, o);
  return sc;
}

/// Advances `steps` steps from `initial` (copied into `s`, whose storage is reused: model set-up is not
/// timed); returns steps. Throws StepFailure on a rejected step.
long StepLoop(const MechanicalSystem& sys, Integrator& integrator, double dt, long steps, const MechanicalState& initial,
              MechanicalState& s) {
  integrator.Reset();
  s.AssignFrom(initial);
  for (long i = 0; i < steps; ++i) {
    const StepResult r = integrator.Step(sys, s, dt);
    if (r.status != StepStatus::kAccepted)
      throw StepFailure(integrator.name() + ": step " + std::to_string(i) + " rejected: " + r.message);
  }
  return steps;
}

nlohmann::json TimeIntegratorOnModel(const MechanicalSystem& sys, const ParameterSet& p, const std::string& name,
                                     double dt, long steps, const TimingOptions& options) {
  std::unique_ptr<Integrator> integrator = IntegratorRegistry().Get(name).make(p);
  const IntegratorTraits traits = integrator->traits();
  const MechanicalState s0 = sys.InitialState();
  MechanicalState work;
  const Eigen::Index unknowns = s0.q.size() + s0.v.size();
  if (traits.dense_matrices && unknowns > kMaxDenseSolverUnknowns)
    return {{"skipped", "dense n x n matrices of the whole system (O(n^2) memory, O(n^3) per factorisation) with " +
                            std::to_string(unknowns) + " unknowns > " + std::to_string(kMaxDenseSolverUnknowns)}};
  try {
    integrator->ResetStatistics();
    (void)StepLoop(sys, *integrator, dt, steps, s0, work);  // also warms up workspaces
  } catch (const std::exception& e) {
    return {{"skipped", e.what()}};
  }
  const StepStatistics st = integrator->statistics();
  nlohmann::json r;
  r["rhs_per_step"] = static_cast<double>(st.rhs_evaluations) / static_cast<double>(steps);
  r["newton_iterations_per_step"] = static_cast<double>(st.newton_iterations) / static_cast<double>(steps);
  r["ns_per_step"] = TimePerItem([&] { return StepLoop(sys, *integrator, dt, steps, s0, work); }, options).ToJson();
  r["implicit"] = traits.implicit;
  return r;
}

}  // namespace

std::vector<BenchModel> DefaultBenchModels(bool quick) {
  const long f = quick ? 4 : 1;
  return {
      {"hertz_oscillator", "validation/scenarios/hertz_impact.toml", {"e=1"}, 2000 / f},
      {"ellipsoid_wall", "validation/scenarios/ellipsoid_wall.toml", {}, 2000 / f},
      {"sphere_wall_mindlin", "validation/scenarios/sphere_wall_kharaz.toml", {}, 2000 / f},
      {"chain_100", "validation/scenarios/hertz_chain.toml", {"num_beads=100"}, 200 / f},
      {"chain_10000", "validation/scenarios/hertz_chain.toml", {"num_beads=10000"}, 20 / f},
      {"efda_carom", "validation/scenarios/ellipse_box.toml", {}, 10000 / f},
  };
}

nlohmann::json RunModelBenchmarks(const std::vector<BenchModel>& models, const std::vector<std::string>& integrators,
                                  const TimingOptions& options, bool progress) {
  nlohmann::json out;
  for (const auto& m : models) {
    const Scenario sc = LoadWithOverrides(m);
    const ModelInstance model = ModelRegistry().Get(sc.model).make(sc.parameters);
    const double dt = sc.parameters.GetDouble("dt");
    nlohmann::json row;
    row["scenario"] = m.scenario;
    row["overrides"] = m.overrides;
    row["dt"] = dt;
    row["steps_per_call"] = m.steps;
    row["unknowns"] = model.system->InitialState().q.size() + model.system->InitialState().v.size();
    for (const auto& name : integrators) {
      if (progress) std::cerr << "bench: " << m.label << " / " << name << "\n";
      row["integrators"][name] = TimeIntegratorOnModel(*model.system, sc.parameters, name, dt, m.steps, options);
    }
    out[m.label] = row;
  }
  return out;
}

nlohmann::json RunSimoTarnowVsVerlet(const TimingOptions& options) {
  const BenchModel m{"hertz_oscillator", "validation/scenarios/hertz_impact.toml", {"e=1"}, 200};
  const Scenario sc = LoadWithOverrides(m);
  const ModelInstance model = ModelRegistry().Get(sc.model).make(sc.parameters);
  const auto* structure = dynamic_cast<const PowerLawOscillatorStructure*>(model.system.get());
  if (!structure) throw InvalidParameter("model", sc.model, "a power-law oscillator");
  const auto law = structure->PowerLawOscillator(nullptr);
  if (!law) throw InvalidParameter("model", sc.model, "a power-law oscillator without gravity");
  const double v0 = -model.system->InitialState().v[0];
  const CriticalTimeStep crit = PowerLawCriticalTimeStep(law->mass, law->stiffness, law->exponent, v0);
  const double dt = crit.effective;
  // Steps covering one contact at this dt.
  const long steps = static_cast<long>(std::ceil(crit.steps_per_contact)) + 1;
  auto st = IntegratorRegistry().Get("simo_tarnow").make(sc.parameters);
  auto vv = IntegratorRegistry().Get("velocity_verlet").make(sc.parameters);
  const MechanicalState s0 = model.system->InitialState();
  MechanicalState work;
  st->ResetStatistics();
  (void)StepLoop(*model.system, *st, dt, steps, s0, work);
  const double newton_mean = static_cast<double>(st->statistics().newton_iterations) / static_cast<double>(steps);
  const RatioTiming r = TimeRatio([&] { return StepLoop(*model.system, *st, dt, steps, s0, work); },
                                  [&] { return StepLoop(*model.system, *vv, dt, steps, s0, work); }, options);
  return {{"problem", "undamped Hertz oscillator of hertz_impact.toml, dt = effective critical step, one contact"},
          {"dt", dt},
          {"steps", steps},
          {"timing", r.ToJson()},
          {"simo_tarnow_vs_verlet_ratio", r.ratio.median},
          {"simo_tarnow_newton_iterations_mean", newton_mean}};
}

nlohmann::json RunChainScaling(const std::vector<int>& sizes, ChainWorkload workload, const TimingOptions& options,
                               bool progress) {
  constexpr double kCompression = 1e-6;  // δ₀ [m] in every contact (R = 5 mm: F ≈ 7.7 N per contact)
  const bool compressed = workload == ChainWorkload::kCompressed;
  nlohmann::json out = nlohmann::json::object();
  for (const char* name : {"velocity_verlet", "simo_tarnow"}) {
    for (int n : sizes) {
      if (progress)
        std::cerr << "bench: chain N = " << n << " / " << name << (compressed ? " / compressed" : " / striker")
                  << "\n";
      const BenchModel m{"chain", "validation/scenarios/hertz_chain.toml", {"num_beads=" + std::to_string(n)},
                         compressed ? 200L : std::max(10L, 200000L / n)};
      const Scenario sc = LoadWithOverrides(m);
      const ModelInstance model = ModelRegistry().Get(sc.model).make(sc.parameters);
      auto integrator = IntegratorRegistry().Get(name).make(sc.parameters);
      const double dt = sc.parameters.GetDouble("dt");
      MechanicalState s0 = model.system->InitialState();
      if (compressed) {  // displacements from the touching lattice: δ_i = u_i − u_{i+1} = δ₀
        for (int i = 0; i < n; ++i) s0.q[i] = -kCompression * i;
        s0.v.setZero();
      }
      MechanicalState work;
      integrator->ResetStatistics();
      (void)StepLoop(*model.system, *integrator, dt, m.steps, s0, work);  // warm-up (workspaces, caches)
      const double newton_per_step =
          static_cast<double>(integrator->statistics().newton_iterations) / static_cast<double>(m.steps);
      const Spread s =
          TimePerItem([&] { return StepLoop(*model.system, *integrator, dt, m.steps, s0, work) * n; }, options);
      nlohmann::json row = s.ToJson();
      row["steps"] = m.steps;
      row["newton_iterations_per_step"] = newton_per_step;  // the same at every N = the same work per bead
      out[name][std::to_string(n)] = row;
    }
  }
  return out;
}

nlohmann::json RunDiskCloudScaling(const std::vector<int>& sizes, const TimingOptions& options, bool progress) {
  nlohmann::json out = nlohmann::json::object();
  std::map<int, Eigen::VectorXd> final_q;  // like for like: both paths must end in the same state, bit for bit
  for (const bool cells : {true, false}) {
    const char* label = cells ? "cell_list" : "all_pairs";
    for (int n : sizes) {
      if (progress) std::cerr << "bench: disk_cloud N = " << n << " / velocity_verlet / " << label << "\n";
      const BenchModel m{"disk_cloud", "validation/scenarios/disk_cloud.toml", {"num_disks=" + std::to_string(n)},
                         std::max(10L, 40000L / n)};
      const Scenario sc = LoadWithOverrides(m);
      const ModelInstance model = ModelRegistry().Get(sc.model).make(sc.parameters);
      const auto* assembly = dynamic_cast<const ParticleAssembly*>(model.system.get());
      if (!assembly) throw InvalidParameter("model", sc.model, "a particle assembly");
      // The registry built a non-const DiskCloud: switching its broad phase is legal (both paths are bitwise
      // identical, tests/models/disk_cloud_test.cpp).
      const_cast<ParticleAssembly*>(assembly)->set_broad_phase(cells);
      auto integrator = IntegratorRegistry().Get("velocity_verlet").make(sc.parameters);
      const double dt = sc.parameters.GetDouble("dt");
      const MechanicalState s0 = model.system->InitialState();
      MechanicalState work;
      (void)StepLoop(*model.system, *integrator, dt, m.steps, s0, work);  // warm-up
      const Spread s =
          TimePerItem([&] { return StepLoop(*model.system, *integrator, dt, m.steps, s0, work) * n; }, options);
      out[label][std::to_string(n)] = s.ToJson();
      if (cells)
        final_q[n] = work.q;
      else
        out["same_result"][std::to_string(n)] =
            final_q[n].size() == work.q.size() &&
            std::memcmp(final_q[n].data(), work.q.data(), sizeof(double) * static_cast<size_t>(work.q.size())) == 0;
    }
  }
  return out;
}

}  // namespace impactlab::bench
