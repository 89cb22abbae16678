#include "mpi/rank_pool.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <fstream>
#include <iostream>
#include <list>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "core/errors.h"
#include "core/interrupt.h"
#include "mpi/mpi_world.h"

#ifdef IMPACTLAB_WITH_MPI
#include <mpi.h>
#endif

namespace impactlab {

namespace {

constexpr int kTagHello = 1, kTagTask = 2, kTagResult = 3, kTagStop = 4;
// Idle wait between polls of MPI (a wait on a condition variable, so a task or an answer produced in this
// process is sent at once): 0.2 ms bounds the added latency per remote task at ~0.2 ms per side, at a cost of
// a few microseconds of CPU per poll.
constexpr auto kIdleSleep = std::chrono::microseconds(200);

std::string HostName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "?";
  return buf;
}

/// True if process `pid` on this node no longer runs (gone, or a zombie not yet reaped).
bool ProcessEnded(long pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return true;
  std::string line;
  std::getline(stat, line);
  const auto close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] == 'Z' || line[close + 2] == 'X';
}

nlohmann::json ErrorAnswer(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const StepFailure& x) {
    return {{"ok", false}, {"kind", "step_failure"}, {"error", x.what()}};
  } catch (const Interrupted& x) {
    return {{"ok", false}, {"kind", "interrupted"}, {"error", x.what()}};
  } catch (const std::exception& x) {
    return {{"ok", false}, {"kind", "error"}, {"error", x.what()}};
  } catch (...) {
    return {{"ok", false}, {"kind", "error"}, {"error", "unknown exception"}};
  }
}

#ifdef IMPACTLAB_WITH_MPI
using Bytes = std::vector<std::uint8_t>;

/// Receives the message `status` announced (after a successful MPI_Iprobe).
Bytes Receive(const MPI_Status& status) {
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  Bytes buf(static_cast<size_t>(count));
  MPI_Recv(buf.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return buf;
}

/// Nonblocking sends whose buffers live until completion (no deadlock when both sides send large messages).
struct Sender {
  struct Pending {
    Bytes data;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  std::list<Pending> pending;
  void Send(Bytes data, int dest, int tag) {
    pending.push_back({std::move(data), MPI_REQUEST_NULL});
    Pending& p = pending.back();
    MPI_Isend(p.data.data(), static_cast<int>(p.data.size()), MPI_BYTE, dest, tag, MPI_COMM_WORLD, &p.request);
  }
  bool Progress() {  // true if a send completed
    bool any = false;
    for (auto it = pending.begin(); it != pending.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      if (done) {
        it = pending.erase(it);
        any = true;
      } else {
        ++it;
      }
    }
    return any;
  }
  void Drain() {
    while (!pending.empty()) {
      if (!Progress()) std::this_thread::sleep_for(kIdleSleep);
    }
  }
};
#endif

}  // namespace

struct RankPool::Impl {
  struct Slot {
    int rank = 0;
    std::string label;  ///< task in flight ("" if idle)
    bool busy = false, answered = false;
    nlohmann::json answer;
  };
  struct RankInfo {
    int threads = 0;
    long pid = 0;
    std::string host, error;
  };
  std::string kept_note;
  int local = 0;
  std::vector<RankInfo> ranks;  // [0] = rank 0
  std::vector<Slot> slots;
  std::atomic<int> next_slot{0};
  std::mutex mutex;
  std::condition_variable answered;
  std::condition_variable has_outbox;                  // wakes the helper when a task is queued
  std::deque<std::pair<int, nlohmann::json>> outbox;  // (slot, task)
  std::atomic<bool> shutdown{false};
  bool stop_reported = false;
  std::thread helper;

  void HelperLoop();
  std::string FaultLine();  // under mutex
};

namespace {
thread_local const RankPool::Impl* tl_pool = nullptr;
thread_local int tl_slot = -1;
}  // namespace

std::string RankPool::Impl::FaultLine() {
  std::vector<std::string> dead, flight;
  for (size_t r = 1; r < ranks.size(); ++r) {
    if (ranks[r].host != ranks[0].host || !ProcessEnded(ranks[r].pid)) continue;
    std::string tasks;
    for (const auto& s : slots)
      if (s.rank == static_cast<int>(r) && s.busy) tasks += (tasks.empty() ? "" : " and ") + s.label;
    dead.push_back("rank " + std::to_string(r) + " (pid " + std::to_string(ranks[r].pid) + ") ended while computing " +
                   (tasks.empty() ? "nothing" : tasks));
  }
  for (const auto& s : slots)
    if (s.busy) flight.push_back(s.label + " on rank " + std::to_string(s.rank));
  std::string line;
  if (!dead.empty()) {
    line = "impactlab: error: ";
    for (size_t i = 0; i < dead.size(); ++i) line += (i ? "; " : "") + dead[i];
    line += " (killed? the run stops); " + kept_note + "; rerun the same command, on any number of ranks, to resume";
  } else {
    line = "impactlab: interrupted (Ctrl-C or SIGTERM through mpirun): in flight: ";
    if (flight.empty()) line += "nothing";
    for (size_t i = 0; i < flight.size(); ++i) line += (i ? ", " : "") + flight[i];
    line += "; " + kept_note +
            "; mpirun kills every rank about 1 s after the signal, so cases still running then are lost; rerun "
            "the same command to resume";
  }
  return line;
}

#ifdef IMPACTLAB_WITH_MPI

void RankPool::Impl::HelperLoop() {
  Sender sender;
  while (!shutdown.load()) {
    bool busy = false;
    std::deque<std::pair<int, nlohmann::json>> out;
    {
      std::lock_guard lock(mutex);
      out.swap(outbox);
    }
    for (auto& [slot, task] : out) {
      const nlohmann::json msg = {{"slot", slot}, {"task", std::move(task)}};
      sender.Send(nlohmann::json::to_cbor(msg), slots[static_cast<size_t>(slot)].rank, kTagTask);
      busy = true;
    }
    busy = sender.Progress() || busy;
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &flag, &status);
    if (flag) {
      const Bytes bytes = Receive(status);
      nlohmann::json msg = nlohmann::json::from_cbor(bytes);
      const size_t slot = msg.at("slot").get<size_t>();
      {
        std::lock_guard lock(mutex);
        if (slot < slots.size()) {
          slots[slot].answer = std::move(msg);
          slots[slot].answered = true;
        }
      }
      answered.notify_all();
      busy = true;
    }
    if (StopRequested()) {
      std::unique_lock lock(mutex);
      if (!stop_reported) {
        stop_reported = true;
        const std::string line = FaultLine();
        std::cerr << line << std::endl;
        // A remote slot whose rank ended never gets its answer: fail it with the fault line.
        bool failed = false;
        for (auto& s : slots) {
          if (s.rank == 0 || !s.busy || s.answered) continue;
          const RankInfo& info = ranks[static_cast<size_t>(s.rank)];
          if (info.host == ranks[0].host && ProcessEnded(info.pid)) {
            s.answer = {{"ok", false}, {"kind", "rank_ended"}, {"error", line}};
            s.answered = failed = true;
          }
        }
        lock.unlock();
        if (failed) answered.notify_all();
      }
    }
    if (!busy) {
      std::unique_lock lock(mutex);
      has_outbox.wait_for(lock, kIdleSleep, [&] { return !outbox.empty() || shutdown.load(); });
    }
  }
  sender.Drain();
}

