// The machine's own two-thread ceiling, measured in the same `impactlab bench` run as the OpenMP speed-ups of the
// sphere assembly (docs/performance.md, "This machine's two-thread ceiling").
//
// Two kernels run on 1 and on 2 threads through the contact threads' ParallelBlocks, the same libgomp path as the
// models' loops, interleaved per repetition (median of the per-repetition ratios t(1)/t(2)):
//   stream  — out[i] = a[i] + s·b[i] over three arrays of `stream_doubles` doubles each (default 5·10⁶: 120 MB, larger
//             than any last-level cache), the shape of velocity Verlet's kick and of Integrator::Step's state passes:
//             bound by memory bandwidth, so its speed-up is what a memory-bound share of a step can reach;
//   compute — a chain of `compute_depth` dependent square roots per entry of an L1-resident array: bound by the core,
//             so its speed-up is what a compute-bound share can reach (≈ 2 with two free cores).
// A step whose fraction f of single-thread time is memory-bound reaches at most
//   1 / (f / S_stream + (1 − f) / S_compute)                                              (Amdahl, two shares)
// on two threads, which is how docs/performance.md reads the missed `openmp_speedup_2_threads` targets.
#pragma once

#include <nlohmann/json.hpp>

namespace impactlab::bench {

struct TwoThreadCeilingOptions {
  int repetitions = 5;              ///< >= 1
  long stream_doubles = 5'000'000;  ///< entries of each of the three stream arrays, >= 1
  long compute_entries = 4096;      ///< entries of the compute kernel's array (32 kB), >= 2
  int compute_depth = 16;           ///< dependent square roots per entry, >= 1
};

/// {"stream_speedup": spread, "compute_speedup": spread, "stream_bandwidth_1_thread_GB_per_s": median, ...}, or
/// {"status": "not measured (built without OpenMP)"}. ParallelBlocks takes the thread count itself: the contact-thread
/// setting is neither read nor changed.
nlohmann::json MeasureTwoThreadCeiling(const TwoThreadCeilingOptions& options = {});

}  // namespace impactlab::bench
