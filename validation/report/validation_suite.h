// RunValidationSuite: runs the registered studies (in parallel over --threads workers; a progress line per
// study), then writes DIR/report.md, DIR/results.json (every claim) and DIR/<study>/ (CSV + PNG), and
// prints the summary table. Exit status 0 only if every claim passes or is a documented known deviation.
#pragma once

#include <functional>
#include <string>

#include "report/study.h"

namespace impactlab {

struct ValidationOptions {
  bool quick = false;
  std::string only;
  int threads = 0;  ///< 0: hardware concurrency
  std::string out_dir = "validation-report";
  /// Runs one study (empty: study.Run(context) in the worker thread). `mpirun -np N impactlab validate` sets
  /// it to run the study on another rank (mpi/mpi_validate.h).
  std::function<StudyResult(const Study&, const StudyContext&)> run_study;
};

int RunValidationSuite(const ValidationOptions& options);

}  // namespace impactlab
