#include "sweep/parallel_sweep.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <fstream>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/errors.h"
#include "core/interrupt.h"
#include "io/atomic_file.h"
#include "io/resumable_table.h"
#include "io/writable_directory.h"
#include "registry/registries.h"
#include "run/scenario_runner.h"

namespace impactlab {

namespace {

namespace fs = std::filesystem;

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::stringstream ss(s);
  while (std::getline(ss, part, sep)) parts.push_back(part);
  if (!s.empty() && s.back() == sep) parts.push_back("");
  return parts;
}

double ParseNumber(const std::string& what, const std::string& text) {
  double x = 0.0;
  const std::string t = Trim(text);
  const auto res = std::from_chars(t.data(), t.data() + t.size(), x);
  if (t.empty() || res.ec != std::errc() || res.ptr != t.data() + t.size() || !std::isfinite(x))
    throw InvalidParameter(what, "\"" + text + "\"", "a finite number");
  return x;
}

const std::vector<std::string> kReservedColumns = {"row", "case", "integrator", "status", "integrators"};

std::vector<std::string> IntegratorNames(const SweepSpec& spec) {
  if (!spec.integrators.empty()) return spec.integrators;
  if (!spec.scenario.integrators.empty()) return spec.scenario.integrators;
  return {"velocity_verlet"};
}

/// Value index on every axis of case `c` (mixed radix, first axis slowest).
std::vector<size_t> AxisIndices(const SweepSpec& spec, size_t c) {
  std::vector<size_t> idx(spec.axes.size());
  for (size_t a = spec.axes.size(); a-- > 0;) {
    idx[a] = c % spec.axes[a].values.size();
    c /= spec.axes[a].values.size();
  }
  return idx;
}

std::string CanonicalValue(const ParameterSet::Value& v) {
  if (auto d = std::get_if<double>(&v)) return FormatShortest(*d);
  if (auto s = std::get_if<std::string>(&v)) return "\"" + *s + "\"";
  if (auto b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  std::string out = "[";
  for (double x : std::get<std::vector<double>>(v)) out += (out.size() > 1 ? ";" : "") + FormatShortest(x);
  return out + "]";
}

/// The text the fingerprint hashes: everything that determines the results table.
std::string CanonicalDescription(const SweepSpec& spec) {
  std::ostringstream os;
  os << "model=" << spec.scenario.model << "|params=";
  for (const auto& [k, v] : spec.scenario.parameters.values()) {
    bool swept = false;
    for (const auto& a : spec.axes) swept = swept || a.key == k;
    if (!swept) os << k << "=" << CanonicalValue(v) << ";";
  }
  os << "|vary=";
  for (const auto& a : spec.axes) {
    os << a.key << ":";
    for (size_t i = 0; i < a.values.size(); ++i) os << (i ? "/" : "") << a.values[i];
    os << ";";
  }
  os << "|integrators=";
  for (const auto& n : IntegratorNames(spec)) os << n << ";";
  os << "|columns=";
  for (const auto& c : SweepColumns(spec)) os << c << ";";
  return os.str();
}

std::uint64_t Fnv1a64(const std::string& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char ch : s) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

std::string SafeCell(std::string s) {
  for (char& ch : s)
    if (ch == ',' || ch == '"' || ch == '\n' || ch == '\r') ch = ';';
  return s;
}

std::string Cell(const nlohmann::json& run, const std::string& key) {
  if (!run.contains(key)) return "";
  const auto& v = run[key];
  if (v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  if (v.is_number_unsigned()) return std::to_string(v.get<unsigned long long>());
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return FormatShortest(v.get<double>());
  if (v.is_string()) return SafeCell(v.get<std::string>());
  return SafeCell(v.dump());
}

nlohmann::json CellToJson(const std::string& cell) {
  if (cell.empty()) return nullptr;
  double x = 0.0;
  const auto res = std::from_chars(cell.data(), cell.data() + cell.size(), x);
  if (res.ec == std::errc() && res.ptr == cell.data() + cell.size()) {
    if (!std::isfinite(x)) return nullptr;
    if (cell.find_first_of(".eEn") == std::string::npos && std::abs(x) < 9e15) return static_cast<long long>(x);
    return x;
  }
  return cell;
}

}  // namespace

SweepAxis ParseSweepAxis(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || Trim(text.substr(0, eq)).empty())
    throw InvalidParameter("--vary", "\"" + text + "\"", "key=v1,v2,... or key=start:stop:count");
  SweepAxis axis;
  axis.key = Trim(text.substr(0, eq));
  const std::string rhs = Trim(text.substr(eq + 1));
  if (std::find(kReservedColumns.begin(), kReservedColumns.end(), axis.key) != kReservedColumns.end())
    throw InvalidParameter("--vary", "\"" + text + "\"",
                           "a scenario key other than row, case, integrator, status, integrators (use "
                           "--integrator NAME to run several integrators)");
  if (axis.key.find_first_of(",\"") != std::string::npos)
    throw InvalidParameter("--vary", "\"" + text + "\"", "a key without ',' or '\"'");
  if (rhs.find(':') != std::string::npos && rhs.find(',') == std::string::npos) {
    const auto parts = Split(rhs, ':');
    if (parts.size() != 3)
      throw InvalidParameter("--vary " + axis.key, "\"" + rhs + "\"", "start:stop:count");
    const double start = ParseNumber("--vary " + axis.key + " start", parts[0]);
    const double stop = ParseNumber("--vary " + axis.key + " stop", parts[1]);
    const double count_d = ParseNumber("--vary " + axis.key + " count", parts[2]);
    if (count_d < 1 || count_d > 1e6 || count_d != std::floor(count_d))
      throw InvalidParameter("--vary " + axis.key + " count", count_d, "an integer in [1, 1000000]");
    const auto count = static_cast<size_t>(count_d);
    for (size_t i = 0; i < count; ++i) {
      const double x = count == 1 ? start
                       : i + 1 == count
                           ? stop
                           : start + (stop - start) * static_cast<double>(i) / static_cast<double>(count - 1);
      axis.values.push_back(FormatShortest(x));
    }
    return axis;
  }
  for (const auto& v : Split(rhs, ',')) {
    const std::string t = Trim(v);
    if (t.empty())
      throw InvalidParameter("--vary " + axis.key, "\"" + rhs + "\"", "a comma-separated list of non-empty values");
    if (t.find('"') != std::string::npos)
      throw InvalidParameter("--vary " + axis.key, "\"" + t + "\"", "a value without '\"'");
    axis.values.push_back(t);
  }
  if (axis.values.empty())
    throw InvalidParameter("--vary " + axis.key, "\"" + rhs + "\"", "at least one value");
  return axis;
}

const std::vector<std::string>& DefaultSweepMetrics() {
  static const std::vector<std::string> m = {"restitution",     "contact_duration", "max_overlap",
                                             "energy_error_max", "energy_balance_residual_max",
                                             "steps",           "rhs_evaluations", "rejected_steps",
                                             "final_time"};
  return m;
}

std::vector<std::string> SweepColumns(const SweepSpec& spec) {
  std::vector<std::string> c = {"row", "case"};
  for (const auto& a : spec.axes) c.push_back(a.key);
  c.push_back("integrator");
  c.push_back("status");
  for (const auto& m : DefaultSweepMetrics()) c.push_back(m);
  for (const auto& m : spec.metrics)
    if (std::find(c.begin(), c.end(), m) == c.end()) c.push_back(m);
  return c;
}

std::vector<std::string> SweepIntegrators(const SweepSpec& spec) { return IntegratorNames(spec); }

Scenario SweepCase(const SweepSpec& spec, size_t c) {
  Scenario scenario = spec.scenario;
  const std::vector<size_t> idx = AxisIndices(spec, c);
  for (size_t a = 0; a < spec.axes.size(); ++a) ApplyOverride(scenario, spec.axes[a].key + "=" + spec.axes[a].values[idx[a]]);
  return scenario;
}

std::string SweepCaseLabel(const SweepSpec& spec, size_t c) {
  std::string label;
  const std::vector<size_t> idx = AxisIndices(spec, c);
  for (size_t a = 0; a < spec.axes.size(); ++a) label += (a ? " " : "") + spec.axes[a].key + "=" + spec.axes[a].values[idx[a]];
  return label;
}

size_t SweepRowCount(const SweepSpec& spec) {
  size_t n = IntegratorNames(spec).size();
  for (const auto& a : spec.axes) n *= a.values.size();
  return n;
}

std::string SweepFingerprint(const SweepSpec& spec) {
  std::ostringstream os;
  os << std::hex << std::setw(16) << std::setfill('0') << Fnv1a64(CanonicalDescription(spec));
  return os.str();
}

SweepResult RunSweep(const SweepSpec& spec, const SweepOptions& options) {
  // ---- validate everything before any case runs ----
  if (spec.axes.empty()) throw InvalidParameter("--vary", "(none)", "at least one key=values");
  for (size_t i = 0; i < spec.axes.size(); ++i) {
    if (spec.axes[i].values.empty()) throw InvalidParameter("--vary " + spec.axes[i].key, "(no values)", "at least one value");
    for (size_t j = 0; j < i; ++j)
      if (spec.axes[j].key == spec.axes[i].key)
        throw InvalidParameter("--vary", spec.axes[i].key, "each key at most once");
  }
  for (const auto& m : spec.metrics)
    if (m.empty() || m.find_first_of(",\"") != std::string::npos)
      throw InvalidParameter("--metric", "\"" + m + "\"", "a summary key without ',' or '\"'");
  const std::vector<std::string> integrators = IntegratorNames(spec);
  for (const auto& n : integrators) (void)IntegratorRegistry().Get(n);  // unknown name → list of valid ones
  const size_t n_int = integrators.size();
  size_t n_cases = 1;
  for (const auto& a : spec.axes) {
    if (n_cases > 10'000'000 / a.values.size())
      throw InvalidParameter("--vary", "(product of sizes)", "at most 10000000 cases");
    n_cases *= a.values.size();
  }
  const size_t n_rows = n_cases * n_int;

  // Case scenarios (mixed radix, first axis slowest); building every model surfaces bad values now.
  std::vector<Scenario> cases(n_cases, spec.scenario);
  std::vector<std::string> labels(n_cases);
  std::vector<std::vector<std::string>> case_values(n_cases);
  for (size_t c = 0; c < n_cases; ++c) {
    const std::vector<size_t> idx = AxisIndices(spec, c);
    for (size_t a = 0; a < spec.axes.size(); ++a) {
      const std::string& v = spec.axes[a].values[idx[a]];
      ApplyOverride(cases[c], spec.axes[a].key + "=" + v);
      case_values[c].push_back(v);
      labels[c] += (a ? " " : "") + spec.axes[a].key + "=" + v;
    }
    (void)ModelRegistry().Get(cases[c].model).make(cases[c].parameters);
  }

  const std::vector<std::string> columns = SweepColumns(spec);
  const std::string fingerprint = SweepFingerprint(spec);
  std::vector<std::string> order(n_rows);
  for (size_t r = 0; r < n_rows; ++r) order[r] = std::to_string(r);
  ResumableTable::Options topt;
  topt.signature = "impactlab sweep v1 fingerprint=" + fingerprint + " rows=" + std::to_string(n_rows);
  topt.strict = true;
  topt.order = order;
  fs::path csv_path, json_path;
  if (!options.out_dir.empty()) {
    RequireWritableDirectory(options.out_dir, {"sweep.csv", "sweep.json"}, "--out");
    csv_path = fs::path(options.out_dir) / "sweep.csv";
    json_path = fs::path(options.out_dir) / "sweep.json";
    std::ifstream existing(csv_path);
    std::string first;
    if (existing && std::getline(existing, first) && first.rfind("# impactlab sweep", 0) == 0 &&
        first != "# " + topt.signature)
      throw InvalidParameter(
          "--out", "\"" + options.out_dir + "\"",
          "a directory without sweep.csv, or whose sweep.csv was written by this same sweep; " + csv_path.string() +
              " has \"" + first.substr(2) + "\", this sweep is fingerprint=" + fingerprint + " rows=" +
              std::to_string(n_rows) + " (the scenario parameters, --set, --vary, --integrator or --metric differ; " +
              "the stored sweep is described in sweep.json). Use another --out or delete the file; it was left "
              "untouched");
  }
  ResumableTable table(csv_path, columns, topt);  // strict: a different sweep's file is refused, untouched

  std::vector<size_t> todo;
  for (size_t r = 0; r < n_rows; ++r)
    if (!table.Has(order[r])) todo.push_back(r);
  SweepResult result;
  result.columns = columns;
  result.rows_total = n_rows;
  result.rows_resumed = n_rows - todo.size();
  result.fingerprint = fingerprint;
  if (options.progress && result.rows_resumed > 0)
    options.progress("resuming: " + std::to_string(result.rows_resumed) + " of " + std::to_string(n_rows) +
                     " rows already in " + csv_path.string());

  // ---- compute ----
  std::atomic<size_t> next{0}, done{result.rows_resumed};
  std::atomic<bool> abort{false};
  std::mutex mutex;  // progress output and the first fatal error
  std::exception_ptr fatal;
  auto worker = [&] {
    while (!abort.load() && !StopRequested()) {
      const size_t k = next++;
      if (k >= todo.size()) return;
      const size_t r = todo[k], c = r / n_int, i = r % n_int;
      const auto t0 = std::chrono::steady_clock::now();
      try {
        RunRequest request;
        request.scenario = cases[c];
        request.integrators = {integrators[i]};
        std::string status = "ok", message;
        nlohmann::json run = nlohmann::json::object();
        try {
          run = options.run_case ? options.run_case(c, i, request) : RunScenario(request)["runs"][0];
        } catch (const StepFailure& e) {
          status = "step_failure";
          message = e.what();
        }
        std::vector<std::string> cells = {std::to_string(c)};
        for (const auto& v : case_values[c]) cells.push_back(v);
        cells.push_back(integrators[i]);
        cells.push_back(status);
        for (size_t col = cells.size() + 1; col < columns.size(); ++col) cells.push_back(Cell(run, columns[col]));
        table.PutCells(order[r], std::move(cells));
        const size_t d = ++done;
        if (options.progress) {
          const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          std::ostringstream os;
          os << "[" << d << "/" << n_rows << "] " << labels[c] << " " << integrators[i] << " "
             << (status == "ok" ? "done" : status + ": " + message) << " (" << std::fixed << std::setprecision(2)
             << s << " s)";
          std::lock_guard lock(mutex);
          options.progress(os.str());
        }
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!fatal) fatal = std::current_exception();
        abort = true;
      }
    }
  };
  int threads = options.threads > 0 ? options.threads
                                    : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  threads = static_cast<int>(std::min<size_t>(static_cast<size_t>(threads), std::max<size_t>(todo.size(), 1)));
  result.threads = threads;
  const auto t0 = std::chrono::steady_clock::now();
  {
    std::vector<std::jthread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  }  // joined here
  result.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (fatal) std::rethrow_exception(fatal);

