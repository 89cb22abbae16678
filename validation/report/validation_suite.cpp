#include "report/validation_suite.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/errors.h"
#include "core/suggest.h"
#include "core/interrupt.h"
#include "io/atomic_file.h"
#include "io/writable_directory.h"
#include "report/known_deviations.h"
#include "report/report_writer.h"
#include "report/study.h"
#include "scenario/scenario.h"

namespace impactlab {

namespace {

/// Applies "STUDY.KEY=VALUE" to the declared inputs of the selected studies; an unknown study or key, or a
/// value of the wrong type, is an InvalidParameter (before anything runs).
std::vector<ParameterSet> StudyInputs(const std::vector<std::unique_ptr<Study>>& studies,
                                      const std::vector<std::string>& sets) {
  std::vector<ParameterSet> inputs;
  std::vector<std::string> valid;
  for (const auto& s : studies) {
    inputs.push_back(s->Inputs());
    for (const auto& [k, _] : inputs.back().values()) valid.push_back(s->name() + "." + k);
  }
  const std::string valid_list = valid.empty() ? "none (the selected studies declare no inputs)" : [&] {
    std::string l;
    for (const auto& v : valid) l += (l.empty() ? "" : ", ") + v;
    return l;
  }();
  for (const auto& assignment : sets) {
    const auto eq = assignment.find('=');
    const std::string key = assignment.substr(0, eq);
    const auto it = std::find(valid.begin(), valid.end(), key);
    if (eq == std::string::npos || it == valid.end())
      throw InvalidParameter("--set", "\"" + assignment + "\"",
                             "STUDY.KEY=VALUE with STUDY.KEY one of: " + valid_list + DidYouMean(key, valid));
    const auto dot = key.find('.');
    const std::string study = key.substr(0, dot), input = key.substr(dot + 1);
    for (size_t i = 0; i < studies.size(); ++i) {
      if (studies[i]->name() != study) continue;
      const ParameterSet::Value value = ParseOverrideValue(assignment.substr(eq + 1));
      if (value.index() != inputs[i].values().at(input).index())
        throw InvalidParameter("--set " + key, ParameterSet::ToString(value),
                               "a value of the type of the default " +
                                   ParameterSet::ToString(inputs[i].values().at(input)));
      inputs[i].Set(input, value);
    }
  }
  return inputs;
}

}  // namespace

int RunValidationSuite(const ValidationOptions& options) {
  namespace fs = std::filesystem;
  auto all = RegisteredStudies();
  std::vector<std::unique_ptr<Study>> studies;
  std::vector<std::string> names;
  for (auto& s : all) {
    names.push_back(s->name());
    if (options.only.empty() || s->name().find(options.only) != std::string::npos) studies.push_back(std::move(s));
  }
  if (studies.empty()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw InvalidParameter("--only", "\"" + options.only + "\"",
                           "a pattern matching a study name: " + list + DidYouMean(options.only, names));
  }
  const KnownDeviations deviations = KnownDeviations::Load(
      options.deviations_file.empty() ? KnownDeviations::DefaultPath() : fs::path(options.deviations_file));
  const std::vector<ParameterSet> inputs = StudyInputs(studies, options.sets);
  const fs::path out = options.out_dir;
  RequireWritableDirectory(out, {"results.json", "report.md"}, "--out");  // before any study runs

  const bool tty = isatty(fileno(stdout));
  std::mutex print_mutex;
  auto say = [&](const std::string& line) {
    std::lock_guard<std::mutex> lock(print_mutex);
    std::cout << line << std::endl;
  };
  std::vector<StudyRecord> records(studies.size());
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  const int threads = options.threads > 0 ? options.threads
                                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  auto worker = [&] {
    for (size_t i = next++; i < studies.size() && !StopRequested(); i = next++) {  // no new study after Ctrl-C
      const Study& study = *studies[i];
      StudyRecord& rec = records[i];
      rec.name = study.name();
      rec.title = study.title();
      rec.source = study.source();
      const auto t0 = std::chrono::steady_clock::now();
      say("[start] " + study.name() + (tty ? " ..." : ""));
      StudyContext ctx;
      ctx.out_dir = out / study.name();
      ctx.quick = options.quick;
      ctx.inputs = inputs[i];
      ctx.progress = [&, name = study.name()](const std::string& msg) { say("  [" + name + "] " + msg); };
      fs::create_directories(ctx.out_dir);
      try {
        rec.result = study.Run(ctx);
      } catch (const Interrupted& e) {
        rec.error = e.what();
        rec.interrupted = true;
      } catch (const std::exception& e) {
        rec.error = e.what();
      }
      rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ReviewClaims(rec.result.claims, deviations, options.quick);
      size_t pass = 0;
      for (const auto& c : rec.result.claims) pass += IsAcceptable(c.status);
      std::ostringstream os;
      os << "[" << ++done << "/" << studies.size() << "] " << study.name() << ": ";
      if (rec.interrupted) os << "interrupted (stored cases kept)";
      else os << pass << "/" << rec.result.claims.size() << " claims pass or sit in their reviewed band" << (rec.error.empty() ? "" : " (ERROR: " + rec.error + ")");
      os << std::fixed << std::setprecision(1) << " in " << rec.seconds << " s";
      say(os.str());
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::min<int>(threads, static_cast<int>(studies.size())); ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();

  // Interrupted (SIGINT/SIGTERM): report only the studies that finished, mark results.json, exit 130.
  std::vector<std::string> unfinished;
  if (StopRequested()) {
    std::vector<StudyRecord> finished;
    for (size_t i = 0; i < records.size(); ++i) {
      if (records[i].name.empty() || records[i].interrupted) unfinished.push_back(studies[i]->name());
      else finished.push_back(std::move(records[i]));
    }
    records = std::move(finished);
  }
  RenderFigures(out);
  const ReportSummary summary = WriteReport(out, records, deviations, options);
  if (!unfinished.empty()) {
    const fs::path results = out / "results.json";
    std::ifstream in(results);
    nlohmann::json j = nlohmann::json::parse(in);
    j["interrupted"] = true;
    j["unfinished_studies"] = unfinished;
    WriteFileAtomically(results, j.dump(2) + "\n");
    std::cout << "\ninterrupted: " << records.size() << " of " << studies.size()
              << " studies finished (report written with those); rerun the same command to resume (the seed-000 "
                 "studies reuse their stored cases)\n";
    return kInterruptedExitCode;
  }
  std::cout << "\n" << summary.table_markdown << "\n" << summary.headline << "\n";
  for (const auto& line : summary.problems) std::cout << line << "\n";
  std::cout << "report: " << (out / "report.md").string() << ", " << (out / "report.html").string() << ", "
            << (out / "results.json").string() << "\n";
  return summary.all_ok ? 0 : 1;
}

}  // namespace impactlab
