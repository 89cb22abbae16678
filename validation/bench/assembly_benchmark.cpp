#include "bench/assembly_benchmark.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "bench/child_process.h"
#include "bench/lammps_peer.h"
#include "bench/timing.h"
#include "core/contact_threads.h"
#include "core/errors.h"
#include "models/sphere_assembly.h"
#include "registry/registries.h"
#include "scenario/scenario.h"

namespace impactlab::bench {
namespace {

using Clock = std::chrono::steady_clock;

std::string SourcePath(const std::string& relative) {
  return (std::filesystem::path(IMPACTLAB_SOURCE_DIR) / relative).string();
}

Scenario Load(const AssemblyCase& c) {
  Scenario sc = LoadScenario(SourcePath(c.scenario));
  for (const auto& o : c.overrides) ApplyOverride(sc, o);
  return sc;
}

void Advance(const MechanicalSystem& sys, Integrator& integrator, double dt, long steps, MechanicalState& s) {
  for (long i = 0; i < steps; ++i) {
    const StepResult r = integrator.Step(sys, s, dt);
    if (r.status != StepStatus::kAccepted)
      throw StepFailure(integrator.name() + ": step " + std::to_string(i) + " rejected: " + r.message);
  }
}

std::string LastLine(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}


/// `impactlab run SCENARIO --set ... --set t_end=steps·dt --integrator NAME --out DIR --quiet` as a child.
struct RunChildResult {
  ChildRun child;
  nlohmann::json run;  ///< runs[0] of summary.json (empty when the run failed)
  std::string error;
};

RunChildResult RunImpactlab(const AssemblyBenchOptions& o, const AssemblyCase& c, const std::string& integrator,
                            double dt, long steps, const std::filesystem::path& dir, const ChildLimits& limits) {
  RunChildResult r;
  std::filesystem::create_directories(dir);
  std::vector<std::string> argv = {o.impactlab_executable.string(), "run", SourcePath(c.scenario)};
  for (const auto& ov : c.overrides) argv.insert(argv.end(), {"--set", ov});
  std::ostringstream t_end;
  t_end.precision(17);
  t_end << "t_end=" << static_cast<double>(steps) * dt;
  argv.insert(argv.end(), {"--set", t_end.str(), "--integrator", integrator, "--out", (dir / "out").string(), "--quiet"});
  r.child = RunChild(argv, {"OMP_NUM_THREADS=1"}, dir, dir / "stdout.txt", dir / "stderr.txt", limits);
  if (!r.child.ok()) {
    r.error = !r.child.error.empty() ? r.child.error
              : r.child.timed_out    ? "timed out after " + std::to_string(static_cast<long>(std::ceil(limits.timeout_seconds))) + " s"
                                     : "exit " + std::to_string(r.child.exit_code) + ": " + LastLine(dir / "stderr.txt");
    return r;
  }
  std::ifstream in(dir / "out" / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in, nullptr, false);
  if (summary.is_discarded() || !summary.contains("runs") || summary["runs"].empty()) {
    r.error = "no summary.json";
    return r;
  }
  r.run = summary["runs"][0];
  return r;
}

/// Our final state against LAMMPS's after the same steps: kinetic energy (translation + rotation), largest overlap,
/// largest difference of a centre relative to the largest displacement from the start.
nlohmann::json CompareStates(const SphereAssembly& model, const MechanicalState& start, const MechanicalState& ours,
                             const LammpsResult& lammps) {
  MechanicalState theirs = ours;
  const int n = model.num_spheres();
  double max_diff = 0.0, max_move = 0.0;
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d x = ours.q.segment<3>(6 * i);
    max_diff = std::max(max_diff, (x - lammps.x[i]).norm());
    max_move = std::max(max_move, (x - start.q.segment<3>(6 * i)).norm());
    theirs.q.segment<3>(6 * i) = lammps.x[i];
    theirs.v.segment<3>(6 * i) = lammps.v[i];
    theirs.v.segment<3>(6 * i + 3) = lammps.omega[i];
  }
  // The forces at the start (translational: contact laws, walls, damping at v₀ and gravity; the tangential
  // springs are still unloaded): these must agree to round-off if the mapping is right.
  const MechanicalState initial = model.InitialState();
  Eigen::VectorXd a(initial.v.size());
  model.Acceleration(initial, a);
  double max_force = 0.0, max_force_diff = 0.0;
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d f = model.mass() * a.segment<3>(6 * i);
    max_force = std::max(max_force, f.norm());
    max_force_diff = std::max(max_force_diff, (f - lammps.initial_force[i]).norm());
  }
  const double ke_ours = model.KineticEnergy(ours), ke_lammps = model.KineticEnergy(theirs);
  const double overlap_ours = model.MaxOverlap(ours), overlap_lammps = model.MaxOverlap(theirs);
  return {{"initial_force_max_difference_over_max_force", max_force_diff / max_force},
          {"kinetic_energy_J", {{"ours", ke_ours}, {"lammps", ke_lammps}}},
          {"kinetic_energy_relative_difference", std::abs(ke_ours - ke_lammps) / ke_lammps},
          {"max_overlap_m", {{"ours", overlap_ours}, {"lammps", overlap_lammps}}},
          {"max_overlap_relative_difference", std::abs(overlap_ours - overlap_lammps) / overlap_lammps},
          {"max_centre_difference_m", max_diff},
          {"max_displacement_m", max_move},
          {"max_centre_difference_over_max_displacement", max_move > 0.0 ? max_diff / max_move : 0.0}};
}


