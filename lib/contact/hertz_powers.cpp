// The FMA copies of the Hertz powers (contact/hertz_powers.h) for a baseline x86-64 build on a CPU with FMA
// instructions. Each copy is compiled for FMA (the function attribute) and without contraction of a b + c into an FMA
// (this file is compiled with -ffp-contract=off: CMakeLists.txt), so that it runs exactly the operations of the
// header's formulas with the product errors from fma(a, b, −fl(a b)): the same bits as Dekker's product, which
// tests/lib/hertz_powers_test.cpp checks. The CPU is asked once, at start-up (GCC's __builtin_cpu_supports).
#include "contact/hertz_powers.h"

namespace impactlab::hertz_powers_detail {

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define IMPACTLAB_FMA_COPIES 1
#define IMPACTLAB_TARGET_FMA __attribute__((target("fma")))
#else
#define IMPACTLAB_FMA_COPIES 0
#define IMPACTLAB_TARGET_FMA
#endif

namespace {
bool CpuFmaBeyondBuild() {
  if (kHertzPowersUseFma) return false;  // the build's own FMA instructions are used inline
#if IMPACTLAB_FMA_COPIES
  __builtin_cpu_init();  // required before __builtin_cpu_supports in a static initialiser
  return __builtin_cpu_supports("fma");
#else
  return false;
#endif
}
}  // namespace

const bool kCpuFmaBeyondBuild = CpuFmaBeyondBuild();

// Called only when kCpuFmaBeyondBuild is true. Off x86-64 they are the build's form (never called there).
IMPACTLAB_TARGET_FMA double ThreeHalvesFma(double delta) { return ThreeHalves<IMPACTLAB_FMA_COPIES != 0>(delta); }
IMPACTLAB_TARGET_FMA double FiveHalvesFma(double delta) { return FiveHalves<IMPACTLAB_FMA_COPIES != 0>(delta); }
IMPACTLAB_TARGET_FMA double QuarterFma(double delta) { return Quarter<IMPACTLAB_FMA_COPIES != 0>(delta); }
IMPACTLAB_TARGET_FMA double FiveQuartersFma(double delta) { return FiveQuarters<IMPACTLAB_FMA_COPIES != 0>(delta); }

}  // namespace impactlab::hertz_powers_detail
