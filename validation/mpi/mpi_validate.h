// `mpirun -np N impactlab validate …`: the registered studies run on N MPI ranks (docs/scaling.md). Only
// the distribution lives here; the study runner and the report (report/validation_suite.h) are unchanged and
// run on rank 0, which alone writes DIR/.
//
// Rank 0 runs RunValidationSuite with one worker thread per slot of a RankPool (mpi/rank_pool.h);
// ValidationOptions::run_study hands a study to the slot's rank as {"study": name, "quick": …, "files": the
// study folder DIR/<study>/ as it is (the stored cases the seed-000 studies resume from)}. The other rank
// runs it in a private scratch folder of its node's temporary directory, sends back the StudyResult (claims,
// tables, figures, narrative; doubles bit-exact as CBOR) and every file the study left there, and deletes
// the scratch folder; rank 0 writes those files atomically into DIR/<study>/. So DIR/ and results.json are
// what the single-process run writes, whatever the number of ranks. Under mpirun, --threads 0 means one
// thread per rank.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "report/study.h"
#include "report/validation_suite.h"

namespace impactlab {

class RankPool;

/// StudyResult <-> JSON (every field a study sets; doubles exact through CBOR). Claim::status and ::band are
/// not carried: rank 0 reviews every claim after the studies (known deviations), as in one process.
nlohmann::json StudyResultToJson(const StudyResult& result);
StudyResult StudyResultFromJson(const nlohmann::json& j);

/// Ranks > 0: runs the studies rank 0 sends with `threads` threads (<= 0: 1) until it says stop. Returns 0.
int ServeStudies(int threads);

/// Rank 0 of a world with more than one rank.
class MpiValidate {
 public:
  MpiValidate(int threads, const std::string& out_dir);  ///< waits for every other rank's hello
  ~MpiValidate();
  /// Sets options.threads to the number of slots and options.run_study to hand studies to them.
  void Attach(ValidationOptions& options);

 private:
  std::shared_ptr<RankPool> pool_;
};

}  // namespace impactlab
