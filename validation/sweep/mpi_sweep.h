// `mpirun -np N impactlab sweep …`: the rows of RunSweep (sweep/parallel_sweep.h) computed on N MPI ranks
// (docs/scaling.md). Only the distribution lives here; the rows, the table, resume and the files are
// RunSweep's, unchanged, on rank 0.
//
// Rank 0 runs RunSweep with one worker thread per slot of a RankPool (mpi/rank_pool.h: its own --threads
// slots plus every other rank's); SweepOptions::run_case hands case c x integrator i to the slot's rank as
// {"case": c, "integrator": i} and gets the run summary back (CBOR: doubles bit-exact, NaN kept), so the
// table, the resume and DIR/sweep.csv are those of the threaded sweep and byte-identical to it for any
// number of ranks. Every rank builds the same SweepSpec from the same command line; SweepCase(spec, c) is
// then the same scenario everywhere. Other ranks write nothing. Under mpirun, --threads 0 means one thread
// per rank (one rank per core is the MPI convention).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "sweep/parallel_sweep.h"

namespace impactlab {

class RankPool;

/// Ranks > 0: builds the spec (an error is reported to rank 0 instead of being printed), then computes the
/// cases rank 0 sends with `threads` threads (<= 0: 1) until it says stop. Writes nothing. Returns 0.
int ServeSweepCases(const std::function<SweepSpec()>& build_spec, int threads);

/// Rank 0 of a world with more than one rank.
class MpiSweep {
 public:
  /// Waits for every other rank's hello. `threads` <= 0: one.
  MpiSweep(int threads, const std::string& out_dir);
  ~MpiSweep();  ///< tells the other ranks to stop
  /// Sets options.threads to the number of slots and options.run_case to hand cases to them. Throws the
  /// first setup error another rank reported.
  void Attach(const SweepSpec& spec, SweepOptions& options);
  int ranks() const;
  int compute_threads() const;  ///< compute threads over all ranks

 private:
  std::shared_ptr<RankPool> pool_;
};

}  // namespace impactlab
