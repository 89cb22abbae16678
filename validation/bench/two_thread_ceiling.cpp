#include "bench/two_thread_ceiling.h"

#include <chrono>
#include <cmath>
#include <functional>
#include <vector>

#include "bench/timing.h"
#include "core/contact_threads.h"
#include "core/errors.h"

namespace impactlab::bench {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsOf(const std::function<void()>& body) {
  const auto t0 = Clock::now();
  body();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

nlohmann::json MeasureTwoThreadCeiling(const TwoThreadCeilingOptions& o) {
  if (o.repetitions < 1) throw InvalidParameter("repetitions", o.repetitions, ">= 1");
  if (o.stream_doubles < 1) throw InvalidParameter("stream_doubles", o.stream_doubles, ">= 1");
  if (o.compute_entries < 2) throw InvalidParameter("compute_entries", o.compute_entries, ">= 2");
  if (o.compute_depth < 1) throw InvalidParameter("compute_depth", o.compute_depth, ">= 1");
  if (!ContactThreadsAvailable()) return {{"status", "not measured (built without OpenMP)"}};

  const long n = o.stream_doubles;
  // First touch on the two threads' own blocks, as the models' long vectors are written by their loops.
  std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(n)), out(static_cast<size_t>(n));
  ParallelBlocks(n, 2, [&](int, long begin, long end) {
    for (long i = begin; i < end; ++i) {
      a[static_cast<size_t>(i)] = 1.0 + 1e-9 * static_cast<double>(i);
      b[static_cast<size_t>(i)] = 2.0 - 1e-9 * static_cast<double>(i);
      out[static_cast<size_t>(i)] = 0.0;
    }
  });
  std::vector<double> x(static_cast<size_t>(o.compute_entries), 2.0), y(x.size());
  const long m = o.compute_entries;
  const double s = 0.5;
  auto stream = [&](int threads) {
    return SecondsOf([&] {
      ParallelBlocks(n, threads, [&](int, long begin, long end) {
        const double* pa = a.data();
        const double* pb = b.data();
        double* po = out.data();
        for (long i = begin; i < end; ++i) po[i] = pa[i] + s * pb[i];
      });
    });
  };
  // 32 sweeps of the L1-resident array per call, so that one call lasts long against the parallel region's start.
  auto compute = [&](int threads) {
    return SecondsOf([&] {
      ParallelBlocks(m, threads, [&](int, long begin, long end) {
        for (int sweep = 0; sweep < 32; ++sweep)
          for (long i = begin; i < end; ++i) {
            double v = x[static_cast<size_t>(i)] + static_cast<double>(sweep);
            for (int k = 0; k < o.compute_depth; ++k) v = std::sqrt(v + 1.0);
            y[static_cast<size_t>(i)] = v;
          }
      });
    });
  };

  stream(1);  // untimed: pages touched, the region's threads started
  stream(2);
  compute(2);
  std::vector<double> stream_ratio, compute_ratio, bandwidth;
  for (int rep = 0; rep < o.repetitions; ++rep) {
    const double s1 = stream(1), s2 = stream(2), c1 = compute(1), c2 = compute(2);
    stream_ratio.push_back(s1 / s2);
    compute_ratio.push_back(c1 / c2);
    bandwidth.push_back(3.0 * 8.0 * static_cast<double>(n) / s1 / 1e9);
  }
  return {{"stream_speedup", SpreadOf(stream_ratio).ToJson()},
          {"compute_speedup", SpreadOf(compute_ratio).ToJson()},
          {"stream_bandwidth_1_thread_GB_per_s", SpreadOf(bandwidth).median},
          {"stream_bytes", 3.0 * 8.0 * static_cast<double>(n)},
          {"compute", std::to_string(o.compute_depth) + " dependent square roots per entry, " + std::to_string(m) +
                          " entries, 32 sweeps"},
          {"method", "1 vs 2 threads through ParallelBlocks (libgomp), interleaved per repetition; speed-up = median "
                     "of t(1)/t(2)"}};
}

}  // namespace impactlab::bench
