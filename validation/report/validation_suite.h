// RunValidationSuite: runs the registered studies (in parallel over --threads workers; a progress line per
// study), reviews every claim against the known deviations (report/known_deviations.h), then writes
// DIR/report.md, DIR/report.html, DIR/results.json (every claim) and DIR/<study>/ (CSV + PNG), and prints
// the summary. Exit status 0 only if every claim passes or sits inside its reviewed known-deviation band
// (and no entry of the deviations file is stale); 1 otherwise, naming each failing claim.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "report/study.h"

namespace impactlab {

struct ValidationOptions {
  bool quick = false;
  std::string only;
  int threads = 0;  ///< 0: hardware concurrency
  std::string out_dir = "validation-report";
  std::string deviations_file;     ///< empty: the repository's validation/known_deviations.toml
  std::vector<std::string> sets;   ///< "STUDY.KEY=VALUE" overrides of declared study inputs
  /// Runs one study (empty: study.Run(context) in the worker thread). `mpirun -np N impactlab validate` sets
  /// it to run the study on another rank (mpi/mpi_validate.h).
  std::function<StudyResult(const Study&, const StudyContext&)> run_study;
};

int RunValidationSuite(const ValidationOptions& options);

}  // namespace impactlab
