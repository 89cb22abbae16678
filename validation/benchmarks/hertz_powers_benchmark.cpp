// Cost of the correctly rounded Hertz powers (contact/hertz_powers.h) against std::pow, same process
// [docs/performance.md, "Hertz powers without pow"]:
//   BM_Throughput<power, ours?>  one call per δ over 4 096 independent overlaps in [1e-9, 1e-5] m (the calls overlap)
//   BM_Latency<power, ours?>     a dependent chain δ_{k+1} = 1e-6 + 1e-3 δ_k^p (each call waits for the one before)
// for δ^{3/2}, δ^{5/2}, δ^{1/4}, δ^{5/4}. The program then prints std::pow / ours for each (a separate timing of
// interleaved repetitions, the median of seven).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "contact/hertz_powers.h"
#include "run_google_benchmarks.h"

using namespace impactlab;

namespace {

/// The four powers by index: std::pow's exponent, a name, and ours (called directly, so it inlines as in the laws).
constexpr std::array<double, 4> kExponents = {1.5, 2.5, 0.25, 1.25};
constexpr std::array<const char*, 4> kNames = {"d^(3/2)", "d^(5/2)", "d^(1/4)", "d^(5/4)"};
template <int kIndex>
double Ours(double delta) {
  if constexpr (kIndex == 0) return PowThreeHalves(delta);
  if constexpr (kIndex == 1) return PowFiveHalves(delta);
  if constexpr (kIndex == 2) return PowQuarter(delta);
  if constexpr (kIndex == 3) return PowFiveQuarters(delta);
}
template <int kIndex, bool kOurs>
double Call(double delta) {
  if constexpr (kOurs) return Ours<kIndex>(delta);
  return std::pow(delta, kExponents[kIndex]);
}

const std::vector<double>& Overlaps() {
  static const std::vector<double> deltas = [] {
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> decade(-9.0, -5.0);
    std::vector<double> d(4096);
    for (double& x : d) x = std::pow(10.0, decade(rng));
    return d;
  }();
  return deltas;
}

/// Sum of the power over the 4 096 overlaps (independent calls).
template <int kIndex, bool kOurs>
double Sweep() {
  double sum = 0.0;
  for (double d : Overlaps()) sum += Call<kIndex, kOurs>(d);
  return sum;
}

/// 4 096 dependent calls.
template <int kIndex, bool kOurs>
double Chain() {
  double d = 1e-6;
  for (int k = 0; k < 4096; ++k) d = 1e-6 + 1e-3 * Call<kIndex, kOurs>(d);
  return d;
}

template <int kIndex, bool kOurs>
void BM_Throughput(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(Sweep<kIndex, kOurs>());
  state.SetItemsProcessed(state.iterations() * 4096);
}
template <int kIndex, bool kOurs>
void BM_Latency(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(Chain<kIndex, kOurs>());
  state.SetItemsProcessed(state.iterations() * 4096);
}
BENCHMARK_TEMPLATE(BM_Throughput, 0, false);
BENCHMARK_TEMPLATE(BM_Throughput, 0, true);
BENCHMARK_TEMPLATE(BM_Throughput, 1, false);
BENCHMARK_TEMPLATE(BM_Throughput, 1, true);
BENCHMARK_TEMPLATE(BM_Throughput, 2, false);
BENCHMARK_TEMPLATE(BM_Throughput, 2, true);
BENCHMARK_TEMPLATE(BM_Throughput, 3, false);
BENCHMARK_TEMPLATE(BM_Throughput, 3, true);
BENCHMARK_TEMPLATE(BM_Latency, 0, false);
BENCHMARK_TEMPLATE(BM_Latency, 0, true);
BENCHMARK_TEMPLATE(BM_Latency, 1, false);
BENCHMARK_TEMPLATE(BM_Latency, 1, true);
BENCHMARK_TEMPLATE(BM_Latency, 2, false);
BENCHMARK_TEMPLATE(BM_Latency, 2, true);
BENCHMARK_TEMPLATE(BM_Latency, 3, false);
BENCHMARK_TEMPLATE(BM_Latency, 3, true);

/// ns per call of f, one timing of `reps` runs of 4 096 calls.
template <class F>
double NsPerCall(F f, int reps) {
  volatile double sink = 0.0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) sink = sink + f();
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / (4096.0 * reps);
}

/// Median over seven interleaved repetitions of (std::pow's time / ours), and ours in ns per call.
template <class Pow, class Ours>
std::pair<double, double> Ratio(Pow pow_run, Ours ours_run) {
  std::array<double, 7> ratios{}, ours_ns{};
  for (size_t k = 0; k < ratios.size(); ++k) {
    const double t_pow = NsPerCall(pow_run, 200), t_ours = NsPerCall(ours_run, 200);
    ratios[k] = t_pow / t_ours;
    ours_ns[k] = t_ours;
  }
  std::sort(ratios.begin(), ratios.end());
  std::sort(ours_ns.begin(), ours_ns.end());
  return {ratios[3], ours_ns[3]};
}

template <int kIndex>
void PrintRatios() {
  const auto [throughput, ours_t] = Ratio(Sweep<kIndex, false>, Sweep<kIndex, true>);
  const auto [latency, ours_l] = Ratio(Chain<kIndex, false>, Chain<kIndex, true>);
  std::printf("%s: std::pow / ours = %.2f throughput (ours %.2f ns per call), %.2f latency (ours %.2f ns)\n",
              kNames[kIndex], throughput, ours_t, latency, ours_l);
}

}  // namespace

int main(int argc, char** argv) {
  if (!RunGoogleBenchmarks(argc, argv)) return 1;
  std::printf("product errors: %s\n", kHertzPowersUseFma    ? "FMA (in the build)"
                                       : HertzPowersUseFma() ? "FMA (the CPU's, the copies of contact/hertz_powers.cpp)"
                                                             : "Dekker's splitting (no FMA in the build or on the CPU)");
  PrintRatios<0>();
  PrintRatios<1>();
  PrintRatios<2>();
  PrintRatios<3>();
  return 0;
}
