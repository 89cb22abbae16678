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
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "convergence/reference_spec.h"
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
  if (!spec.reference.empty()) os << "|reference=" << spec.reference;
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

/// Unit and meaning of each column, for the sidecar sweep.meta.json.
nlohmann::json SweepColumnDescriptions(const std::vector<std::string>& columns) {
  static const std::map<std::string, std::pair<std::string, std::string>> known = {
      {"row", {"", "row index = case x n_integrators + integrator index"}},
      {"case", {"", "case index (mixed radix over the --vary axes, first axis slowest)"}},
      {"integrator", {"", "integrator name"}},
      {"status", {"", "ok, or step_failure (metrics empty; message on stderr)"}},
      {"restitution", {"1", "coefficient of restitution of the first contact"}},
      {"contact_duration", {"s", "duration of the first contact"}},
      {"max_overlap", {"m", "maximum overlap of the first contact"}},
      {"energy_error_max", {"1", "max |E - E0| / |E0|"}},
      {"energy_balance_residual_max", {"1", "max |E + D - E0| / |E0|"}},
      {"steps", {"", "accepted steps"}},
      {"rhs_evaluations", {"", "evaluations of the acceleration"}},
      {"rejected_steps", {"", "rejected step attempts"}},
      {"final_time", {"s", "time reached"}},
      {"unstable", {"", "1: energy or restitution grew without a source (see docs/reliability.md)"}},
      {"restitution_error", {"1", "|e - e_ref| against the --reference run of the same case"}},
      {"contact_duration_error", {"1", "|t_c - t_c,ref| / t_c,ref against the --reference run"}},
      {"max_overlap_error", {"1", "|delta_max - delta_max,ref| / delta_max,ref against the --reference run"}},
      {"wall_time_s", {"s", "wall time of the run (the only column that depends on timing)"}},
  };
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : columns) {
    const auto it = known.find(c);
    out.push_back({{"name", c},
                   {"unit", it == known.end() ? nlohmann::json(nullptr) : nlohmann::json(it->second.first)},
                   {"description", it == known.end() ? std::string("swept key or --metric summary key")
                                                     : it->second.second}});
  }
  return out;
}

/// e: absolute difference; others: relative to the reference; empty when either value is missing.
std::string ReferenceError(const nlohmann::json& run, const nlohmann::json& ref, const std::string& key, bool relative) {
  if (!run.contains(key) || !ref.contains(key) || !run[key].is_number() || !ref[key].is_number()) return "";
  const double a = run[key].get<double>(), b = ref[key].get<double>();
  if (relative && !(std::abs(b) > 0.0)) return "";
  return FormatShortest(std::abs(a - b) / (relative ? std::abs(b) : 1.0));
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
    // "start:stop:count" (linear) or "log:start:stop:count" (geometric, start and stop > 0)
    auto parts = Split(rhs, ':');
    const bool log = !parts.empty() && Trim(parts[0]) == "log";
    if (log) parts.erase(parts.begin());
    const std::string form = log ? "log:start:stop:count" : "start:stop:count";
    if (parts.size() != 3) throw InvalidParameter("--vary " + axis.key, "\"" + rhs + "\"", form);
    const double start = ParseNumber("--vary " + axis.key + " start", parts[0]);
    const double stop = ParseNumber("--vary " + axis.key + " stop", parts[1]);
    const double count_d = ParseNumber("--vary " + axis.key + " count", parts[2]);
    if (count_d < 1 || count_d > 1e6 || count_d != std::floor(count_d))
      throw InvalidParameter("--vary " + axis.key + " count", count_d, "an integer in [1, 1000000]");
    if (log && !(start > 0.0)) throw InvalidParameter("--vary " + axis.key + " start", start, "> 0 for a log range");
    if (log && !(stop > 0.0)) throw InvalidParameter("--vary " + axis.key + " stop", stop, "> 0 for a log range");
    const auto count = static_cast<size_t>(count_d);
    for (size_t i = 0; i < count; ++i) {
      const double u = count == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(count - 1);
      const double x = i == 0 ? start
                       : i + 1 == count ? stop
                       : log ? start * std::pow(stop / start, u)
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
                                             "final_time",      "unstable"};
  return m;
}

