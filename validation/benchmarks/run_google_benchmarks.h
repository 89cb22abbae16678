// The Google Benchmark part of a benchmark program's main() whose program prints its own same-process ratios after the
// benchmarks (impactlab_bench_exact, impactlab_bench_hertz_powers): Google Benchmark's documented main, returning
// false when the command line has arguments neither program understands.
#pragma once

#include <benchmark/benchmark.h>

namespace impactlab {

inline bool RunGoogleBenchmarks(int& argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return false;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return true;
}

}  // namespace impactlab
