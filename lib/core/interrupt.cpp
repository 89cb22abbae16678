#include "core/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace impactlab {

namespace {

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void HandleInterrupt(int) {
  // Only async-signal-safe operations: a lock-free atomic store and write(2).
  g_stop.store(true, std::memory_order_relaxed);
  static const char kMessage[] =
      "\nimpactlab: interrupt received: finishing the current case(s), then saving (press Ctrl-C again to abort "
      "at once)\n";
  const ssize_t ignored = write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
  (void)ignored;
}

}  // namespace

void InstallInterruptHandlers() {
  g_stop.store(false, std::memory_order_relaxed);  // a new command starts (the CLI may run in-process twice)
  struct sigaction action {};
  action.sa_handler = HandleInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // the second signal gets the default action (terminate)
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool StopRequested() { return g_stop.load(std::memory_order_relaxed); }
void RequestStop() { g_stop.store(true, std::memory_order_relaxed); }
void ClearStopRequest() { g_stop.store(false, std::memory_order_relaxed); }

void ThrowIfStopRequested(const std::string& what) {
  if (StopRequested()) throw Interrupted("interrupted: " + what);
}

}  // namespace impactlab