std::vector<std::string> SweepColumns(const SweepSpec& spec) {
  std::vector<std::string> c = {"row", "case"};
  for (const auto& a : spec.axes) c.push_back(a.key);
  c.push_back("integrator");
  c.push_back("status");
  for (const auto& m : DefaultSweepMetrics()) c.push_back(m);
  for (const auto& m : spec.metrics)
    if (std::find(c.begin(), c.end(), m) == c.end() && m != "wall_time_s") c.push_back(m);
  if (!spec.reference.empty())
    for (const char* e : {"restitution_error", "contact_duration_error", "max_overlap_error"}) c.push_back(e);
  c.push_back("wall_time_s");
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
  topt.strict = true;
  topt.order = order;
  topt.journal = true;  // 10⁵–10⁶ rows: append each row, rewrite the ordered table rarely (O(n) in all)
  const std::string format = "impactlab sweep v2";
  nlohmann::json meta;
  meta["format"] = format;
  meta["fingerprint"] = fingerprint;
  meta["rows"] = n_rows;
  meta["description"] = CanonicalDescription(spec);
  meta["scenario"] = spec.scenario.path;
  meta["model"] = spec.scenario.model;
  meta["vary"] = nlohmann::json::array();
  for (const auto& a : spec.axes) meta["vary"].push_back({{"key", a.key}, {"values", a.values}});
  meta["integrators"] = integrators;
  meta["reference"] = spec.reference.empty() ? nlohmann::json(nullptr) : nlohmann::json(spec.reference);
  meta["columns"] = SweepColumnDescriptions(columns);
  fs::path csv_path, json_path, meta_path;
  if (!options.out_dir.empty()) {
    RequireWritableDirectory(options.out_dir, {"sweep.csv", "sweep.json", "sweep.meta.json"}, "--out");
    csv_path = fs::path(options.out_dir) / "sweep.csv";
    json_path = fs::path(options.out_dir) / "sweep.json";
    meta_path = fs::path(options.out_dir) / "sweep.meta.json";
    std::ifstream existing(csv_path);
    std::string first;
    if (existing && std::getline(existing, first) && !first.empty()) {
      // A stored table: resume only if the sidecar says it is this same sweep.
      std::string stored = "(no readable sweep.meta.json)";
      try {
        std::ifstream m(meta_path);
        if (m) {
          const nlohmann::json j = nlohmann::json::parse(m);
          stored = j.value("format", std::string("?")) + " fingerprint=" + j.value("fingerprint", std::string("?")) +
                   " rows=" + std::to_string(j.value("rows", 0));
        }
      } catch (const std::exception&) {
        stored = "(unreadable sweep.meta.json)";
      }
      const std::string ours = format + " fingerprint=" + fingerprint + " rows=" + std::to_string(n_rows);
      if (first.rfind("# impactlab sweep", 0) == 0) stored = first.substr(2) + " (older format, header comment)";
      if (stored != ours)
        throw InvalidParameter(
            "--out", "\"" + options.out_dir + "\"",
            "a directory without sweep.csv, or whose sweep.csv was written by this same sweep; " + csv_path.string() +
                " is " + stored + ", this sweep is " + ours +
                " (the scenario parameters, --set, --vary, --integrator, --metric or --reference differ; the stored "
                "sweep is described in sweep.meta.json). Use another --out or delete the file; it was left untouched");
    }
  }
  ResumableTable table(csv_path, columns, topt);  // strict: a different sweep's file is refused, untouched
  // The sidecar is written with the first stored row (a sweep that fails before any row leaves nothing).
  std::once_flag meta_once;
  auto store = [&](const std::string& key, std::vector<std::string> cells) {
    if (!meta_path.empty()) std::call_once(meta_once, [&] { WriteFileAtomically(meta_path, meta.dump(2) + "\n"); });
    table.PutCells(key, std::move(cells));
  };

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

  // ---- reference runs (one per case, computed by the first row of the case that needs it) ----
  std::optional<ReferenceSpec> reference;
  if (!spec.reference.empty()) reference = ParseReferenceSpec(spec.reference);
  std::vector<std::once_flag> reference_once(reference ? n_cases : 0);
  std::vector<nlohmann::json> reference_run(reference ? n_cases : 0);
  auto reference_of = [&](size_t c) -> const nlohmann::json& {
    std::call_once(reference_once[c], [&] {
      RunRequest request;
      request.scenario = ReferenceScenario(cases[c], *reference);
      request.integrators = {reference->integrator};
      try {
        reference_run[c] = RunScenario(request)["runs"][0];
      } catch (const StepFailure&) {
        reference_run[c] = nlohmann::json::object();  // no reference: error cells stay empty
      }
    });
    return reference_run[c];
  };

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
        if (!run.contains("wall_time_s"))  // a failed run: the time until it failed
          run["wall_time_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        for (size_t col = cells.size() + 1; col < columns.size(); ++col) {
          const std::string& name = columns[col];
          if (reference && (name == "restitution_error" || name == "contact_duration_error" ||
                            name == "max_overlap_error")) {
            const std::string key = name.substr(0, name.size() - 6);  // strip "_error"
            cells.push_back(status == "ok" ? ReferenceError(run, reference_of(c), key, key != "restitution") : "");
          } else {
            cells.push_back(Cell(run, name));
          }
        }
        store(order[r], std::move(cells));
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
  if (fatal) std::rethrow_exception(fatal);  // the table's destructor still folds the journal in, if it can
  table.Flush();                             // sweep.csv: every stored row, in row order

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