  // ---- collect (rows in row order) ----
  for (size_t r = 0; r < n_rows; ++r) {
    if (!table.Has(order[r])) continue;
    std::vector<std::string> row = {order[r]};
    for (auto& cell : table.GetCells(order[r])) row.push_back(std::move(cell));
    result.rows_failed += row[3 + spec.axes.size()] != "ok";  // the status column
    result.rows.push_back(std::move(row));
  }
  result.rows_done = result.rows.size();
  result.interrupted = result.rows_done < n_rows;
  result.csv = table.Text();

  nlohmann::json& j = result.json;
  j["fingerprint"] = fingerprint;
  j["description"] = CanonicalDescription(spec);
  j["scenario"] = spec.scenario.path;
  j["model"] = spec.scenario.model;
  j["vary"] = nlohmann::json::array();
  for (const auto& a : spec.axes) j["vary"].push_back({{"key", a.key}, {"values", a.values}});
  j["integrators"] = integrators;
  j["columns"] = columns;
  j["rows_total"] = n_rows;
  j["rows_done"] = result.rows_done;
  j["complete"] = !result.interrupted;
  j["rows"] = nlohmann::json::array();
  for (const auto& row : result.rows) {
    nlohmann::json o = nlohmann::json::object();
    for (size_t col = 0; col < columns.size(); ++col)
      o[columns[col]] = (columns[col] == "integrator" || columns[col] == "status") ? nlohmann::json(row[col])
                                                                                    : CellToJson(row[col]);
    j["rows"].push_back(o);
  }
  if (!json_path.empty()) WriteFileAtomically(json_path, j.dump(2) + "\n");
  return result;
}

