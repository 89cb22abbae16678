#include "report/validation_suite.h"

#include <unistd.h>

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
#include "report/report_writer.h"
#include "report/study.h"

namespace impactlab {

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
      ctx.progress = [&, name = study.name()](const std::string& msg) { say("  [" + name + "] " + msg); };
      fs::create_directories(ctx.out_dir);
      try {
        rec.result = options.run_study ? options.run_study(study, ctx) : study.Run(ctx);
      } catch (const Interrupted& e) {
        rec.error = e.what();
        rec.interrupted = true;
      } catch (const std::exception& e) {
        rec.error = e.what();
      }
      rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      size_t pass = 0;
      for (const auto& c : rec.result.claims) pass += c.pass || c.known_deviation;
      std::ostringstream os;
      os << "[" << ++done << "/" << studies.size() << "] " << study.name() << ": ";
      if (rec.interrupted) os << "interrupted (stored cases kept)";
      else os << pass << "/" << rec.result.claims.size() << " claims pass" << (rec.error.empty() ? "" : " (ERROR: " + rec.error + ")");
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
  const ReportSummary summary = WriteReport(out, records, options);
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
  std::cout << "\n" << summary.table_markdown << "\n";
  std::cout << summary.passed << " of " << summary.total << " claims pass";
  if (summary.known_deviations) std::cout << " (" << summary.known_deviations << " documented known deviations)";
  std::cout << "\nreport: " << (out / "report.md").string() << ", " << (out / "report.html").string() << ", "
            << (out / "results.json").string() << "\n";
  return summary.all_ok ? 0 : 1;
}

}  // namespace impactlab
