// RunValidationSuite: runs the registered studies (in parallel over --threads workers; a progress line per
// study), then writes DIR/report.md, DIR/results.json (every claim) and DIR/<study>/ (CSV + PNG), and
// prints the summary table. Exit status 0 only if every claim passes or is a documented known deviation.
#pragma once

#include <string>

namespace impactlab {

struct ValidationOptions {
  bool quick = false;
  std::string only;
  int threads = 0;  ///< 0: hardware concurrency
  std::string out_dir = "validation-report";
};

int RunValidationSuite(const ValidationOptions& options);

}  // namespace impactlab
