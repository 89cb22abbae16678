// The MPI world of one `impactlab` process (Open MPI, MPI-3.1 standard §8.7 "Startup"; docs/scaling.md).
//
// `mpirun -np N impactlab sweep|validate …` starts N identical processes (ranks). MpiSession initialises MPI
// only when a launcher started the process (Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE, SLURM's srun sets
// PMIX_RANK / PMI_SIZE), with MPI_THREAD_SERIALIZED (rank 0 talks to the other ranks from one helper thread
// while worker threads compute), and finalises it on destruction. A plain `impactlab …` never touches MPI.
// Built without MPI (CMake did not find it), the functions report a world of one process, and a process
// started by a launcher with more than one rank refuses to run (N copies would each compute everything).
#pragma once

#include <string>

namespace impactlab {

/// True if this binary was built with MPI.
bool MpiBuilt();
/// Number of ranks (1 without a launcher or without MPI).
int MpiWorldSize();
/// Rank of this process (0 without a launcher or without MPI).
int MpiWorldRank();
/// True if MPI is initialised and there is more than one rank.
inline bool MpiDistributed() { return MpiWorldSize() > 1; }

/// RAII: MPI_Init_thread in the constructor when a launcher started the process, MPI_Finalize in the
/// destructor. Throws InvalidParameter if started by a launcher with more than one rank but built without
/// MPI, or if the MPI library cannot provide MPI_THREAD_SERIALIZED.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool initialized_ = false;
};

/// Launcher-reported world size from the environment (0 if not started by a launcher).
int LauncherWorldSize();

}  // namespace impactlab
