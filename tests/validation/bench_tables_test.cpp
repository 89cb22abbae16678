// The bench's files (bench/bench_tables.h): every CSV cell is the JSON value it comes from, exactly (shortest
// round-trip text), text cells survive commas and quotes, a figure names columns and rows its CSV has, and the partial
// results handed out after each group are the result so far. Nothing here times anything.
#include "bench/bench_tables.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_suite.h"

using namespace impactlab;
using nlohmann::json;

namespace {

// Rows of a CSV file as maps column → cell, with RFC 4180 quoting undone (a reader independent of the writer).
std::vector<std::map<std::string, std::string>> ReadCsv(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::vector<std::vector<std::string>> rows(1);
  std::string cell;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(cell);
      cell.clear();
    } else if (c == '\n') {
      rows.back().push_back(cell);
      cell.clear();
      rows.emplace_back();
    } else {
      cell += c;
    }
  }
  rows.pop_back();  // after the last line break
  std::vector<std::map<std::string, std::string>> out;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    REQUIRE(rows[r].size() == rows[0].size());
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < rows[0].size(); ++c) row[rows[0][c]] = rows[r][c];
    out.push_back(row);
  }
  return out;
}

const std::map<std::string, std::string>& Row(const std::vector<std::map<std::string, std::string>>& rows,
                                              const std::map<std::string, std::string>& match) {
  for (const auto& row : rows) {
    bool all = true;
    for (const auto& [column, value] : match) all = all && row.count(column) && row.at(column) == value;
    if (all) return row;
  }
  FAIL("no row matches");
  return rows.front();
}

json Spread(double median, double min, double max) { return {{"median", median}, {"min", min}, {"max", max}}; }

// A result of the shape RunBenchSuite returns (bench_suite.h), with values whose text is not trivial.
json SampleResult() {
  json r;
  r["targets"] = json::array({{{"key", "verlet_vs_odeint_ratio"},
                               {"value", 1.0 / 3.0},
                               {"target", "<= 1.1"},
                               {"status", "missed"},
                               {"note", "note with a comma, and \"quotes\""}}});
  r["simo_tarnow_vs_verlet"] = {{"dt", 3.5e-5},
                                {"timing",
                                 {{"ours_ns_per_item", Spread(535.1, 530.0, 540.5)},
                                  {"peer_ns_per_item", Spread(41.8, 41.0, 43.0)},
                                  {"ratio", Spread(12.8, 12.3, 13.1)}}}};
  r["chain_ns_per_bead_step_spread"] = {
      {"velocity_verlet",
       {{"100", {{"median", 56.4}, {"min", 55.0}, {"max", 57.0}, {"newton_iterations_per_step", 0.0}, {"steps", 200}}},
        {"10000",
         {{"median", 76.9}, {"min", 70.0}, {"max", 80.0}, {"newton_iterations_per_step", 0.0}, {"steps", 200}}}}}};
  json vv1e5 = {
      {"num_spheres", 97336},
      {"timed_steps", 20},
      {"ns_per_particle_step", Spread(1474.25, 1400.0, 1500.0)},
      {"force_evaluations_per_step", 9.15},
      {"peak_rss_per_particle_bytes", 3710.5},
      {"assembly_vs_lammps_ratio", Spread(4.99, 4.9, 5.1)},
      {"explicit_damping",
       {{"ns_per_particle_step", Spread(1100.0, 1090.0, 1110.0)},
        {"assembly_vs_lammps_ratio", Spread(3.93, 3.9, 4.0)}}},
      {"lammps", {{"ns_per_particle_step", Spread(0.1 + 0.2, 0.25, 0.35)}, {"peak_rss_per_particle_bytes", 1150.0}}},
      {"openmp",
       {{"ns_per_particle_step_1_thread", Spread(2330.0, 2300.0, 2400.0)},
        {"ns_per_particle_step_2_threads", Spread(1560.0, 1500.0, 1600.0)},
        {"speedup", Spread(1.49, 1.45, 1.55)},
        {"same_result", true}}}};
  r["assembly"] = {{"lammps", {{"executable", "/usr/bin/lmp"}}},
                   {"velocity_verlet", {{"1e5", vv1e5}}},
                   {"simo_tarnow",
                    {{"1e3",
                      {{"num_spheres", 1000},
                       {"steps", 3},
                       {"ns_per_particle_step", 37574.0},
                       {"ns_per_particle_step_spread", Spread(37574.0, 37000.0, 38000.0)},
                       {"newton_iterations_per_step", 4.0},
                       {"openmp", {{"speedup", Spread(1.83, 1.3, 1.9)}, {"same_result", true}}}}},
                     {"1e4", {{"not_measurable", "child run failed, exit 1"}}}}},
                   {"two_thread_ceiling",
                    {{"stream_speedup", Spread(1.34, 1.2, 1.4)}, {"compute_speedup", Spread(1.92, 1.8, 1.95)}}}};
  return r;
}

}  // namespace

