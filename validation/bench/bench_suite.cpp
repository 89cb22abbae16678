#include "bench/bench_suite.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

#include "bench/assembly_benchmark.h"
#include "bench/exact_benchmarks.h"
#include "bench/matched_energy_benchmark.h"
#include "bench/model_benchmarks.h"
#include "bench/peer_benchmarks.h"
#include "bench/sweep_benchmark.h"
#include "core/errors.h"
#include "registry/registries.h"
#include "version/build_info.h"

namespace impactlab::bench {
namespace {

const std::vector<std::string> kGroups = {"peers", "models", "implicit", "chain", "cells", "exact", "sweep", "matched", "assembly"};

bool Selected(const BenchOptions& o, const std::string& group) {
  return o.only.empty() || std::find(o.only.begin(), o.only.end(), group) != o.only.end();
}

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

nlohmann::json Machine() {
  return {{"cpu", CpuModel()},
          {"hardware_threads", std::thread::hardware_concurrency()},
          {"compiler", std::string("g++ ") + __VERSION__},
#ifdef NDEBUG
          {"build", "optimised (NDEBUG)"},
#else
          {"build", "debug (assertions on): timings are not representative"},
#endif
          {"note", "wall-clock timings; other jobs on the machine inflate absolute times, ratios less so"}};
}

void AddTarget(nlohmann::json& targets, const std::string& key, const nlohmann::json& value, const std::string& target,
               bool met, const std::string& note = "") {
  targets.push_back({{"key", key}, {"value", value}, {"target", target}, {"met", met}, {"status", met ? "met" : "missed"},
                     {"note", note}});
}

void AddNotMeasured(nlohmann::json& targets, const std::string& key, const std::string& target, const std::string& why) {
  targets.push_back({{"key", key}, {"value", nullptr}, {"target", target}, {"met", nullptr}, {"status", "not measured"},
                     {"note", why}});
}

/// Issue 19's acceptance list (docs/performance.md, "Targets"), in its order: every key gets a row in the targets
/// table, measured or not. `group` is the bench group that measures it.
struct AcceptanceKey {
  const char* key;
  const char* target;
  const char* group;
};
const std::vector<AcceptanceKey> kAcceptance = {
    {"verlet_vs_hand_loop_ratio", "<= 1.3", "peers"},
    {"verlet_vs_hand_loop_same_rhs_ratio", "<= 1.15", "peers"},
    {"verlet_vs_odeint_ratio", "<= 1.1", "peers"},
    {"simo_tarnow_vs_verlet_ratio", "<= 8", "implicit"},
    {"simo_tarnow_newton_iterations_mean", "<= 3", "implicit"},
    {"chain_ns_per_bead_step.velocity_verlet (N = 1e4 vs 1e2)", "within 20 % (0.8 .. 1.2)", "chain"},
    {"chain_ns_per_bead_step.simo_tarnow (N = 1e4 vs 1e2)", "within 20 % (0.8 .. 1.2)", "chain"},
    {"assembly_ns_per_particle_step.velocity_verlet (N = 1e5 vs 1e3)", "<= 1.25", "assembly"},
    {"assembly_ns_per_particle_step.simo_tarnow (N = 1e4 vs 1e3)", "<= 1.25", "assembly"},
    {"assembly_peak_memory_per_particle_bytes.velocity_verlet.1e5", "reported", "assembly"},
    {"assembly_vs_lammps_ratio (velocity_verlet, N = 1e5)", "<= 1.0", "assembly"},
    {"openmp_speedup_2_threads.velocity_verlet.1e5", ">= 1.6", "assembly"},
    {"openmp_speedup_2_threads.simo_tarnow.1e4", ">= 1.5", "assembly"},
};

/// Rows of the acceptance list first (in its order; "not measured" where no group produced the key), then the
/// other targets the groups added.
nlohmann::json OrderTargets(const nlohmann::json& measured, const BenchOptions& o) {
  nlohmann::json ordered = nlohmann::json::array(), used = nlohmann::json::array();
  for (const auto& a : kAcceptance) {
    bool found = false;
    for (const auto& t : measured)
      if (t["key"] == a.key) {
        ordered.push_back(t);
        found = true;
      }
    if (found) continue;
    const std::string group = a.group;
    const std::string why = !Selected(o, group)            ? "group " + group + " not selected (--only)"
                            : o.quick && group == "assembly" ? "--quick runs no 1e5 sphere and no Simo-Tarnow case"
                                                         : "group " + group + " did not produce it";
    nlohmann::json row = {{"key", a.key}, {"value", nullptr}, {"target", a.target}, {"met", nullptr},
                          {"status", "not measured"}, {"note", why}};
    ordered.push_back(row);
  }
  for (const auto& t : measured) {
    bool in_list = false;
    for (const auto& a : kAcceptance) in_list = in_list || t["key"] == a.key;
    if (!in_list) ordered.push_back(t);
  }
  return ordered;
}

/// The flat keys and targets of the assembly group (issue 19: assembly_ns_per_particle_step.*, peak memory per
/// particle, assembly_vs_lammps_ratio).
void AddAssemblyKeys(const nlohmann::json& as, nlohmann::json& out, nlohmann::json& targets) {
  nlohmann::json ns = nlohmann::json::object(), memory = nlohmann::json::object(), lammps_ns = nlohmann::json::object(),
                 ratio_by_n = nlohmann::json::object(), explicit_ratio_by_n = nlohmann::json::object();
  if (as.contains("velocity_verlet"))
    for (const auto& [label, row] : as["velocity_verlet"].items()) {
      ns["velocity_verlet"][label] = row["ns_per_particle_step"]["median"];
      memory["velocity_verlet"][label] = row.contains("peak_rss_per_particle_bytes") ? row["peak_rss_per_particle_bytes"]
                                                                                      : row["peak_rss_bytes"];
      if (row.contains("explicit_damping"))
        ns["velocity_verlet_explicit_damping"][label] = row["explicit_damping"]["ns_per_particle_step"]["median"];
      if (row.contains("explicit_damping") && row["explicit_damping"].contains("assembly_vs_lammps_ratio"))
        explicit_ratio_by_n[label] = row["explicit_damping"]["assembly_vs_lammps_ratio"]["median"];
      if (row.contains("assembly_vs_lammps_ratio")) {
        ratio_by_n[label] = row["assembly_vs_lammps_ratio"]["median"];
        lammps_ns[label] = row["lammps"]["ns_per_particle_step"]["median"];
        memory["lammps"][label] = row["lammps"].value("peak_rss_per_particle_bytes", row["lammps"]["peak_rss_bytes"]);
      } else {
        ratio_by_n[label] = row.contains("lammps") && row["lammps"].contains("status") ? row["lammps"]["status"]
                                                                                       : as["lammps"]["status"];
      }
    }
  if (as.contains("simo_tarnow"))
    for (const auto& [label, row] : as["simo_tarnow"].items()) {
      if (row.contains("ns_per_particle_step")) {
        ns["simo_tarnow"][label] = row["ns_per_particle_step"];
        if (row.contains("peak_rss_per_particle_bytes")) memory["simo_tarnow"][label] = row["peak_rss_per_particle_bytes"];
      } else {
        ns["simo_tarnow"][label] = "not measurable: " + row["not_measurable"].get<std::string>();
      }
    }
  auto growth = [&](const char* integrator, const char* small, const char* large, const char* key,
                    const std::string& target_key) {
    if (!ns.contains(integrator) || !ns[integrator].contains(small) || !ns[integrator].contains(large)) return;
    const auto& a = ns[integrator][small];
    const auto& b = ns[integrator][large];
    if (!a.is_number() || !b.is_number()) {
      AddNotMeasured(targets, target_key, "<= 1.25",
                     std::string("N = ") + (a.is_number() ? large : small) + ": " + (a.is_number() ? b : a).get<std::string>());
      ns[integrator][key] = nullptr;
      return;
    }
    const double g = b.get<double>() / a.get<double>();
    ns[integrator][key] = g;
    AddTarget(targets, target_key, g, "<= 1.25", g <= 1.25);
  };
  nlohmann::json openmp = nlohmann::json::object();
  // The machine's own two-thread ceiling of the same run (bench/two_thread_ceiling.h), quoted beside each speed-up.
  std::string ceiling;
  if (as.contains("two_thread_ceiling") && as["two_thread_ceiling"].contains("stream_speedup")) {
    std::ostringstream c;
    c << std::setprecision(3) << "; this machine's 2-thread ceiling in this run: memory stream "
      << as["two_thread_ceiling"]["stream_speedup"]["median"].get<double>() << ", compute "
      << as["two_thread_ceiling"]["compute_speedup"]["median"].get<double>();
    ceiling = c.str();
  }
  // openmp_speedup_2_threads.<integrator>.<label> against `target` (>= minimum).
  auto openmp_target = [&](const std::string& integrator, const std::string& label, double minimum,
                           const std::string& target) {
    const std::string key = "openmp_speedup_2_threads." + integrator + "." + label;
    if (as.contains(integrator))
      for (const auto& item : as[integrator].items())
        if (item.value().contains("openmp_speedup_2_threads")) {
          openmp[integrator][item.key()] = item.value()["openmp_speedup_2_threads"];
          if (item.value().contains("openmp"))
            openmp["same_result"][integrator][item.key()] = item.value()["openmp"]["same_result"];
        }
    if (openmp.contains(integrator) && openmp[integrator].contains(label)) {
      const auto& v = openmp[integrator][label];
      const bool same = openmp["same_result"][integrator].value(label, false);
      if (v.is_number())
        AddTarget(targets, key, v, target, v.get<double>() >= minimum,
                  std::string("1 vs 2 contact threads, same run; results bitwise identical: ") + (same ? "yes" : "NO") +
                      ceiling);
      else
        AddNotMeasured(targets, key, target, v.get<std::string>());
    } else if (ns.contains(integrator) && ns[integrator].contains(label) && ns[integrator][label].is_string()) {
      AddNotMeasured(targets, key, target, integrator + " at " + label + " is " + ns[integrator][label].get<std::string>());
    }
  };
  openmp_target("velocity_verlet", "1e5", 1.6, ">= 1.6");
  openmp_target("simo_tarnow", "1e4", 1.5, ">= 1.5");
  out["openmp_speedup_2_threads"] = openmp;
  growth("velocity_verlet", "1e3", "1e5", "growth_1e3_to_1e5", "assembly_ns_per_particle_step.velocity_verlet (N = 1e5 vs 1e3)");
  growth("simo_tarnow", "1e3", "1e4", "growth_1e3_to_1e4", "assembly_ns_per_particle_step.simo_tarnow (N = 1e4 vs 1e3)");
  if (memory.contains("velocity_verlet") && memory["velocity_verlet"].contains("1e5")) {
    const auto& m = memory["velocity_verlet"]["1e5"];
    if (m.is_number())
      targets.push_back({{"key", "assembly_peak_memory_per_particle_bytes.velocity_verlet.1e5"}, {"value", m},
                         {"target", "reported"}, {"met", true}, {"status", "met"},
                         {"note", "peak RSS of a child impactlab run / N"}});
  }
  if (ratio_by_n.contains("1e5")) {
    const auto& r = ratio_by_n["1e5"];
    if (r.is_number())
      AddTarget(targets, "assembly_vs_lammps_ratio (velocity_verlet, N = 1e5)", r, "<= 1.0", r.get<double>() <= 1.0,
                "ours / LAMMPS, ns per particle-step, one core each, same run");
    else
      AddNotMeasured(targets, "assembly_vs_lammps_ratio (velocity_verlet, N = 1e5)", "<= 1.0", r.get<std::string>());
  }
  if (explicit_ratio_by_n.contains("1e5")) {
    const double r = explicit_ratio_by_n["1e5"].get<double>();
    AddTarget(targets, "assembly_vs_lammps_ratio (velocity_verlet_explicit_damping, N = 1e5)", r, "<= 1.0", r <= 1.0,
              "LAMMPS's algorithm (dampers fed v_half, one force evaluation per step): ours / LAMMPS, same run");
  }
  out["assembly_vs_lammps_ratio_explicit_damping_by_n"] = explicit_ratio_by_n;
  out["assembly_ns_per_particle_step"] = ns;
  out["assembly_peak_memory_per_particle_bytes"] = memory;
  out["lammps_ns_per_particle_step"] = lammps_ns;
  out["assembly_vs_lammps_ratio_by_n"] = ratio_by_n;
  out["assembly_vs_lammps_ratio"] = ratio_by_n.contains("1e5")   ? ratio_by_n["1e5"]
                                    : as["lammps"].contains("status") ? as["lammps"]["status"]
                                                                      : nlohmann::json("not measured (no 1e5 case in this run)");
}

}  // namespace

void ValidateBenchOptions(const BenchOptions& o) {
  if (o.repetitions < 1) throw InvalidParameter("--repetitions", o.repetitions, ">= 1");
  for (const auto& g : o.only)
    if (std::find(kGroups.begin(), kGroups.end(), g) == kGroups.end())
      throw InvalidParameter("--only", g, "one of peers, models, implicit, chain, cells, exact, sweep, matched, assembly");
  for (const auto& name : o.integrators) (void)IntegratorRegistry().Get(name);  // unknown names fail first
}

nlohmann::json RunBenchSuite(const BenchOptions& o) {
  ValidateBenchOptions(o);
  TimingOptions timing;
  timing.repetitions = o.quick ? std::min(o.repetitions, 3) : o.repetitions;
  timing.min_seconds = o.quick ? 0.02 : 0.05;
  TimingOptions slow = timing;  // the model matrix: many entries, fewer repetitions
  slow.repetitions = std::min(timing.repetitions, 3);
  slow.min_seconds = 0.01;

  nlohmann::json out;
  out["machine"] = Machine();
  // The code and the libraries of this run (what a re-run must match).
  out["versions"] = {{"impactlab", Version()}};
  for (const auto& [library, version] : DependencyVersions()) out["versions"][library] = version;
  out["quick"] = o.quick;
  out["repetitions"] = timing.repetitions;
  nlohmann::json targets = nlohmann::json::array();
  // The result so far, after each group (BenchOptions::group_done).
  auto group_done = [&] {
    if (!o.group_done) return;
    nlohmann::json partial = out;
    partial["targets"] = OrderTargets(targets, o);
    partial["complete"] = false;
    o.group_done(partial);
  };

  if (Selected(o, "peers")) {
    if (o.progress) std::cerr << "bench: peers (hand loop, Boost.Odeint, CVODE at matched accuracy)\n";
    const nlohmann::json peers = RunPeerBenchmarks(timing);
    out["peers"] = peers;
    for (const char* k : {"verlet_vs_hand_loop_ratio", "verlet_vs_hand_loop_same_rhs_ratio", "verlet_vs_odeint_ratio", "rk4_vs_odeint_ratio",
                          "cvode_vs_verlet_matched_accuracy_ratio"})
      out[k] = peers[k];
    const double hand = peers["verlet_vs_hand_loop_ratio"], odeint = peers["verlet_vs_odeint_ratio"];
    AddTarget(targets, "verlet_vs_hand_loop_ratio", hand, "<= 1.3", hand <= 1.3, "hand loop with the force inline");
    const double hand_rhs = peers["verlet_vs_hand_loop_same_rhs_ratio"];
    AddTarget(targets, "verlet_vs_hand_loop_same_rhs_ratio", hand_rhs, "<= 1.15", hand_rhs <= 1.15,
              "hand loop calling the model's Acceleration");
    AddTarget(targets, "verlet_vs_odeint_ratio", odeint, "<= 1.1", odeint <= 1.1);
    group_done();
  }
  if (Selected(o, "implicit")) {
    if (o.progress) std::cerr << "bench: Simo-Tarnow vs velocity Verlet at the critical step\n";
    const nlohmann::json st = RunSimoTarnowVsVerlet(timing);
    out["simo_tarnow_vs_verlet"] = st;
    out["simo_tarnow_vs_verlet_ratio"] = st["simo_tarnow_vs_verlet_ratio"];
    out["simo_tarnow_newton_iterations_mean"] = st["simo_tarnow_newton_iterations_mean"];
    const double r = st["simo_tarnow_vs_verlet_ratio"], n = st["simo_tarnow_newton_iterations_mean"];
    AddTarget(targets, "simo_tarnow_vs_verlet_ratio", r, "<= 8", r <= 8.0);
    AddTarget(targets, "simo_tarnow_newton_iterations_mean", n, "<= 3", n <= 3.0);
    group_done();
  }
  if (Selected(o, "chain")) {
    // The target is on the compressed chain (the same work per bead-step at every N); the striker workload of
    // the scenario is reported beside it (its work per bead-step grows with N: model_benchmarks.h).
    const std::vector<int> sizes = {100, 1000, 10000};
    for (const ChainWorkload workload : {ChainWorkload::kCompressed, ChainWorkload::kStriker}) {
      const bool compressed = workload == ChainWorkload::kCompressed;
      const nlohmann::json chain = RunChainScaling(sizes, workload, slow, o.progress);
      nlohmann::json per_bead;
      for (const auto& [name, by_n] : chain.items()) {
        for (const auto& [n, spread] : by_n.items()) per_bead[name][n] = spread["median"];
        const double small = by_n["100"]["median"], large = by_n["10000"]["median"];
        const double growth = large / small;
        per_bead[name]["growth_100_to_10000"] = growth;
        if (compressed)
          AddTarget(targets, "chain_ns_per_bead_step." + name + " (N = 1e4 vs 1e2)", growth,
                    "within 20 % (0.8 .. 1.2)", growth >= 0.8 && growth <= 1.2);
      }
      const std::string key = compressed ? "chain_ns_per_bead_step" : "chain_striker_ns_per_bead_step";
      out[key] = per_bead;
      out[key + "_spread"] = chain;
    }
    group_done();
  }
  if (Selected(o, "cells")) {
    // disk_cloud (2-D, velocity Verlet): the cell-list broad phase keeps ns per particle-step flat in N; the
    // all-pairs loop grows ∝ N, so it is timed up to N = 400 only (the model takes N ≤ 2000).
    const nlohmann::json cloud = RunDiskCloudScaling({100, 400}, slow, o.progress);
    nlohmann::json per_particle;
    for (const char* name : {"cell_list", "all_pairs"}) {
      const auto& by_n = cloud[name];
      for (const auto& [n, spread] : by_n.items()) per_particle[name][n] = spread["median"];
      per_particle[name]["growth_100_to_400"] =
          by_n["400"]["median"].get<double>() / by_n["100"]["median"].get<double>();
    }
    const double growth = per_particle["cell_list"]["growth_100_to_400"];
    const double speedup = cloud["all_pairs"]["400"]["median"].get<double>() / cloud["cell_list"]["400"]["median"].get<double>();
    per_particle["all_pairs_vs_cell_list_ratio_400"] = speedup;
    AddTarget(targets, "disk_cloud_ns_per_particle_step.cell_list (N = 400 vs 100)", growth, "<= 1.25", growth <= 1.25,
              "velocity Verlet, cell-list broad phase");
    AddTarget(targets, "disk_cloud all_pairs / cell_list (N = 400)", speedup, ">= 2", speedup >= 2.0,
              "same run; bitwise-identical results");
    out["disk_cloud_ns_per_particle_step"] = per_particle;
    out["disk_cloud_ns_per_particle_step_spread"] = cloud;
    group_done();
  }
  if (Selected(o, "exact")) {
    if (o.progress) std::cerr << "bench: exact solution vs CVODE\n";
    const nlohmann::json ex = RunExactBenchmarks(timing);
    out["exact"] = ex;
    out["exact_restitution_ns"] = ex["exact_restitution_ns"];
    out["exact_vs_cvode_speedup"] = ex["exact_vs_cvode_speedup"];
    const double ns = ex["exact_restitution_ns"];
    AddTarget(targets, "exact_restitution_ns", ns, "<= 1000 ns", ns <= 1000.0);
    group_done();
  }
  if (Selected(o, "sweep")) {
    if (o.progress) std::cerr << "bench: sweep with 1 and 2 threads\n";
    const nlohmann::json sw = RunSweepScaling(o.quick);
    out["sweep"] = sw;
    out["sweep_speedup_2_threads"] = sw["sweep_speedup_2_threads"];
    const double s = sw["sweep_speedup_2_threads"];
    AddTarget(targets, "sweep_speedup_2_threads", s, ">= 1.8", s >= 1.8,
              std::thread::hardware_concurrency() < 2 ? "fewer than 2 hardware threads" : "");
    group_done();
  }
  if (Selected(o, "matched")) {
    // Work at matched energy accuracy (issue 19 item 7): wall time each scheme needs to keep max |ΔE|/E₀ ≤ 1e-8
    // on the undamped 100-bead chain over 100 contact durations (quick: 10). Reported, no target.
    MatchedEnergyOptions m;
    m.integrators = o.integrators;
    if (o.quick) m.contact_durations = 10.0;
    const nlohmann::json me = RunMatchedEnergyAccuracy(m, slow, o.progress);
    out["matched_energy"] = me;
    if (me.contains("matched_energy_accuracy_s")) out["matched_energy_accuracy_s"] = me["matched_energy_accuracy_s"];
    if (me.contains("matched_energy_accuracy_vs_verlet_ratio"))
      out["matched_energy_accuracy_vs_verlet_ratio"] = me["matched_energy_accuracy_vs_verlet_ratio"];
    group_done();
  }
  if (Selected(o, "models")) {
    std::vector<std::string> names = o.integrators;
    if (names.empty())
      for (const auto& [name, entry] : IntegratorRegistry().entries()) names.push_back(name);
    out["models"] = RunModelBenchmarks(DefaultBenchModels(o.quick), names, slow, o.progress);
    group_done();
  }
  if (Selected(o, "assembly")) {
    AssemblyBenchOptions a = DefaultAssemblyBenchOptions(o.quick);
    a.repetitions = std::min(timing.repetitions, 3);
    a.impactlab_executable = o.impactlab_executable;
    a.lammps = o.lammps;
    a.progress = o.progress;
    const nlohmann::json as = RunAssemblyBenchmarks(a);
    out["assembly"] = as;
    AddAssemblyKeys(as, out, targets);
  }
  out["targets"] = OrderTargets(targets, o);
  out["complete"] = true;
  return out;
}

std::string FormatBenchReport(const nlohmann::json& r) {
  std::ostringstream os;
  os << std::setprecision(4);
  auto spread = [](const nlohmann::json& s) {
    std::ostringstream o;
    o << std::setprecision(4) << s.at("median").get<double>() << " (" << s.at("min").get<double>() << " .. "
      << s.at("max").get<double>() << ")";
    return o.str();
  };
  if (r.contains("peers")) {
    const auto& p = r.at("peers");
    os << "## Same-run peer ratios (median (min .. max) over repetitions)\n\n"
       << "| comparison | ours [ns/item] | peer [ns/item] | ratio |\n|---|---|---|---|\n";
    for (const char* k : {"verlet_vs_hand_loop", "verlet_vs_hand_loop_same_rhs", "verlet_vs_odeint", "rk4_vs_odeint"})
      os << "| " << k << " | " << spread(p.at(k).at("ours_ns_per_item")) << " | " << spread(p.at(k).at("peer_ns_per_item"))
         << " | " << spread(p.at(k).at("ratio")) << " |\n";
    const auto& m = p.at("cvode_matched_accuracy");
    if (m.contains("timing_per_contact"))
      os << "| cvode_vs_verlet_matched_accuracy (rtol " << m.at("cvode_rtol").get<double>() << ", |Δe| "
         << m.at("cvode_restitution_error").get<double>() << " vs Verlet " << m.at("verlet_restitution_error").get<double>()
         << ") | " << spread(m.at("timing_per_contact").at("ours_ns_per_item")) << " | "
         << spread(m.at("timing_per_contact").at("peer_ns_per_item")) << " | "
         << spread(m.at("timing_per_contact").at("ratio")) << " |\n";
    os << "\nhand loop and framework Verlet give the same final state bitwise: "
       << (p.at("verlet_hand_loop_same_result").get<bool>() ? "yes" : "NO") << "\n\n";
  }
  if (r.contains("simo_tarnow_vs_verlet")) {
    const auto& s = r.at("simo_tarnow_vs_verlet");
    os << "## Simo–Tarnow vs velocity Verlet at dt = Δt_crit = " << s.at("dt").get<double>() << " s\n\n"
       << "ratio per step " << spread(s.at("timing").at("ratio")) << ", Newton iterations per step "
       << s.at("simo_tarnow_newton_iterations_mean").get<double>() << "\n\n";
  }
  for (const char* key : {"chain_ns_per_bead_step", "chain_striker_ns_per_bead_step"}) {
    if (!r.contains(key)) continue;
    os << (std::string(key) == "chain_ns_per_bead_step"
               ? "## Bead chain, every contact closed (compressed by 1 µm and released, 200 steps): ns per bead-step\n\n"
               : "## Bead chain, the striker hits the resting chain (200 000/N steps; reported, no target): ns per "
                 "bead-step\n\n")
       << "| integrator | N = 100 | N = 1000 | N = 10000 | growth 1e2→1e4 |\n|---|---|---|---|---|\n";
    for (const auto& [name, v] : r.at(key).items())
      os << "| " << name << " | " << v.at("100").get<double>() << " | " << v.at("1000").get<double>() << " | "
         << v.at("10000").get<double>() << " | " << v.at("growth_100_to_10000").get<double>() << " |\n";
    os << "\n";
  }
  if (r.contains("disk_cloud_ns_per_particle_step")) {
    os << "## Disk cloud (velocity Verlet): ns per particle-step\n\n| broad phase | N = 100 | N = 400 | growth 100→400 |\n"
       << "|---|---|---|---|\n";
    for (const char* name : {"cell_list", "all_pairs"}) {
      const auto& v = r.at("disk_cloud_ns_per_particle_step").at(name);
      os << "| " << name << " | " << v.at("100").get<double>() << " | " << v.at("400").get<double>() << " | "
         << v.at("growth_100_to_400").get<double>() << " |\n";
    }
    os << "\n";
  }
  if (r.contains("exact")) {
    const auto& e = r.at("exact");
    os << "## Exact solution vs CVODE\n\n| quantity | ns |\n|---|---|\n"
       << "| exact restitution | " << e.at("exact_restitution_ns").get<double>() << " |\n"
       << "| exact contact time (quadrature) | " << e.at("exact_contact_time_ns").get<double>() << " |\n"
       << "| exact trajectory, 1000 samples | " << e.at("exact_trajectory_1000_ns").get<double>() << " |\n"
       << "| CVODE one contact (rtol 1e-10) | " << e.at("cvode_contact_ns").get<double>() << " |\n"
       << "\nexact_vs_cvode_speedup = " << e.at("exact_vs_cvode_speedup").get<double>() << "\n\n";
  }
  if (r.contains("sweep")) {
    const auto& s = r.at("sweep");
    os << "## Sweep scaling\n\n" << s.at("description").get<std::string>() << ": 1 thread "
       << s.at("wall_s_1_thread").get<double>() << " s, 2 threads " << s.at("wall_s_2_threads").get<double>()
       << " s, speedup " << s.at("sweep_speedup_2_threads").get<double>()
       << ", results identical: " << (s.at("identical_results").get<bool>() ? "yes" : "NO") << "\n\n";
  }
  if (r.contains("matched_energy")) {
    const auto& m = r.at("matched_energy");
    const auto& pr = m.at("problem");
    os << "## Work at matched energy accuracy: max |E - E0|/E0 <= " << pr.at("energy_tolerance").get<double>() << " on the "
       << pr.at("num_beads").get<int>() << "-bead Hertz chain over " << pr.at("contact_durations").get<double>()
       << " contact durations (t_c = " << pr.at("two_bead_contact_time_s").get<double>() << " s)\n\n"
       << "| scheme | setting | max energy error | steps | wall time [s] (min .. max) | vs velocity_verlet |\n"
       << "|---|---|---|---|---|---|\n";
    for (const auto& [name, row] : m.at("schemes").items()) {
      if (row.contains("skipped")) {
        os << "| " << name << " | " << row.at("skipped").get<std::string>() << " | | | | |\n";
        continue;
      }
      const bool adaptive = row.contains("rtol");
      os << "| " << name << " | " << (adaptive ? "rtol " : "dt ") << row.at(adaptive ? "rtol" : "dt").get<double>()
         << " | " << row.at("max_energy_error").get<double>() << " | " << row.at("steps").get<long>() << " | "
         << spread(row.at("seconds")) << " | ";
      if (m.contains("matched_energy_accuracy_vs_verlet_ratio") && m.at("matched_energy_accuracy_vs_verlet_ratio").contains(name))
        os << m.at("matched_energy_accuracy_vs_verlet_ratio").at(name).get<double>();
      os << " |\n";
    }
    os << "\n";
  }
  if (r.contains("models")) {
    os << "## ns per step (median over repetitions; Newton iterations per step for implicit schemes)\n\n";
    std::vector<std::string> models, integrators;
    for (const auto& [m, row] : r.at("models").items()) {
      models.push_back(m);
      for (const auto& [name, _] : row.at("integrators").items())
        if (std::find(integrators.begin(), integrators.end(), name) == integrators.end()) integrators.push_back(name);
    }
    os << "| integrator |";
    for (const auto& m : models) os << ' ' << m << " |";
    os << "\n|---|";
    for (size_t i = 0; i < models.size(); ++i) os << "---|";
    os << "\n";
    for (const auto& name : integrators) {
      os << "| " << name << " |";
      for (const auto& m : models) {
        const auto& row = r.at("models").at(m).at("integrators");
        if (!row.contains(name)) {
          os << " |";
          continue;
        }
        const auto& c = row.at(name);
        if (c.contains("skipped")) {
          os << " n/a |";
          continue;
        }
        std::ostringstream cell;
        cell << std::setprecision(3) << c.at("ns_per_step").at("median").get<double>();
        if (c.at("implicit").get<bool>()) cell << " (" << std::setprecision(2) << c.at("newton_iterations_per_step").get<double>() << " it)";
        os << ' ' << cell.str() << " |";
      }
      os << "\n";
    }
    os << "\nn/a: the integrator cannot advance that model (reason in the JSON, key models.<model>.integrators.<name>.skipped)\n\n";
  }
  if (r.contains("assembly")) {
    const auto& a = r.at("assembly");
    auto number = [](const nlohmann::json& x, int precision = 4) {
      std::ostringstream o;
      if (x.is_number())
        o << std::setprecision(precision) << x.get<double>();
      else if (x.is_string())
        o << x.get<std::string>();
      else
        o << "-";
      return o.str();
    };
    // Force evaluations per step (the fixed point's sweeps for velocity_verlet) next to the timed steps.
    auto evaluations = [&](const nlohmann::json& row) {
      return row.contains("force_evaluations_per_step") ? "; " + number(row.at("force_evaluations_per_step"), 3) + " ev./step"
                                                        : std::string();
    };
    os << "## Sphere assembly (sphere_assembly_1eK.toml): ns per particle-step, same run as LAMMPS\n\n"
       << "| integrator | N | steps (after warm-up); force evaluations per step | ours [ns] (min .. max) | LAMMPS [ns] | "
          "ours / LAMMPS | peak RSS per particle, ours / LAMMPS [kB] |\n|---|---|---|---|---|---|---|\n";
    if (a.contains("velocity_verlet"))
      for (const auto& [label, row] : a.at("velocity_verlet").items()) {
        const bool peer = row.contains("assembly_vs_lammps_ratio");
        os << "| velocity_verlet | " << row.at("num_spheres").get<int>() << " | " << row.at("timed_steps").get<long>() << " (+"
           << row.at("warmup_steps").get<long>() << ")" << evaluations(row) << " | " << spread(row.at("ns_per_particle_step")) << " | "
           << (peer ? spread(row.at("lammps").at("ns_per_particle_step"))
                    : number(row.contains("lammps")  // no "lammps" in the row with --no-lammps
                                 ? row.at("lammps").value("status", a.at("lammps").value("status", nlohmann::json("-")))
                                 : a.at("lammps").value("status", nlohmann::json("-"))))
           << " | " << (peer ? spread(row.at("assembly_vs_lammps_ratio")) : std::string("-")) << " | "
           << (row.contains("peak_rss_per_particle_bytes") ? number(row.at("peak_rss_per_particle_bytes").get<double>() / 1024.0, 3)
                                                           : number(row.at("peak_rss_bytes")))
           << " / "
           << (peer && row.at("lammps").contains("peak_rss_per_particle_bytes")
                   ? number(row.at("lammps").at("peak_rss_per_particle_bytes").get<double>() / 1024.0, 3)
                   : std::string("-"))
           << " |\n";
        if (row.contains("explicit_damping")) {
          const auto& e = row.at("explicit_damping");
          const bool epeer = e.contains("assembly_vs_lammps_ratio");
          os << "| velocity_verlet_explicit_damping | " << row.at("num_spheres").get<int>() << " | "
             << row.at("timed_steps").get<long>() << " (+" << row.at("warmup_steps").get<long>() << ")" << evaluations(e)
             << " | " << spread(e.at("ns_per_particle_step")) << " | "
             << (peer ? spread(row.at("lammps").at("ns_per_particle_step")) : std::string("-")) << " | "
             << (epeer ? spread(e.at("assembly_vs_lammps_ratio")) : std::string("-")) << " | |\n";
        }
      }
    if (a.contains("simo_tarnow"))
      for (const auto& [label, row] : a.at("simo_tarnow").items()) {
        os << "| simo_tarnow | " << number(row.value("num_spheres", nlohmann::json(nullptr))) << " | "
           << number(row.value("steps", nlohmann::json(nullptr))) << " | ";
        if (row.contains("ns_per_particle_step"))
          os << number(row.at("ns_per_particle_step")) << " (" << number(row.at("newton_iterations_per_step"), 2)
             << " Newton it./step) | | | "
             << (row.contains("peak_rss_per_particle_bytes")
                     ? number(row.at("peak_rss_per_particle_bytes").get<double>() / 1024.0, 3)
                     : std::string("-"))
             << " |\n";
        else
          os << "not measurable: " << row.at("not_measurable").get<std::string>() << " | | | |\n";
      }
    const nlohmann::json verlet_rows = a.value("velocity_verlet", nlohmann::json::object());
    for (const auto& [label, row] : verlet_rows.items())
      if (row.contains("lammps") && row.at("lammps").contains("agreement")) {
        const auto& g = row.at("lammps").at("agreement");
        os << "\nSame physics (N = " << row.at("num_spheres").get<int>() << ", after "
           << row.at("warmup_steps").get<long>() + row.at("timed_steps").get<long>() << " steps): kinetic energy ours "
           << number(g.at("kinetic_energy_J").at("ours"), 6) << " J, LAMMPS " << number(g.at("kinetic_energy_J").at("lammps"), 6)
           << " J (rel. diff. " << number(g.at("kinetic_energy_relative_difference"), 3) << "); max overlap ours "
           << number(g.at("max_overlap_m").at("ours"), 6) << " m, LAMMPS " << number(g.at("max_overlap_m").at("lammps"), 6)
           << " m (rel. diff. " << number(g.at("max_overlap_relative_difference"), 3) << "); max centre difference / max "
           << "displacement " << number(g.at("max_centre_difference_over_max_displacement"), 3) << "\n";
        if (row.contains("explicit_damping") && row.at("explicit_damping").contains("lammps_agreement")) {
          const auto& e = row.at("explicit_damping").at("lammps_agreement");
          os << "With LAMMPS's algorithm (velocity_verlet_explicit_damping): kinetic energy rel. diff. "
             << number(e.at("kinetic_energy_relative_difference"), 3) << ", max overlap rel. diff. "
             << number(e.at("max_overlap_relative_difference"), 3) << ", max centre difference / max displacement "
             << number(e.at("max_centre_difference_over_max_displacement"), 3) << "\n";
        }
      }
    for (const auto& [label, row] : verlet_rows.items())
      if (row.contains("openmp"))
        os << "\nOpenMP contact threads (N = " << row.at("num_spheres").get<int>() << ", velocity Verlet): 1 thread "
           << spread(row.at("openmp").at("ns_per_particle_step_1_thread")) << " ns, 2 threads "
           << spread(row.at("openmp").at("ns_per_particle_step_2_threads")) << " ns, speed-up "
           << spread(row.at("openmp").at("speedup")) << ", results bitwise identical: "
           << (row.at("openmp").at("same_result").get<bool>() ? "yes" : "NO") << "\n";
    if (a.contains("two_thread_ceiling")) {
      const auto& c = a.at("two_thread_ceiling");
      if (c.contains("stream_speedup"))
        os << "\nThis machine's two-thread ceiling (same run, 1 vs 2 threads): memory stream (" << number(c.at("stream_bytes").get<double>() / 1e6, 3)
           << " MB, " << number(c.at("stream_bandwidth_1_thread_GB_per_s"), 3) << " GB/s on one thread) speed-up "
           << spread(c.at("stream_speedup")) << "; compute-bound loop speed-up " << spread(c.at("compute_speedup")) << "\n";
      else
        os << "\nThis machine's two-thread ceiling: " << c.at("status").get<std::string>() << "\n";
    }
    os << "\nPeak memory: " << a.at("memory_method").get<std::string>() << ".\n\n";
  }
  os << "## Targets (issue 19 acceptance list first)\n\n| key | value | target | status |\n|---|---|---|---|\n";
  for (const auto& t : r.at("targets")) {
    std::ostringstream v;
    if (t.at("value").is_number())
      v << std::setprecision(4) << t.at("value").get<double>();
    else
      v << "-";
    const std::string status = t.contains("status") ? t.at("status").get<std::string>()
                                                    : (t.at("met").get<bool>() ? "met" : "missed");
    os << "| " << t.at("key").get<std::string>() << " | " << v.str() << " | " << t.at("target").get<std::string>() << " | "
       << status << (t.at("note").get<std::string>().empty() ? "" : " (" + t.at("note").get<std::string>() + ")") << " |\n";
  }
  return os.str();
}

}  // namespace impactlab::bench
