// impactlab command line: list | run | validate | ... (docs/user-guide.md; commands in cli/cli_app.cpp).
// Every failure is one line on stderr naming the parameter, the value and the valid range; exit code 2 for
// bad input, 3 for a numerical failure, 1 for any other error. Never a crash.
#include <iostream>
#include <optional>

#include "cli/cli_app.h"
#include "mpi/mpi_world.h"

int main(int argc, char** argv) {
  std::optional<impactlab::MpiSession> mpi;  // only under mpirun/srun (mpi/mpi_world.h)
  try {
    mpi.emplace();
  } catch (const std::exception& e) {
    std::cerr << "impactlab: error: " << e.what() << "\n";
    return 2;
  }
  return impactlab::cli::RunCli(argc, argv);
}
