// Report writer: report.md (summary table first, then one section per study with its tables, figures, the
// command that reruns it, library versions and the machine), a self-contained report.html (PNG figures
// embedded as base64), and results.json (every claim: study, source, published, measured, tolerance, pass).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "report/study.h"
#include "report/validation_suite.h"

namespace impactlab {

struct StudyRecord {
  std::string name, title, source, error;
  double seconds = 0.0;
  bool interrupted = false;  ///< stopped by SIGINT/SIGTERM (core/interrupt.h) before finishing
  StudyResult result;
};

struct ReportSummary {
  int total = 0, passed = 0, known_deviations = 0;
  bool all_ok = false;
  std::string table_markdown;
};

/// Runs scripts/plot_figures.py on every *.plot.json under `out` (skips with a message if python3 or
/// matplotlib is missing).
void RenderFigures(const std::filesystem::path& out);
ReportSummary WriteReport(const std::filesystem::path& out, const std::vector<StudyRecord>& records,
                          const ValidationOptions& options);

}  // namespace impactlab