/// `windows` runs of `steps` steps from `start` (the integrator reset and the state restored before each, untimed),
/// the last ending in `end`: ns per particle-step over all of them. Every window does the same work.
double TimeSteps(const MechanicalSystem& model, Integrator& integrator, const MechanicalState& start, double dt,
                 long steps, long n, MechanicalState& end, int windows = 1) {
  double seconds = 0.0;
  for (int w = 0; w < windows; ++w) {
    integrator.Reset();
    end.AssignFrom(start);
    const auto t0 = Clock::now();
    Advance(model, integrator, dt, steps, end);
    seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  }
  return 1e9 * seconds / (static_cast<double>(steps) * static_cast<double>(n) * static_cast<double>(windows));
}

/// How many windows a timing sample runs so that it lasts at least `min_seconds`, from one timed window (1 to
/// kMaxWindowsPerSample).
int WindowsPerSample(const MechanicalSystem& model, Integrator& integrator, const MechanicalState& start, double dt,
                     long steps, long n, double min_seconds) {
  MechanicalState end;
  const double window_seconds = 1e-9 * TimeSteps(model, integrator, start, dt, steps, n, end) *
                                static_cast<double>(steps) * static_cast<double>(n);
  if (!(window_seconds > 0.0)) return kMaxWindowsPerSample;
  return static_cast<int>(std::clamp(std::ceil(min_seconds / window_seconds), 1.0, double{kMaxWindowsPerSample}));
}

/// Acceleration calls per step over the timed steps from `start` (an untimed run; the counts are deterministic).
double ForceEvaluationsPerStep(const MechanicalSystem& model, Integrator& integrator, const MechanicalState& start,
                               double dt, long steps) {
  integrator.Reset();
  integrator.ResetStatistics();
  MechanicalState s = start;
  Advance(model, integrator, dt, steps, s);
  return static_cast<double>(integrator.statistics().rhs_evaluations) / static_cast<double>(steps);
}

/// The case's timed steps with 1 and with 2 contact threads, interleaved per repetition, `windows` windows per sample
/// (row["openmp"], row["openmp_speedup_2_threads"] = median of t(1)/t(2); same_result: final q, v, z bitwise equal).
void CompareContactThreads(const MechanicalSystem& model, Integrator& integrator, const MechanicalState& start,
                           double dt, const AssemblyCase& c, const AssemblyBenchOptions& o, int windows,
                           nlohmann::json& row) {
  if (!ContactThreadsAvailable()) {
    row["openmp_speedup_2_threads"] = "not measured (built without OpenMP)";
    return;
  }
  if (o.progress) std::cerr << "bench: sphere assembly " << c.label << " / " << integrator.name()
                            << " / 1 vs 2 contact threads\n";
  const long n = row["num_spheres"].get<long>();
  const int before = ContactThreads();
  std::vector<double> one, two, speedup;
  MechanicalState end_one, end_two;
  for (int rep = 0; rep < o.repetitions; ++rep) {
    for (const int threads : {1, 2}) {
      SetContactThreads(threads);
      const double t =
          TimeSteps(model, integrator, start, dt, c.timed_steps, n, threads == 1 ? end_one : end_two, windows);
      (threads == 1 ? one : two).push_back(t);
    }
    speedup.push_back(one.back() / two.back());
  }
  SetContactThreads(before);
  const auto same = [](const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    return a.size() == b.size() &&
           std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
  };
  row["openmp"] = {{"ns_per_particle_step_1_thread", SpreadOf(one).ToJson()},
                   {"ns_per_particle_step_2_threads", SpreadOf(two).ToJson()},
                   {"speedup", SpreadOf(speedup).ToJson()},
                   {"same_result", same(end_one.q, end_two.q) && same(end_one.v, end_two.v) &&
                                       same(end_one.z, end_two.z)}};
  row["openmp_speedup_2_threads"] = SpreadOf(speedup).median;
}
}  // namespace