RankPool::RankPool(int local_threads, std::string kept_note, int prefetch) : impl_(std::make_unique<Impl>()) {
  IMPACTLAB_DEMAND(MpiDistributed() && MpiWorldRank() == 0);
  Impl& p = *impl_;
  p.kept_note = std::move(kept_note);
  p.local = std::max(1, local_threads);
  const int n = MpiWorldSize();
  p.ranks.resize(static_cast<size_t>(n));
  p.ranks[0] = {p.local, static_cast<long>(getpid()), HostName(), ""};
  for (int k = 0; k < p.local; ++k) p.slots.push_back({0, "", false, false, nullptr});
  for (int received = 1; received < n;) {  // hellos, in any order, polled (no spinning)
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kTagHello, MPI_COMM_WORLD, &flag, &status);
    if (!flag) {
      std::this_thread::sleep_for(kIdleSleep);
      continue;
    }
    const nlohmann::json hello = nlohmann::json::from_cbor(Receive(status));
    Impl::RankInfo& info = p.ranks[static_cast<size_t>(status.MPI_SOURCE)];
    info.threads = std::max(1, hello.at("threads").get<int>());
    info.pid = hello.at("pid").get<long>();
    info.host = hello.at("host").get<std::string>();
    info.error = hello.at("error").get<std::string>();
    ++received;
  }
  for (int r = 1; r < n; ++r)
    if (p.ranks[static_cast<size_t>(r)].error.empty())
      for (int k = 0; k < p.ranks[static_cast<size_t>(r)].threads + prefetch; ++k)
        p.slots.push_back({r, "", false, false, nullptr});
  p.helper = std::thread([&p] { p.HelperLoop(); });
}

RankPool::~RankPool() {
  Impl& p = *impl_;
  p.shutdown = true;
  if (p.helper.joinable()) p.helper.join();
  Sender sender;  // the helper has ended: this thread is now the only one calling MPI
  for (size_t r = 1; r < p.ranks.size(); ++r) sender.Send(nlohmann::json::to_cbor(nlohmann::json::object()), static_cast<int>(r), kTagStop);
  sender.Drain();
}

#else

void RankPool::Impl::HelperLoop() {}
RankPool::RankPool(int, std::string, int) : impl_(std::make_unique<Impl>()) {
  throw InternalError("RankPool needs MPI (this impactlab was built without it)");
}
RankPool::~RankPool() = default;

#endif

