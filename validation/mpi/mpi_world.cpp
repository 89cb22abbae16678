#include "mpi/mpi_world.h"

#include <cstdlib>
#include <string>

#include "core/errors.h"

#ifdef IMPACTLAB_WITH_MPI
#include <mpi.h>
#endif

namespace impactlab {

namespace {
int g_size = 1;
int g_rank = 0;
}  // namespace

int LauncherWorldSize() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS"}) {
    if (const char* v = std::getenv(var)) {
      const int n = std::atoi(v);
      if (n > 0) return n;
    }
  }
  return std::getenv("PMIX_RANK") ? 1 : 0;
}

bool MpiBuilt() {
#ifdef IMPACTLAB_WITH_MPI
  return true;
#else
  return false;
#endif
}

int MpiWorldSize() { return g_size; }
int MpiWorldRank() { return g_rank; }

MpiSession::MpiSession() {
  const int launched = LauncherWorldSize();
  // SLURM_NTASKS alone (a batch script running impactlab without srun/mpirun) is not a launch.
  const bool by_launcher = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_RANK");
  if (!by_launcher || launched == 0) return;
#ifdef IMPACTLAB_WITH_MPI
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
  initialized_ = true;
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    initialized_ = false;
    g_size = 1;
    g_rank = 0;
    throw InvalidParameter("MPI thread support", std::to_string(provided),
                           "MPI_THREAD_SERIALIZED or higher (rebuild Open MPI with thread support)");
  }
#else
  if (launched > 1)
    throw InvalidParameter("MPI launch", std::to_string(launched) + " ranks",
                           "1 (this impactlab was built without MPI: install openmpi-bin libopenmpi-dev and rebuild, "
                           "or run it without mpirun and use --threads)");
#endif
}

MpiSession::~MpiSession() {
#ifdef IMPACTLAB_WITH_MPI
  if (initialized_) MPI_Finalize();
#endif
  g_size = 1;
  g_rank = 0;
}

}  // namespace impactlab
