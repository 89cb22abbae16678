// impactlab command line: list | run | validate | ... (docs/user-guide.md; commands in cli/cli_app.cpp).
// Every failure is one line on stderr naming the parameter, the value and the valid range; exit code 2 for
// bad input, 3 for a numerical failure, 1 for any other error. Never a crash.
#include <iostream>
#include <optional>
#include <string>

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
  // Only sweep and validate share work over ranks; N copies of any other command would each do all of it.
  const std::string command = argc > 1 ? argv[1] : "";
  if (impactlab::MpiDistributed() && command != "sweep" && command != "validate") {
    if (impactlab::MpiWorldRank() == 0)
      std::cerr << "impactlab: error: invalid MPI launch = " << impactlab::MpiWorldSize() << " ranks for `impactlab "
                << command << "` (valid: 1; only `sweep` and `validate` run over MPI ranks)\n";
    return 2;
  }
  return impactlab::cli::RunCli(argc, argv);
}
