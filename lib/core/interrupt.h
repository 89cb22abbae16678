// Cooperative interruption (SIGINT / SIGTERM) for long runs: sweeps and `impactlab validate`.
//
// InstallInterruptHandlers() installs handlers that only set a process-wide lock-free std::atomic<bool>
// (async-signal-safe, POSIX sigaction with SA_RESETHAND): the FIRST signal asks the work loops to stop
// after the case they are computing; the handler is then reset to the default, so a SECOND Ctrl-C ends the
// process at once (earlier results are still intact: every result file is replaced atomically,
// io/atomic_file.h). Work loops poll StopRequested() between cases and throw Interrupted (or return early),
// and the command exits with status 130 (= 128 + SIGINT, the shell convention).
#pragma once

#include <stdexcept>
#include <string>

namespace impactlab {

/// Thrown by a work loop that stopped because StopRequested() became true.
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(const std::string& what) : std::runtime_error(what) {}
};

/// Clears the stop flag and installs the SIGINT/SIGTERM handlers (call once at the start of an interruptible
/// command; calling again re-arms them after a signal was handled).
void InstallInterruptHandlers();
/// True once SIGINT or SIGTERM was received (or RequestStop() was called).
bool StopRequested();
/// Sets the stop flag from code (tests, embedding programs).
void RequestStop();
/// Clears the stop flag (tests; a program that handled an interrupt and wants to continue).
void ClearStopRequest();
/// Throws Interrupted("interrupted: <what>") if StopRequested().
void ThrowIfStopRequested(const std::string& what);

/// Exit status of a command that stopped on an interrupt (128 + SIGINT).
inline constexpr int kInterruptedExitCode = 130;

}  // namespace impactlab
