// RunValidationSuite: runs the registered studies (in parallel over --threads workers; a progress line per
// study), reviews every claim against the known deviations (report/known_deviations.h), then writes
// DIR/report.md, DIR/report.html, DIR/results.json (every claim) and DIR/<study>/ (CSV + PNG), and prints
// the summary. Exit status 0 only if every claim passes or sits inside its reviewed known-deviation band
// (and no entry of the deviations file is stale); 1 otherwise, naming each failing claim.
#pragma once

#include <string>
#include <vector>

namespace impactlab {

struct ValidationOptions {
  bool quick = false;
  std::string only;
  int threads = 0;  ///< 0: hardware concurrency
  std::string out_dir = "validation-report";
  std::string deviations_file;     ///< empty: the repository's validation/known_deviations.toml
  std::vector<std::string> sets;   ///< "STUDY.KEY=VALUE" overrides of declared study inputs
};

int RunValidationSuite(const ValidationOptions& options);

}  // namespace impactlab
