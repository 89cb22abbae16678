// Runs another program as a child process and measures it (for `impactlab bench`, docs/performance.md): the
// LAMMPS peer (`lmp`), the peak memory of an `impactlab run` of the sphere assembly, and the Simo–Tarnow runs
// that may not fit in memory or time. fork + execve + wait4; the wall time is measured from fork to exit.
// Peak memory: the child's own ru_maxrss cannot be taken from wait4 here, because Linux records the high-water
// RSS of the forked copy of this (large) process at execve into the child's maxrss — a child of a bench holding a
// 10⁵-sphere model would report at least that model. So the program runs under GNU time (`/usr/bin/time -f %M`,
// Debian package time): time is a small process, its child's ru_maxrss is the program's own peak RSS. Without
// /usr/bin/time the peak is reported as not measured. The child runs in its own process group, so a timeout kills
// time and the program together. Optional limits: an address-space limit
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
  long peak_rss_kb = 0;      ///< the program's peak RSS by GNU time [kB]; 0: not measured (no /usr/bin/time)
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
