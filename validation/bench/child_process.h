// Runs another program as a child process and measures it (for `impactlab bench`, docs/performance.md): the
// LAMMPS peer (`lmp`), the peak memory of an `impactlab run` of the sphere assembly, and the Simo–Tarnow runs
// that may not fit in memory or time. fork + execve + wait4, so the resource usage is that one child's
// (getrusage(RUSAGE_CHILDREN) would mix every child waited for): ru_maxrss is the child's peak resident set size
// (Linux: kB); the wall time is measured from fork to exit. Optional limits: an address-space limit
// (setrlimit RLIMIT_AS in the child: an allocation beyond it fails in the child instead of swapping the machine)
// and a timeout (the child is sent SIGKILL). stdout and stderr go to files; the environment is the parent's
// with `extra_environment` ("NAME=value") added or replacing.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace impactlab::bench {

struct ChildLimits {
  double timeout_seconds = 0.0;      ///< > 0: SIGKILL after this wall time
  long long address_space_bytes = 0; ///< > 0: RLIMIT_AS of the child
};

struct ChildRun {
  int exit_code = -1;        ///< the child's exit status; −1: killed by a signal or not started
  bool timed_out = false;    ///< killed after ChildLimits::timeout_seconds
  long peak_rss_kb = 0;      ///< ru_maxrss of the child [kB]
  double wall_seconds = 0.0; ///< fork to exit [s]
  std::string error;         ///< why the child could not be started (empty: it ran)
  bool ok() const { return error.empty() && !timed_out && exit_code == 0; }
};

/// Runs `argv` (argv[0]: a path, or a name looked up in PATH) in `working_directory` with stdout to
/// `stdout_path` and stderr to `stderr_path`.
ChildRun RunChild(const std::vector<std::string>& argv, const std::vector<std::string>& extra_environment,
                  const std::filesystem::path& working_directory, const std::filesystem::path& stdout_path,
                  const std::filesystem::path& stderr_path, const ChildLimits& limits = {});

/// The first executable file `name` on PATH (empty when there is none).
std::filesystem::path FindOnPath(const std::string& name);

/// Physical memory of the machine [bytes] (sysconf).
long long PhysicalMemoryBytes();

}  // namespace impactlab::bench
