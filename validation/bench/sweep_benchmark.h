// Sweep scaling for `impactlab bench`: the reference sweep of docs/sweeps.md (ReferenceScalingSweep: 24
// ellipsoid–wall impacts, velocity Verlet) run in memory with 1 and with 2 worker threads, best of
// `repeats` wall times each; sweep_speedup_2_threads = t(1) / t(2). The 1- and 2-thread result tables are
// compared byte for byte (identical_results).
#pragma once

#include <nlohmann/json.hpp>

namespace impactlab::bench {

nlohmann::json RunSweepScaling(bool quick);

}  // namespace impactlab::bench
