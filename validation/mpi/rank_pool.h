// RankPool: rank 0 hands independent tasks out, one at a time, to compute slots on every MPI rank
// (manager–worker scheme over MPI point-to-point messages, MPI-3.1 standard §3.7 "Nonblocking
// Communication"; docs/scaling.md).
//
//  - Slots: rank 0 has `local_threads` slots of its own; every other rank reports its thread count in a hello
//    message and gets that many slots. The caller runs its existing thread pool (the sweep's or validate's)
//    with slots() threads; each thread claims one slot at its first Run() call. A local slot computes in the
//    calling thread; a remote slot sends the task (JSON, as CBOR bytes) to its rank and blocks on a condition
//    variable until the answer arrives. Whichever slot is free takes the next task, so the hand-out is dynamic
//    and tasks whose costs differ by orders of magnitude balance themselves. Results are returned to the
//    caller on rank 0, which alone writes files; other ranks write nothing.
//  - Only one helper thread on rank 0 calls MPI (MPI_THREAD_SERIALIZED), with MPI_Isend / MPI_Iprobe /
//    MPI_Test, waiting 0.2 ms when idle (woken at once by a new task): Open MPI's blocking calls spin, and a
//    spinning rank 0 would take a core from the computation.
//  - Other ranks call ServeRankPool(): `threads` compute threads fed by the main thread, which alone calls
//    MPI; it returns when rank 0 says stop (after the caller finished, or failed).
//  - Faults: mpirun reacts to Ctrl-C, and to a rank that dies, in the same way: every surviving rank gets
//    SIGCONT + SIGTERM, then SIGKILL about 1 s later (Open MPI 4.1.4, measured). On that signal the
//    helper prints ONE line at once: the rank that ended and the task it was computing (a rank on rank 0's
//    node whose process is gone), or else the tasks in flight; remote tasks of a dead rank fail with that
//    line. Results already stored by the caller stay (atomic files); a rerun resumes.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace impactlab {

/// A task that failed on another rank; `kind` is "step_failure", "interrupted" or "error".
class RemoteTaskError : public std::runtime_error {
 public:
  RemoteTaskError(std::string kind, const std::string& what) : std::runtime_error(what), kind_(std::move(kind)) {}
  const std::string& kind() const { return kind_; }

 private:
  std::string kind_;
};

/// Thrown by RankPool::Run for a task whose rank ended; its one-line message was already printed.
class RankEnded : public std::runtime_error {
 public:
  explicit RankEnded(const std::string& what) : std::runtime_error(what) {}
};

/// Computes one task on a worker rank. Exceptions become RemoteTaskError on rank 0 (StepFailure →
/// "step_failure", Interrupted → "interrupted", anything else → "error").
using TaskHandler = std::function<nlohmann::json(const nlohmann::json& task)>;

class RankPool {
 public:
  /// Rank 0 of a world with more than one rank: waits for every rank's hello. `kept_note` ends the fault
  /// line, e.g. "every stored row is kept in out/sweep.csv". `prefetch`: tasks queued on each remote rank
  /// beyond its compute threads, so that a thread that finishes finds its next task already there and the
  /// round trip (answer → rank 0 → next task, up to three 0.2 ms polls) costs no compute time. Worth it for
  /// short tasks (the sweep's cases, ~5 ms: 2-rank speed-up 1.43 without, 1.68–1.76 with one, idle machine,
  /// docs/scaling.md); 0 for long ones (validate's studies), where a queued task could wait behind a long one.
  RankPool(int local_threads, std::string kept_note, int prefetch = 0);
  ~RankPool();  ///< tells every rank to stop, then returns
  RankPool(const RankPool&) = delete;
  RankPool& operator=(const RankPool&) = delete;

  /// Worker slots: every compute thread of every rank, plus `prefetch` queued tasks per remote rank.
  int slots() const;
  int local_slots() const;
  /// Compute threads over all ranks (slots() without the queued-task slots).
  int compute_threads() const;
  int ranks() const;
  /// The first setup error another rank reported in its hello ("rank 2: …"), empty if none.
  std::string setup_error() const;

  /// Runs `task` on the calling thread's slot (claimed at the first call): a local slot calls `local()`, a
  /// remote slot sends `task` and waits for the answer (RemoteTaskError on failure, RankEnded if its rank
  /// ended). `label` names the task
  /// in the fault line ("case 7 (theta_deg=45 e_cn=0.5, velocity_verlet)").
  nlohmann::json Run(const nlohmann::json& task, const std::string& label,
                     const std::function<nlohmann::json()>& local);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

/// Ranks > 0: sends the hello (with `setup_error` if this rank could not set up; it then computes nothing),
/// answers tasks with `threads` compute threads until rank 0 says stop. Writes nothing. Returns 0.
int ServeRankPool(int threads, const TaskHandler& handler, const std::string& setup_error);

}  // namespace impactlab