TEST_CASE("bench tables: each CSV cell is its JSON value exactly, text cells quoted, every name announced") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "impactlab_bench_tables_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const json r = SampleResult();
  const std::vector<std::string> written = bench::WriteBenchTables(r, dir);
  const std::vector<std::string> announced = bench::BenchTableFileNames();
  for (const auto& name : written) {
    INFO(name);
    CHECK(std::find(announced.begin(), announced.end(), name) != announced.end());
    CHECK(std::filesystem::exists(dir / name));
  }
  // Groups absent from the result write nothing.
  CHECK_FALSE(std::filesystem::exists(dir / "models.csv"));
  CHECK_FALSE(std::filesystem::exists(dir / "exact.csv"));

  const auto targets = ReadCsv(dir / "targets.csv");
  REQUIRE(targets.size() == 1);
  CHECK(targets[0].at("note") == "note with a comma, and \"quotes\"");
  CHECK(std::stod(targets[0].at("value")) == 1.0 / 3.0);  // shortest text that parses back to the same double

  const auto ratios = ReadCsv(dir / "same_run_ratios.csv");
  const auto& st = Row(ratios, {{"comparison", "simo_tarnow_vs_verlet"}});
  CHECK(std::stod(st.at("ratio_median")) == 12.8);
  CHECK(std::stod(st.at("peer_ns_min")) == 41.0);

  const auto assembly = ReadCsv(dir / "assembly_ns_per_particle_step.csv");
  CHECK(assembly.size() == 5);  // velocity_verlet, its explicit damping, LAMMPS at 1e5; Simo–Tarnow at 1e3 and 1e4
  const auto& lammps = Row(assembly, {{"integrator", "lammps"}, {"num_spheres", "97336"}});
  CHECK(std::stod(lammps.at("ns_per_particle_step_median")) == 0.1 + 0.2);
  CHECK(std::stod(lammps.at("peak_rss_per_particle_bytes")) == 1150.0);
  const auto& vv = Row(assembly, {{"integrator", "velocity_verlet"}});
  CHECK(std::stod(vv.at("vs_lammps_median")) == 4.99);
  CHECK(std::stod(vv.at("force_evaluations_per_step")) == 9.15);
  CHECK(std::stod(Row(assembly, {{"integrator", "velocity_verlet_explicit_damping"}}).at("vs_lammps_median")) == 3.93);
  const auto& st1e4 = Row(assembly, {{"integrator", "simo_tarnow"}, {"num_spheres", "10000"}});  // from the label
  CHECK(st1e4.at("ns_per_particle_step_median").empty());
  CHECK(st1e4.at("status") == "not measurable: child run failed, exit 1");
  const auto& st1e3 = Row(assembly, {{"integrator", "simo_tarnow"}, {"num_spheres", "1000"}});
  CHECK(std::stod(st1e3.at("newton_iterations_per_step")) == 4.0);
  CHECK(std::stod(st1e3.at("ns_per_particle_step_min")) == 37000.0);  // the spread, when the row has one

  const auto threads = ReadCsv(dir / "assembly_openmp.csv");
  CHECK(std::stod(Row(threads, {{"integrator", "velocity_verlet"}}).at("speedup_median")) == 1.49);
  CHECK(Row(threads, {{"integrator", "velocity_verlet"}}).at("same_result") == "true");
  CHECK(std::stod(Row(threads, {{"integrator", "simo_tarnow"}, {"num_spheres", "1000"}}).at("speedup_min")) == 1.3);
  CHECK(std::stod(Row(threads, {{"integrator", "machine ceiling: memory stream"}}).at("speedup_min")) == 1.2);

  // Each figure reads columns its CSV has, and each series' `where` selects at least one row.
  for (const char* figure : {"assembly_ns_per_particle_step", "chain_ns_per_bead_step"}) {
    INFO(figure);
    std::ifstream in(dir / (std::string(figure) + ".plot.json"));
    const json spec = json::parse(in);
    int rows_plotted = 0;
    for (const auto& s : spec["series"]) {
      const auto rows = ReadCsv(dir / s["csv"].get<std::string>());
      REQUIRE_FALSE(rows.empty());
      CHECK(rows[0].count(s["x"].get<std::string>()) == 1);
      CHECK(rows[0].count(s["y"].get<std::string>()) == 1);
      for (const auto& row : rows) {
        bool match = true;
        for (const auto& [column, value] : s["where"].items())
          match = match && row.at(column) == value.get<std::string>();
        rows_plotted += match;
      }
    }
    CHECK(rows_plotted > 0);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("bench: the partial result after each group is the result so far, marked incomplete") {
  bench::BenchOptions o;
  o.quick = true;
  o.repetitions = 1;
  o.progress = false;
  o.only = {"exact", "implicit"};  // run in the suite's order: implicit, then exact
  std::vector<json> partial;
  o.group_done = [&partial](const json& r) { partial.push_back(r); };
  const json r = bench::RunBenchSuite(o);
  REQUIRE(partial.size() == 2);
  for (const auto& p : partial) {
    CHECK(p["complete"] == false);
    CHECK(p["targets"].is_array());
  }
  CHECK(partial[0].contains("simo_tarnow_vs_verlet"));
  CHECK_FALSE(partial[0].contains("exact"));
  CHECK(partial[1]["exact"] == r["exact"]);
  CHECK(partial[1]["simo_tarnow_vs_verlet"] == r["simo_tarnow_vs_verlet"]);
  CHECK(r["complete"] == true);
  CHECK(r["versions"].contains("impactlab"));
  CHECK(r["versions"].contains("Eigen"));
}
