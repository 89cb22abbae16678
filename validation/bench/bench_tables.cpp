#include "bench/bench_tables.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "core/errors.h"
#include "io/atomic_file.h"
#include "io/resumable_table.h"
#include "report/figure_spec.h"

namespace impactlab::bench {
namespace {

using nlohmann::json;

// One cell: numbers in their shortest exact text, booleans as true/false, null or absent as empty; text quoted as
// RFC 4180 asks when it holds a comma, a quote or a line break (CR or LF).
std::string Cell(const json& v) {
  if (v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return FormatShortest(v.get<double>());
  const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// `object[key]`, or null when `object` is not an object or has no such key.
const json& Get(const json& object, const std::string& key) {
  static const json kNull = nullptr;
  return object.is_object() && object.contains(key) ? object[key] : kNull;
}

// The members of `object[key]` (none when it is absent or not an object), for a range-for over items().
const json& Members(const json& object, const std::string& key) {
  static const json kEmpty = json::object();
  const json& member = Get(object, key);
  return member.is_object() ? member : kEmpty;
}

// A CSV table with fixed columns; a row names the cells it has (the others stay empty).
class CsvTable {
 public:
  explicit CsvTable(std::vector<std::string> columns) : columns_(std::move(columns)) {}
  void Add(const std::vector<std::pair<std::string, json>>& cells) {
    std::vector<std::string> row(columns_.size());
    for (const auto& [name, value] : cells) {
      const auto column = std::find(columns_.begin(), columns_.end(), name);
      IMPACTLAB_DEMAND(column != columns_.end());  // a cell for a column the table lacks would be lost silently
      row[static_cast<std::size_t>(column - columns_.begin())] = Cell(value);
    }
    rows_.push_back(std::move(row));
  }
  bool empty() const { return rows_.empty(); }
  std::string Text() const {
    std::ostringstream os;
    for (std::size_t i = 0; i < columns_.size(); ++i) os << (i ? "," : "") << columns_[i];
    os << "\n";
    for (const auto& row : rows_) {
      for (std::size_t i = 0; i < row.size(); ++i) os << (i ? "," : "") << row[i];
      os << "\n";
    }
    return os.str();
  }

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// The median, min and max of a spread {median, min, max} as three cells named <prefix>_median, _min, _max; a plain
// number is its own median (min and max empty).
std::vector<std::pair<std::string, json>> SpreadCells(const std::string& prefix, const json& spread) {
  if (spread.is_number()) return {{prefix + "_median", spread}};
  return {{prefix + "_median", Get(spread, "median")},
          {prefix + "_min", Get(spread, "min")},
          {prefix + "_max", Get(spread, "max")}};
}

std::vector<std::pair<std::string, json>> Join(std::vector<std::pair<std::string, json>> a,
                                               const std::vector<std::pair<std::string, json>>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<std::string> SpreadColumns(const std::string& prefix) {
  return {prefix + "_median", prefix + "_min", prefix + "_max"};
}

std::vector<std::string> Columns(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// The label of an assembly size ("1e3", "1e4", "1e5") as its sphere count when the row does not carry one.
json Spheres(const std::string& label, const json& row) {
  if (row.is_object() && row.contains("num_spheres")) return row["num_spheres"];
  try {
    return static_cast<long long>(std::stod(label));
  } catch (const std::exception&) {
    return nullptr;
  }
}

// A figure on logarithmic axes (every bench figure: sizes and times span decades).
FigureSpec LogLogFigure(std::string name, std::string title, std::string xlabel, std::string ylabel) {
  FigureSpec f;
  f.name = std::move(name);
  f.title = std::move(title);
  f.xlabel = std::move(xlabel);
  f.ylabel = std::move(ylabel);
  f.logx = f.logy = true;
  return f;
}

class Writer {
 public:
  explicit Writer(std::filesystem::path dir) : dir_(std::move(dir)) {}
  void Table(const std::string& name, const CsvTable& table) {
    if (table.empty()) return;
    WriteFileAtomically(dir_ / name, table.Text());
    written_.push_back(name);
  }
  void Figure(const FigureSpec& spec) {
    WriteFigureSpec(dir_, spec);
    written_.push_back(spec.name + ".plot.json");
  }
  std::vector<std::string> written() const { return written_; }

 private:
  std::filesystem::path dir_;
  std::vector<std::string> written_;
};

void Targets(const json& r, Writer& w) {
  CsvTable t({"key", "value", "target", "status", "note"});
  for (const auto& row : r.value("targets", json::array()))
    t.Add({{"key", Get(row, "key")},
           {"value", Get(row, "value")},
           {"target", Get(row, "target")},
           {"status", Get(row, "status")},
           {"note", Get(row, "note")}});
  w.Table("targets.csv", t);
}

void SameRunRatios(const json& r, Writer& w) {
  CsvTable t(Columns({"comparison", "unit"},
                     Columns(SpreadColumns("ours_ns"), Columns(SpreadColumns("peer_ns"), SpreadColumns("ratio")))));
  auto add = [&](const std::string& comparison, const std::string& unit, const json& timing) {
    t.Add(Join({{"comparison", comparison}, {"unit", unit}},
               Join(SpreadCells("ours_ns", Get(timing, "ours_ns_per_item")),
                    Join(SpreadCells("peer_ns", Get(timing, "peer_ns_per_item")),
                         SpreadCells("ratio", Get(timing, "ratio"))))));
  };
  if (r.contains("peers")) {
    const json& p = r["peers"];
    for (const char* k : {"verlet_vs_hand_loop", "verlet_vs_hand_loop_same_rhs", "verlet_vs_odeint", "rk4_vs_odeint"})
      if (p.contains(k)) add(k, "ns per step", p[k]);
    const json& m = Get(p, "cvode_matched_accuracy");
    if (m.is_object() && m.contains("timing_per_contact"))
      add("cvode_vs_verlet_matched_accuracy", "ns per contact", m["timing_per_contact"]);
  }
  if (r.contains("simo_tarnow_vs_verlet"))
    add("simo_tarnow_vs_verlet", "ns per step", Get(r["simo_tarnow_vs_verlet"], "timing"));
  w.Table("same_run_ratios.csv", t);
}

void Chain(const json& r, Writer& w) {
  CsvTable t(Columns({"workload", "integrator", "num_beads"},
                     Columns(SpreadColumns("ns_per_bead_step"), {"newton_iterations_per_step", "steps"})));
  FigureSpec f = LogLogFigure("chain_ns_per_bead_step", "Bead chain: ns per bead-step against N (medians)", "beads N",
                              "time per bead-step [ns]");
  for (const auto& [workload, key] :
       {std::pair<std::string, std::string>{"compressed", "chain_ns_per_bead_step_spread"},
        {"striker", "chain_striker_ns_per_bead_step_spread"}}) {
    if (!r.contains(key)) continue;
    for (const auto& [integrator, by_n] : r[key].items()) {
      for (const auto& [n, s] : by_n.items())
        t.Add(Join(
            {{"workload", workload}, {"integrator", integrator}, {"num_beads", std::stoll(n)}},
            Join(SpreadCells("ns_per_bead_step", s),
                 {{"newton_iterations_per_step", Get(s, "newton_iterations_per_step")}, {"steps", Get(s, "steps")}})));
      f.series.push_back({"chain_ns_per_bead_step.csv",
                          "num_beads",
                          "ns_per_bead_step_median",
                          integrator + " (" + workload + ")",
                          workload == "compressed" ? "o-" : "s--",
                          {{"workload", workload}, {"integrator", integrator}}});
    }
  }
  w.Table("chain_ns_per_bead_step.csv", t);
  if (!t.empty()) w.Figure(f);
}

void DiskCloud(const json& r, Writer& w) {
  CsvTable t(
      Columns({"broad_phase", "num_particles"}, Columns(SpreadColumns("ns_per_particle_step"), {"same_result"})));
  FigureSpec f =
      LogLogFigure("disk_cloud_ns_per_particle_step", "Disk cloud, velocity Verlet: ns per particle-step against N",
                   "disks N", "time per particle-step [ns]");
  const json& cloud = Get(r, "disk_cloud_ns_per_particle_step_spread");
  for (const char* phase : {"cell_list", "all_pairs"}) {
    if (!cloud.is_object() || !cloud.contains(phase)) continue;
    for (const auto& [n, s] : cloud[phase].items())
      t.Add(Join({{"broad_phase", phase}, {"num_particles", std::stoll(n)}},
                 Join(SpreadCells("ns_per_particle_step", s), {{"same_result", Get(Get(cloud, "same_result"), n)}})));
    f.series.push_back({"disk_cloud_ns_per_particle_step.csv",
                        "num_particles",
                        "ns_per_particle_step_median",
                        phase,
                        "o-",
                        {{"broad_phase", phase}}});
  }
  w.Table("disk_cloud_ns_per_particle_step.csv", t);
  if (!t.empty()) w.Figure(f);
}

void Assembly(const json& r, Writer& w) {
  if (!r.contains("assembly")) return;
  const json& a = r["assembly"];
  CsvTable t(Columns(
      {"integrator", "num_spheres", "steps"},
      Columns(SpreadColumns("ns_per_particle_step"),
              Columns({"force_evaluations_per_step", "newton_iterations_per_step", "peak_rss_per_particle_bytes"},
                      Columns(SpreadColumns("vs_lammps"), {"status"})))));
  CsvTable threads(
      Columns({"integrator", "num_spheres"}, Columns(SpreadColumns("ns_per_particle_step_1_thread"),
                                                     Columns(SpreadColumns("ns_per_particle_step_2_threads"),
                                                             Columns(SpreadColumns("speedup"), {"same_result"})))));
  const json& lammps_status = Get(Get(a, "lammps"), "status");
  // The 1 vs 2 contact threads of one size (the row's "openmp" block), when it was measured.
  auto add_threads = [&threads](const std::string& integrator, const json& n, const json& row) {
    const json& o = Get(row, "openmp");
    if (!o.is_object()) return;
    threads.Add(
        Join({{"integrator", integrator}, {"num_spheres", n}},
             Join(SpreadCells("ns_per_particle_step_1_thread", Get(o, "ns_per_particle_step_1_thread")),
                  Join(SpreadCells("ns_per_particle_step_2_threads", Get(o, "ns_per_particle_step_2_threads")),
                       Join(SpreadCells("speedup", Get(o, "speedup")), {{"same_result", Get(o, "same_result")}})))));
  };
  for (const auto& [label, row] : Members(a, "velocity_verlet").items()) {
    const json n = Spheres(label, row);
    const json& steps = Get(row, "timed_steps");
    t.Add(Join({{"integrator", "velocity_verlet"}, {"num_spheres", n}, {"steps", steps}},
               Join(SpreadCells("ns_per_particle_step", Get(row, "ns_per_particle_step")),
                    Join({{"force_evaluations_per_step", Get(row, "force_evaluations_per_step")},
                          {"peak_rss_per_particle_bytes", Get(row, "peak_rss_per_particle_bytes")}},
                         SpreadCells("vs_lammps", Get(row, "assembly_vs_lammps_ratio"))))));
    const json& e = Get(row, "explicit_damping");
    if (e.is_object())
      t.Add(Join({{"integrator", "velocity_verlet_explicit_damping"}, {"num_spheres", n}, {"steps", steps}},
                 Join(SpreadCells("ns_per_particle_step", Get(e, "ns_per_particle_step")),
                      Join({{"force_evaluations_per_step", Get(e, "force_evaluations_per_step")}},
                           SpreadCells("vs_lammps", Get(e, "assembly_vs_lammps_ratio"))))));
    const json& l = Get(row, "lammps");
    if (l.is_object() && l.contains("ns_per_particle_step"))
      t.Add(Join({{"integrator", "lammps"}, {"num_spheres", n}, {"steps", steps}},
                 Join(SpreadCells("ns_per_particle_step", l["ns_per_particle_step"]),
                      {{"peak_rss_per_particle_bytes", Get(l, "peak_rss_per_particle_bytes")}})));
    else if (!Get(l, "status").is_null() || !lammps_status.is_null())
      t.Add({{"integrator", "lammps"},
             {"num_spheres", n},
             {"status", Get(l, "status").is_null() ? lammps_status : l["status"]}});
    add_threads("velocity_verlet", n, row);
  }
  for (const auto& [label, row] : Members(a, "simo_tarnow").items()) {
    t.Add(Join(
        {{"integrator", "simo_tarnow"},
         {"num_spheres", Spheres(label, row)},
         {"steps", Get(row, "steps")},
         {"newton_iterations_per_step", Get(row, "newton_iterations_per_step")},
         {"peak_rss_per_particle_bytes", Get(row, "peak_rss_per_particle_bytes")},
         {"status", row.contains("not_measurable") ? json("not measurable: " + row["not_measurable"].get<std::string>())
                                                   : json(nullptr)}},
        SpreadCells("ns_per_particle_step", row.contains("ns_per_particle_step_spread")
                                                ? row["ns_per_particle_step_spread"]
                                                : Get(row, "ns_per_particle_step"))));
    add_threads("simo_tarnow", Spheres(label, row), row);
  }
  const json& c = Get(a, "two_thread_ceiling");
  if (c.is_object() && c.contains("stream_speedup")) {
    threads.Add(Join({{"integrator", "machine ceiling: memory stream"}}, SpreadCells("speedup", c["stream_speedup"])));
    threads.Add(
        Join({{"integrator", "machine ceiling: compute-bound loop"}}, SpreadCells("speedup", c["compute_speedup"])));
  }
  w.Table("assembly_ns_per_particle_step.csv", t);
  w.Table("assembly_openmp.csv", threads);
  if (t.empty()) return;
  FigureSpec f = LogLogFigure("assembly_ns_per_particle_step",
                              "Sphere assembly: ns per particle-step (one core each, same run as LAMMPS)", "spheres N",
                              "time per particle-step [ns]");
  for (const auto& [integrator, style] : {std::pair<std::string, std::string>{"velocity_verlet", "o-"},
                                          {"velocity_verlet_explicit_damping", "s-"},
                                          {"simo_tarnow", "^-"},
                                          {"lammps", "k--"}})
    f.series.push_back({"assembly_ns_per_particle_step.csv",
                        "num_spheres",
                        "ns_per_particle_step_median",
                        integrator == "lammps" ? "LAMMPS (pair granular)" : integrator,
                        style,
                        {{"integrator", integrator}}});
  w.Figure(f);
}

void Exact(const json& r, Writer& w) {
  if (!r.contains("exact")) return;
  const json& e = r["exact"];
  CsvTable t(Columns({"quantity"}, SpreadColumns("ns")));
  for (const char* k :
       {"exact_restitution_ns", "exact_contact_time_ns", "exact_trajectory_1000_ns", "cvode_contact_ns"}) {
    const std::string spread = std::string(k) + "_spread";
    t.Add(Join({{"quantity", std::string(k).substr(0, std::string(k).size() - 3)}},
               SpreadCells("ns", e.contains(spread) ? e[spread] : Get(e, k))));
  }
  w.Table("exact.csv", t);
}

void Sweep(const json& r, Writer& w) {
  if (!r.contains("sweep")) return;
  const json& s = r["sweep"];
  CsvTable t({"threads", "wall_s", "speedup", "identical_results", "description"});
  t.Add({{"threads", 1}, {"wall_s", Get(s, "wall_s_1_thread")}, {"description", Get(s, "description")}});
  t.Add({{"threads", 2},
         {"wall_s", Get(s, "wall_s_2_threads")},
         {"speedup", Get(s, "sweep_speedup_2_threads")},
         {"identical_results", Get(s, "identical_results")},
         {"description", Get(s, "description")}});
  w.Table("sweep.csv", t);
}

void MatchedEnergy(const json& r, Writer& w) {
  if (!r.contains("matched_energy")) return;
  const json& m = r["matched_energy"];
  CsvTable t(Columns({"scheme", "setting", "value", "max_energy_error", "steps"},
                     Columns(SpreadColumns("wall_s"), {"vs_velocity_verlet", "skipped"})));
  FigureSpec f = LogLogFigure("matched_energy_work", "Work at matched energy accuracy (100-bead chain)",
                              "max |E - E0| / E0 over the run", "wall time [s]");
  for (const auto& [scheme, row] : Members(m, "schemes").items()) {
    if (row.contains("skipped")) {
      t.Add({{"scheme", scheme}, {"skipped", row["skipped"]}});
      continue;
    }
    const bool adaptive = row.contains("rtol");
    t.Add(Join({{"scheme", scheme},
                {"setting", adaptive ? "rtol" : "dt"},
                {"value", Get(row, adaptive ? "rtol" : "dt")},
                {"max_energy_error", Get(row, "max_energy_error")},
                {"steps", Get(row, "steps")},
                {"vs_velocity_verlet", Get(Get(m, "matched_energy_accuracy_vs_verlet_ratio"), scheme)}},
               SpreadCells("wall_s", Get(row, "seconds"))));
    f.series.push_back({"matched_energy.csv", "max_energy_error", "wall_s_median", scheme, "o", {{"scheme", scheme}}});
  }
  w.Table("matched_energy.csv", t);
  if (!t.empty()) w.Figure(f);
}

void Models(const json& r, Writer& w) {
  if (!r.contains("models")) return;
  CsvTable t(Columns(
      {"model", "integrator", "unknowns", "dt"},
      Columns(SpreadColumns("ns_per_step"), {"implicit", "newton_iterations_per_step", "rhs_per_step", "skipped"})));
  for (const auto& [model, row] : r["models"].items())
    for (const auto& [name, c] : Members(row, "integrators").items())
      t.Add(Join({{"model", model},
                  {"integrator", name},
                  {"unknowns", Get(row, "unknowns")},
                  {"dt", Get(row, "dt")},
                  {"implicit", Get(c, "implicit")},
                  {"newton_iterations_per_step", Get(c, "newton_iterations_per_step")},
                  {"rhs_per_step", Get(c, "rhs_per_step")},
                  {"skipped", Get(c, "skipped")}},
                 c.contains("ns_per_step") ? SpreadCells("ns_per_step", c["ns_per_step"])
                                           : std::vector<std::pair<std::string, json>>{}));
  w.Table("models.csv", t);
}

}  // namespace

std::vector<std::string> WriteBenchTables(const json& result, const std::filesystem::path& dir) {
  Writer w(dir);
  Targets(result, w);
  SameRunRatios(result, w);
  Chain(result, w);
  DiskCloud(result, w);
  Assembly(result, w);
  Exact(result, w);
  Sweep(result, w);
  MatchedEnergy(result, w);
  Models(result, w);
  return w.written();
}

std::vector<std::string> BenchTableFileNames() {
  return {"targets.csv",
          "same_run_ratios.csv",
          "chain_ns_per_bead_step.csv",
          "chain_ns_per_bead_step.plot.json",
          "disk_cloud_ns_per_particle_step.csv",
          "disk_cloud_ns_per_particle_step.plot.json",
          "assembly_ns_per_particle_step.csv",
          "assembly_ns_per_particle_step.plot.json",
          "assembly_openmp.csv",
          "exact.csv",
          "sweep.csv",
          "matched_energy.csv",
          "matched_energy_work.plot.json",
          "models.csv"};
}

}  // namespace impactlab::bench
