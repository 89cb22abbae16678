// Contact threads: how many threads the contact loops of the large multi-body models use (OpenMP, GCC's libgomp;
// issue 19 item 5, docs/performance.md "Both cores in one run").
//
// The models that use them (models/sphere_assembly.cpp) evaluate every contact into its own slot in parallel and
// then combine the slots serially in contact order, so the floating-point operations and their order do not
// depend on the thread count: results are bitwise identical for 1, 2, … threads (tested in
// tests/models/sphere_assembly_threads_test.cpp). Below kParallelContactThreshold contacts a loop stays serial
// (a parallel region costs a few µs).
//
// Default: one thread, unless OMP_NUM_THREADS is set (then that many) or a program calls SetContactThreads. Not
// OpenMP's default of one thread per core: on a machine whose cores are busy (a `validate --threads 2`, other jobs) a second contact thread that has to wait for a core makes every
// parallel region wait for it — measured 4× slower on a loaded 2-core machine (docs/performance.md). On a shared
// machine set OMP_WAIT_POLICY=passive as well. The count is process-wide (every calling thread sees it).
// Without OpenMP (a build whose compiler has no OpenMP runtime, e.g. the clang sanitizer build) everything runs on
// one thread and SetContactThreads returns 1.
#pragma once

#include <functional>

namespace impactlab {

/// True when impactlab was built with OpenMP.
bool ContactThreadsAvailable();
/// Sets the number of threads of the contact loops (>= 1; throws InvalidParameter naming "threads" otherwise).
/// Returns the number now in effect (1 without OpenMP).
int SetContactThreads(int threads);
/// The number of threads the next contact loop uses.
int ContactThreads();

/// body(block, begin, end) for the `blocks` contiguous blocks [n·b/blocks, n·(b+1)/blocks) of [0, n), one block per
/// thread (OpenMP, `blocks` threads; serially in block order without OpenMP). For the long-vector sweeps of the
/// explicit schemes (integrators/velocity_verlet.cpp): a scheme calls it only above its own length threshold, so
/// short vectors never pay for a parallel region. Each block must write only its own entries, and body must not
/// throw (an exception cannot leave an OpenMP region).
void ParallelBlocks(long n, int blocks, const std::function<void(int block, long begin, long end)>& body);

/// Whether pred(begin, end) holds on every one of the `blocks` contiguous blocks of [0, n) (ParallelBlocks, at most
/// 64 blocks; one call pred(0, n) when blocks <= 1). A logical AND, so the answer does not depend on the thread
/// count. pred must not throw.
bool ParallelAllOf(long n, int blocks, const std::function<bool(long begin, long end)>& pred);

/// Arrays of at least this many doubles are copied, compared and checked by the three functions below in blocks on
/// the contact threads (the state passes of Integrator::Step for 10⁴ spheres and more, state/mechanical_state.h).
/// Each result is exact, so it does not depend on the thread count.
inline constexpr long kParallelArrayLength = 32768;
/// Whether a[0, n) and b[0, n) have the same bytes (memcmp == 0 in blocks).
bool ParallelSameBytes(const double* a, const double* b, long n);
/// to[0, n) = from[0, n) (memcpy in blocks from kParallelArrayLength on, one memcpy below; the ranges must not
/// overlap).
void ParallelCopy(const double* from, double* to, long n);
/// Whether every x[0, n) is finite.
bool ParallelAllFinite(const double* x, long n);

/// Loops over fewer items than this stay serial.
inline constexpr long kParallelContactThreshold = 2048;

}  // namespace impactlab