AssemblyBenchOptions DefaultAssemblyBenchOptions(bool quick) {
  AssemblyBenchOptions o;
  const std::string dir = "validation/scenarios/";
  if (quick) {
    o.verlet_cases = {{"1e3", dir + "sphere_assembly_1e3.toml", {}, 5, 20, true, false},
                      {"1e4", dir + "sphere_assembly_1e4.toml", {}, 5, 10, false, true}};
    return o;
  }
  // The same window of the settling packing at every size (steps 10 to 30 after the start): the end-velocity fixed
  // point's sweeps per step depend on how fast the packing still moves, so windows at different phases would compare
  // different work per particle-step (9.0 force evaluations per step in this window at 10³ and at 10⁵; the former
  // windows, steps 10–110 at 10³ and 5–25 at 10⁵, did 8.54 and 9.15: docs/performance.md, "The same window at every
  // size").
  o.verlet_cases = {{"1e3", dir + "sphere_assembly_1e3.toml", {}, 10, 20, true, false},
                    {"1e4", dir + "sphere_assembly_1e4.toml", {}, 10, 20, false, false},
                    {"1e5", dir + "sphere_assembly_1e5.toml", {}, 10, 20, false, true}};
  o.simo_tarnow_cases = {{"1e3", dir + "sphere_assembly_1e3.toml", {}, 2, 5, false, false},
                         {"1e4", dir + "sphere_assembly_1e4.toml", {}, 1, 3, false, true}};
  return o;
}

