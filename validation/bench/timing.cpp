#include "bench/timing.h"

#include <algorithm>
#include <chrono>

#include "core/errors.h"

namespace impactlab::bench {
namespace {

using Clock = std::chrono::steady_clock;

/// Calls `body` `calls` times; returns {seconds, items}.
std::pair<double, long> Run(const Body& body, long calls) {
  long items = 0;
  const auto t0 = Clock::now();
  for (long i = 0; i < calls; ++i) items += body();
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  return {s, items};
}

/// Smallest number of calls (doubling) for which one repetition lasts at least min_seconds.
long Calibrate(const Body& body, double min_seconds) {
  long calls = 1;
  for (;;) {
    const auto [s, items] = Run(body, calls);
    if (items <= 0) throw InvalidParameter("benchmark items", static_cast<double>(items), "> 0 per call");
    if (s >= min_seconds || calls >= (1L << 30)) return calls;
    calls = s > 0.0 ? std::max(calls * 2, static_cast<long>(calls * 1.2 * min_seconds / s)) : calls * 10;
  }
}

}  // namespace

Spread SpreadOf(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  const double median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  return {values.front(), median, values.back()};
}

Spread TimePerItem(const Body& body, const TimingOptions& options) {
  if (options.repetitions < 1) throw InvalidParameter("repetitions", options.repetitions, ">= 1");
  const long calls = Calibrate(body, options.min_seconds);
  std::vector<double> ns;
  for (int r = 0; r < options.repetitions; ++r) {
    const auto [s, items] = Run(body, calls);
    ns.push_back(1e9 * s / static_cast<double>(items));
  }
  return SpreadOf(ns);
}

RatioTiming TimeRatio(const Body& ours, const Body& peer, const TimingOptions& options) {
  if (options.repetitions < 1) throw InvalidParameter("repetitions", options.repetitions, ">= 1");
  const long calls_ours = Calibrate(ours, options.min_seconds);
  const long calls_peer = Calibrate(peer, options.min_seconds);
  std::vector<double> a, b, r;
  for (int k = 0; k < options.repetitions; ++k) {
    const auto [sa, ia] = Run(ours, calls_ours);
    const auto [sb, ib] = Run(peer, calls_peer);
    a.push_back(1e9 * sa / static_cast<double>(ia));
    b.push_back(1e9 * sb / static_cast<double>(ib));
    r.push_back(a.back() / b.back());
  }
  return {SpreadOf(a), SpreadOf(b), SpreadOf(r)};
}

}  // namespace impactlab::bench