SweepTiming TimeSweep(const SweepSpec& spec, int threads) {
  SweepOptions o;
  o.threads = threads;
  const SweepResult r = RunSweep(spec, o);
  return SweepTiming{threads, r.rows_done, r.wall_time_s};
}

SweepScaling MeasureSweepScaling(const SweepSpec& spec, int repeats) {
  if (repeats < 1) throw InvalidParameter("repeats", repeats, ">= 1");
  SweepScaling s;
  s.wall_1_thread_s = s.wall_2_threads_s = std::numeric_limits<double>::infinity();
  for (int k = 0; k < repeats; ++k) {
    const SweepTiming one = TimeSweep(spec, 1);
    const SweepTiming two = TimeSweep(spec, 2);
    s.wall_1_thread_s = std::min(s.wall_1_thread_s, one.wall_time_s);
    s.wall_2_threads_s = std::min(s.wall_2_threads_s, two.wall_time_s);
    s.rows = one.rows;
  }
  s.speedup_2_threads = s.wall_1_thread_s / s.wall_2_threads_s;
  return s;
}

SweepSpec ReferenceScalingSweep() {
  SweepSpec spec;
  spec.scenario = LoadScenario(std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/ellipsoid_wall.toml");
  ApplyOverride(spec.scenario, "dt=1e-6");
  spec.axes = {ParseSweepAxis("theta_deg=0:75:6"), ParseSweepAxis("e_cn=0.3,0.5,0.7,0.9")};
  spec.integrators = {"velocity_verlet"};
  return spec;
}

}  // namespace impactlab