int RankPool::slots() const { return static_cast<int>(impl_->slots.size()); }
int RankPool::local_slots() const { return impl_->local; }
int RankPool::compute_threads() const {
  int n = 0;
  for (const auto& r : impl_->ranks)
    if (r.error.empty()) n += r.threads;
  return n;
}
int RankPool::ranks() const { return static_cast<int>(impl_->ranks.size()); }

std::string RankPool::setup_error() const {
  for (size_t r = 1; r < impl_->ranks.size(); ++r)
    if (!impl_->ranks[r].error.empty()) return "rank " + std::to_string(r) + ": " + impl_->ranks[r].error;
  return "";
}

nlohmann::json RankPool::Run(const nlohmann::json& task, const std::string& label,
                             const std::function<nlohmann::json()>& local) {
  Impl& p = *impl_;
  if (tl_pool != &p) {
    tl_pool = &p;
    tl_slot = p.next_slot++;
  }
  IMPACTLAB_DEMAND(tl_slot >= 0 && tl_slot < static_cast<int>(p.slots.size()));
  Impl::Slot& slot = p.slots[static_cast<size_t>(tl_slot)];
  {
    std::lock_guard lock(p.mutex);
    slot.label = label;
    slot.busy = true;
    slot.answered = false;
    if (slot.rank != 0) p.outbox.emplace_back(tl_slot, task);
  }
  if (slot.rank != 0) p.has_outbox.notify_one();
  struct Idle {
    Impl& p;
    Impl::Slot& s;
    ~Idle() {
      std::lock_guard lock(p.mutex);
      s.busy = false;
      s.label.clear();
    }
  } idle{p, slot};
  if (slot.rank == 0) return local();
  nlohmann::json answer;
  {
    std::unique_lock lock(p.mutex);
    p.answered.wait(lock, [&] { return slot.answered; });
    answer = std::move(slot.answer);
    slot.answered = false;
  }
  if (answer.value("kind", "") == "rank_ended") throw RankEnded(answer.value("error", std::string()));
  if (!answer.value("ok", false))
    throw RemoteTaskError(answer.value("kind", "error"), answer.value("error", std::string("unknown error")));
  return std::move(answer["result"]);
}

#ifdef IMPACTLAB_WITH_MPI

int ServeRankPool(int threads, const TaskHandler& handler, const std::string& setup_error) {
  threads = std::max(1, threads);
  Sender sender;
  sender.Send(nlohmann::json::to_cbor({{"threads", threads},
                                       {"pid", static_cast<long>(getpid())},
                                       {"host", HostName()},
                                       {"error", setup_error}}),
              0, kTagHello);
  std::mutex mutex;
  std::condition_variable cv, has_answer;
  std::deque<nlohmann::json> tasks;    // {"slot", "task"}
  std::deque<nlohmann::json> answers;  // {"slot", "ok", ...}
  bool stop = false;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads && setup_error.empty(); ++t)
    pool.emplace_back([&] {
      for (;;) {
        nlohmann::json msg;
        {
          std::unique_lock lock(mutex);
          cv.wait(lock, [&] { return stop || !tasks.empty(); });
          if (tasks.empty()) return;
          msg = std::move(tasks.front());
          tasks.pop_front();
        }
        nlohmann::json answer;
        try {
          answer = {{"ok", true}, {"result", handler(msg.at("task"))}};
        } catch (...) {
          answer = ErrorAnswer(std::current_exception());
        }
        answer["slot"] = msg.at("slot");
        {
          std::lock_guard lock(mutex);
          answers.push_back(std::move(answer));
        }
        has_answer.notify_one();
      }
    });
  for (;;) {
    bool busy = sender.Progress();
    std::deque<nlohmann::json> out;
    {
      std::lock_guard lock(mutex);
      out.swap(answers);
    }
    for (auto& a : out) sender.Send(nlohmann::json::to_cbor(a), 0, kTagResult);
    busy = busy || !out.empty();
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
    if (flag) {
      const Bytes bytes = Receive(status);
      if (status.MPI_TAG == kTagStop) break;
      if (status.MPI_TAG == kTagTask) {
        nlohmann::json msg = nlohmann::json::from_cbor(bytes);
        if (pool.empty()) {  // setup failed: answer with the error
          std::lock_guard lock(mutex);
          answers.push_back({{"ok", false}, {"kind", "error"}, {"error", setup_error}, {"slot", msg.at("slot")}});
        } else {
          std::lock_guard lock(mutex);
          tasks.push_back(std::move(msg));
        }
        cv.notify_one();
      }
      busy = true;
    }
    if (!busy) {
      std::unique_lock lock(mutex);
      has_answer.wait_for(lock, kIdleSleep, [&] { return !answers.empty(); });
    }
  }
  {
    std::lock_guard lock(mutex);
    stop = true;
    tasks.clear();
  }
  cv.notify_all();
  for (auto& t : pool) t.join();
  sender.Drain();
  return 0;
}

#else

int ServeRankPool(int, const TaskHandler&, const std::string&) {
  throw InternalError("ServeRankPool needs MPI (this impactlab was built without it)");
}

#endif

}  // namespace impactlab
