#include "core/contact_threads.h"

#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <algorithm>
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

bool ParallelAllOf(long n, int blocks, const std::function<bool(long begin, long end)>& pred) {
  blocks = std::min(blocks, 64);
  if (blocks <= 1) return pred(0L, n);
  std::array<char, 64> holds{};
  ParallelBlocks(n, blocks, [&](int b, long begin, long end) { holds[static_cast<size_t>(b)] = pred(begin, end); });
  for (int b = 0; b < blocks; ++b)
    if (!holds[static_cast<size_t>(b)]) return false;
  return true;
}

bool ParallelSameBytes(const double* a, const double* b, long n) {
  if (n <= 0) return true;  // an empty vector's data() may be null: no memcmp on it
  return ParallelAllOf(n, ContactThreads(), [&](long begin, long end) {
    return std::memcmp(a + begin, b + begin, static_cast<size_t>(end - begin) * sizeof(double)) == 0;
  });
}

void ParallelCopy(const double* from, double* to, long n) {
  if (n <= 0) return;  // an empty vector's data() may be null: no memcpy on it
  const int blocks = n >= kParallelArrayLength ? ContactThreads() : 1;
  if (blocks <= 1) {
    std::memcpy(to, from, static_cast<size_t>(n) * sizeof(double));
    return;
  }
  ParallelBlocks(n, blocks, [&](int, long begin, long end) {
    std::memcpy(to + begin, from + begin, static_cast<size_t>(end - begin) * sizeof(double));
  });
}

bool ParallelAllFinite(const double* x, long n) {
  return ParallelAllOf(n, ContactThreads(), [&](long begin, long end) {
    for (long i = begin; i < end; ++i)
      if (!std::isfinite(x[i])) return false;
    return true;
  });
}

}  // namespace impactlab
