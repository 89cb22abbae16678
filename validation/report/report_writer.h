// Report writer: report.md and a self-contained report.html (PNG figures embedded as base64) that lead with
// what a researcher looks at first — per seed paper a summary (claims pass / known deviation / fixed /
// fail), the integrator × model matrix, the key figures, every known deviation with paper value, our value,
// reviewed band and reason — then the full claim table and one section per study (tables, figures, the
// command that reruns it); and results.json (every claim with its reviewed status and band).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "report/known_deviations.h"
#include "report/study.h"
#include "report/validation_suite.h"

namespace impactlab {

struct StudyRecord {
  std::string name, title, source, error;
  double seconds = 0.0;
  bool interrupted = false;  ///< stopped by SIGINT/SIGTERM (core/interrupt.h) before finishing
  StudyResult result;        ///< claims already reviewed (ReviewClaims)
};

struct ReportSummary {
  int total = 0, passed = 0, fixed = 0, known_deviations = 0, failed = 0;
  std::vector<std::string> stale_entries;  ///< known-deviation entries matching no claim of a study that ran
  bool all_ok = false;
  std::string table_markdown;              ///< per-paper summary + known deviations / failures (for the console)
  std::string headline;                    ///< "146 of 167 claims pass, 21 known deviations inside ..."
  std::vector<std::string> problems;       ///< one line per failing claim, fixed entry, stale entry or error
};

/// Runs scripts/plot_figures.py on every *.plot.json under `out` (skips with a message if python3 or
/// matplotlib is missing).
void RenderFigures(const std::filesystem::path& out);
ReportSummary WriteReport(const std::filesystem::path& out, const std::vector<StudyRecord>& records,
                          const KnownDeviations& deviations, const ValidationOptions& options);

}  // namespace impactlab