nlohmann::json RunAssemblyBenchmarks(const AssemblyBenchOptions& o) {
  if (o.repetitions < 1) throw InvalidParameter("repetitions", o.repetitions, ">= 1");
  if (!(std::isfinite(o.min_sample_seconds) && o.min_sample_seconds >= 0.0))
    throw InvalidParameter("min_sample_seconds", o.min_sample_seconds, ">= 0 and finite");
  std::filesystem::path work = o.work_directory;
  if (work.empty())
    work = std::filesystem::temp_directory_path() / ("impactlab_bench_assembly_" + std::to_string(::getpid()));
  std::filesystem::create_directories(work);
  const std::filesystem::path lmp = o.lammps ? FindLammps() : std::filesystem::path();

  nlohmann::json out;
  out["lammps"]["executable"] = lmp.empty() ? nlohmann::json(nullptr) : nlohmann::json(lmp.string());
  if (lmp.empty())
    out["lammps"]["status"] = o.lammps ? "peer not installed (no executable lmp on PATH or at $IMPACTLAB_LAMMPS)" : "not run (--no-lammps)";
  out["memory_method"] =
      "peak RSS (GNU time %M = the child's ru_maxrss) of a child `impactlab run SCENARIO --set t_end=2dt "
      "--integrator NAME` (whole program: model, driver, energy ledger) divided by N; LAMMPS: peak RSS of its timing "
      "run divided by N";

  // What two threads can gain on this machine at all, for memory-bound and for compute-bound loops: the reference
  // against which the cases' openmp_speedup_2_threads are read.
  if (o.progress) std::cerr << "bench: sphere assembly / this machine's two-thread ceiling\n";
  TwoThreadCeilingOptions ceiling = o.two_thread_ceiling;
  ceiling.repetitions = std::max({5, o.repetitions, ceiling.repetitions});
  out["two_thread_ceiling"] = MeasureTwoThreadCeiling(ceiling);

  for (const auto& c : o.verlet_cases) {
    if (o.progress) std::cerr << "bench: sphere assembly " << c.label << " / velocity_verlet\n";
    const Scenario sc = Load(c);
    const ModelInstance instance = ModelRegistry().Get(sc.model).make(sc.parameters);
    const auto* model = dynamic_cast<const SphereAssembly*>(instance.system.get());
    if (!model) throw InvalidParameter("model", sc.model, "sphere_assembly");
    const double dt = sc.parameters.GetDouble("dt");
    const int n = model->num_spheres();
    auto integrator = IntegratorRegistry().Get("velocity_verlet").make(sc.parameters);
    // LAMMPS's own algorithm (dampers fed the half-step velocity, one force evaluation per step), timed in the
    // same repetitions from the same start: the like-for-like cost comparison with the peer.
    auto explicit_damping = IntegratorRegistry().Get("velocity_verlet_explicit_damping").make(sc.parameters);
    const MechanicalState initial = model->InitialState();
    MechanicalState start = initial;
    Advance(*model, *integrator, dt, c.warmup_steps, start);  // the settled start
    MechanicalState work_state, explicit_state;

    nlohmann::json row;
    row["num_spheres"] = n;
    row["dt"] = dt;
    row["warmup_steps"] = c.warmup_steps;
    row["timed_steps"] = c.timed_steps;
    row["scenario"] = c.scenario;

    LammpsPacking packing;
    bool with_lammps = !lmp.empty();
    if (with_lammps) {
      try {
        packing = MapToLammps(sc.parameters, *model, dt, c.warmup_steps, c.timed_steps);
        packing.dump_final = c.compare_with_lammps;
        row["lammps"]["mapping"] = packing.ToJson();
      } catch (const std::exception& e) {
        with_lammps = false;
        row["lammps"]["status"] = std::string("not comparable: ") + e.what();
      }
    }
    std::vector<double> ours_ns, lammps_ns, ratios, explicit_ns, explicit_ratios;
    long lammps_peak_kb = 0;
    LammpsResult last_lammps;
    const int windows = WindowsPerSample(*model, *integrator, start, dt, c.timed_steps, n, o.min_sample_seconds);
    row["windows_per_sample"] = windows;
    for (int rep = 0; rep < o.repetitions; ++rep) {
      ours_ns.push_back(TimeSteps(*model, *integrator, start, dt, c.timed_steps, n, work_state, windows));
      explicit_ns.push_back(
          TimeSteps(*model, *explicit_damping, start, dt, c.timed_steps, n, explicit_state, windows));
      if (!with_lammps) continue;
      if (o.progress) std::cerr << "bench: sphere assembly " << c.label << " / LAMMPS\n";
      last_lammps = RunLammpsPacking(lmp, packing, work / ("lammps_" + c.label));
      if (!last_lammps.error.empty()) {
        row["lammps"]["status"] = "failed: " + last_lammps.error;
        with_lammps = false;
        continue;
      }
      lammps_ns.push_back(last_lammps.ns_per_particle_step());
      ratios.push_back(ours_ns.back() / lammps_ns.back());
      explicit_ratios.push_back(explicit_ns.back() / lammps_ns.back());
      lammps_peak_kb = std::max(lammps_peak_kb, last_lammps.child.peak_rss_kb);
    }
    row["ns_per_particle_step"] = SpreadOf(ours_ns).ToJson();
    row["timing"] =
        "in this process: `timed_steps` Integrator::Step calls after `warmup_steps`, no observers, `windows_per_sample` "
        "times from the same start per sample, / (windows x steps x N); LAMMPS: one window per sample (its loop time)";
    row["explicit_damping"]["ns_per_particle_step"] = SpreadOf(explicit_ns).ToJson();
    // The work per step behind the times: velocity_verlet's end-velocity fixed point sweeps the contacts once per
    // force evaluation, and the number of sweeps depends on the timed window (how fast the packing is moving).
    row["force_evaluations_per_step"] = ForceEvaluationsPerStep(*model, *integrator, start, dt, c.timed_steps);
    row["explicit_damping"]["force_evaluations_per_step"] =
        ForceEvaluationsPerStep(*model, *explicit_damping, start, dt, c.timed_steps);
    row["explicit_damping"]["integrator"] = "velocity_verlet_explicit_damping";
    if (!ratios.empty() && ratios.size() == ours_ns.size()) {
      row["lammps"]["status"] = "ran";
      row["lammps"]["ns_per_particle_step"] = SpreadOf(lammps_ns).ToJson();
      if (lammps_peak_kb > 0) {
        row["lammps"]["peak_rss_bytes"] = 1024.0 * static_cast<double>(lammps_peak_kb);
        row["lammps"]["peak_rss_per_particle_bytes"] = 1024.0 * static_cast<double>(lammps_peak_kb) / n;
      } else {
        row["lammps"]["peak_rss_bytes"] = "not measured (no /usr/bin/time, Debian package time)";
      }
      row["assembly_vs_lammps_ratio"] = SpreadOf(ratios).ToJson();
      row["explicit_damping"]["assembly_vs_lammps_ratio"] = SpreadOf(explicit_ratios).ToJson();
      if (c.compare_with_lammps) {
        row["lammps"]["agreement"] = CompareStates(*model, start, work_state, last_lammps);
        row["explicit_damping"]["lammps_agreement"] = CompareStates(*model, start, explicit_state, last_lammps);
      }
    }
    if (c.openmp) CompareContactThreads(*model, *integrator, start, dt, c, o, windows, row);
    if (!o.impactlab_executable.empty()) {
      if (o.progress) std::cerr << "bench: sphere assembly " << c.label << " / peak memory (child run)\n";
      const RunChildResult m = RunImpactlab(o, c, "velocity_verlet", dt, 2, work / ("memory_vv_" + c.label), {});
      if (m.error.empty() && m.child.peak_rss_kb <= 0) {
        row["peak_rss_bytes"] = "not measured (no /usr/bin/time, Debian package time)";
      } else if (m.error.empty()) {
        row["peak_rss_bytes"] = 1024.0 * static_cast<double>(m.child.peak_rss_kb);
        row["peak_rss_per_particle_bytes"] = 1024.0 * static_cast<double>(m.child.peak_rss_kb) / n;
      } else {
        row["peak_rss_bytes"] = "not measured: " + m.error;
      }
    } else {
      row["peak_rss_bytes"] = "not measured (no impactlab executable given)";
    }
    out["velocity_verlet"][c.label] = row;
  }

  for (const auto& c : o.simo_tarnow_cases) {
    if (o.progress) std::cerr << "bench: sphere assembly " << c.label << " / simo_tarnow\n";
    const Scenario sc = Load(c);
    const ModelInstance instance = ModelRegistry().Get(sc.model).make(sc.parameters);
    const auto* model = dynamic_cast<const SphereAssembly*>(instance.system.get());
    if (!model) throw InvalidParameter("model", sc.model, "sphere_assembly");
    const double dt = sc.parameters.GetDouble("dt");
    const long n = model->num_spheres();
    auto integrator = IntegratorRegistry().Get("simo_tarnow").make(sc.parameters);
    MechanicalState start = model->InitialState();
    Advance(*model, *integrator, dt, c.warmup_steps, start);
    nlohmann::json row;
    row["num_spheres"] = n;
    row["dt"] = dt;
    row["warmup_steps"] = c.warmup_steps;
    row["steps"] = c.timed_steps;
    row["scenario"] = c.scenario;
    row["newton_linear_solver"] = sc.parameters.GetString("newton_linear_solver", "auto");
    std::vector<double> ns;
    MechanicalState end;
    double iterations = 0.0;
    const int windows = WindowsPerSample(*model, *integrator, start, dt, c.timed_steps, n, o.min_sample_seconds);
    row["windows_per_sample"] = windows;
    for (int rep = 0; rep < o.repetitions; ++rep) {
      integrator->ResetStatistics();
      ns.push_back(TimeSteps(*model, *integrator, start, dt, c.timed_steps, n, end, windows));
      iterations = static_cast<double>(integrator->statistics().newton_iterations) /
                   (static_cast<double>(c.timed_steps) * static_cast<double>(windows));
    }
    row["ns_per_particle_step"] = SpreadOf(ns).median;
    row["ns_per_particle_step_spread"] = SpreadOf(ns).ToJson();
    row["newton_iterations_per_step"] = iterations;
    row["timing"] =
        "in this process: `steps` Integrator::Step calls after `warmup_steps`, no observers, `windows_per_sample` times "
        "from the same start per sample, / (windows x steps x N)";
    if (c.openmp) CompareContactThreads(*model, *integrator, start, dt, c, o, windows, row);
    if (!o.impactlab_executable.empty()) {
      // Peak memory: a child run of one step under a timeout and an address-space limit.
      ChildLimits limits;
      limits.timeout_seconds = o.simo_tarnow_timeout_seconds;
      limits.address_space_bytes =
          o.simo_tarnow_address_space_bytes > 0 ? o.simo_tarnow_address_space_bytes : PhysicalMemoryBytes() / 2;
      const RunChildResult r = RunImpactlab(o, c, "simo_tarnow", dt, 1, work / ("simo_tarnow_" + c.label), limits);
      if (!r.error.empty())
        row["peak_rss_bytes"] = "not measured: " + r.error;
      else if (r.child.peak_rss_kb > 0) {
        row["peak_rss_bytes"] = 1024.0 * static_cast<double>(r.child.peak_rss_kb);
        row["peak_rss_per_particle_bytes"] = 1024.0 * static_cast<double>(r.child.peak_rss_kb) / n;
      }
    }
    out["simo_tarnow"][c.label] = row;
  }
  return out;
}

}  // namespace impactlab::bench
