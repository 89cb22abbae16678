#include "core/contact_threads.h"

#include <atomic>
#include <cstdlib>
#include <string>

#include "core/errors.h"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace impactlab {

namespace {

/// OMP_NUM_THREADS when set to a positive integer, else 1 (see the header: serial unless asked).
int ThreadsFromEnvironment() {
  const char* text = std::getenv("OMP_NUM_THREADS");
  if (text == nullptr) return 1;
  char* end = nullptr;
  const long n = std::strtol(text, &end, 10);
  return (end != text && n >= 1 && n <= 1024) ? static_cast<int>(n) : 1;
}

std::atomic<int>& Threads() {
  static std::atomic<int> threads{ContactThreadsAvailable() ? ThreadsFromEnvironment() : 1};
  return threads;
}

}  // namespace

bool ContactThreadsAvailable() {
#if defined(_OPENMP)
  return true;
#else
  return false;
#endif
}

int SetContactThreads(int threads) {
  if (!(threads >= 1)) throw InvalidParameter("threads", threads, "an integer >= 1");
  Threads().store(ContactThreadsAvailable() ? threads : 1);
  return Threads().load();
}

int ContactThreads() { return Threads().load(); }

void ParallelBlocks(long n, int blocks, const std::function<void(int block, long begin, long end)>& body) {
  if (blocks < 1) throw InvalidParameter("blocks", blocks, "an integer >= 1");
#pragma omp parallel for schedule(static) num_threads(blocks) if (blocks > 1)
  for (int b = 0; b < blocks; ++b) body(b, n * b / blocks, n * (b + 1) / blocks);
}

}  // namespace impactlab
