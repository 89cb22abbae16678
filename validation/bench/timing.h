// Repeated wall-clock timing for `impactlab bench` (docs/performance.md).
//
// A benchmark body runs a fixed amount of work and returns the number of items it processed (steps, contacts);
// TimePerItem repeats it until a repetition lasts at least `min_seconds`, then takes `repetitions` such
// repetitions and reports min / median / max ns per item. TimeRatio interleaves two bodies (ours, then the
// peer, in each repetition) so that a change of machine load between repetitions affects both sides, and
// reports the statistics of the per-repetition ratios ours / peer.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>

namespace impactlab::bench {

struct TimingOptions {
  int repetitions = 7;       ///< > 0
  double min_seconds = 0.05; ///< minimum duration of one repetition [s]
};

/// min / median / max over repetitions.
struct Spread {
  double min = 0.0, median = 0.0, max = 0.0;
  nlohmann::json ToJson() const { return {{"min", min}, {"median", median}, {"max", max}}; }
};

/// Work of one call: returns the items it processed (> 0).
using Body = std::function<long()>;

Spread TimePerItem(const Body& body, const TimingOptions& options);  ///< ns per item

struct RatioTiming {
  Spread ours_ns, peer_ns;  ///< ns per item
  Spread ratio;             ///< ours / peer, per repetition
  nlohmann::json ToJson() const {
    return {{"ours_ns_per_item", ours_ns.ToJson()}, {"peer_ns_per_item", peer_ns.ToJson()}, {"ratio", ratio.ToJson()}};
  }
};
RatioTiming TimeRatio(const Body& ours, const Body& peer, const TimingOptions& options);

Spread SpreadOf(std::vector<double> values);

}  // namespace impactlab::bench
