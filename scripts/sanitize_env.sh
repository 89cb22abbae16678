# Shared by scripts/sanitize.sh and scripts/fuzz.sh (sourced): configures ./build-sanitize with clang,
# ASan + UBSan and libFuzzer coverage (-DIMPACTLAB_FUZZ=ON), -O2 with line tables and assertions on
# (CMAKE_CXX_FLAGS_RELEASE replaces -O3 -DNDEBUG), and sets the sanitizer run-time options. -O2 rather than -O1:
# the sanitized suite runs in half the time and the build takes about as long (docs/reliability.md "Sanitizers").
SANITIZE_BUILD=${SANITIZE_BUILD:-build-sanitize}
JOBS=$(nproc 2>/dev/null || echo 2)
CXX=clang++ cmake -S . -B "$SANITIZE_BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -gline-tables-only" \
  -DIMPACTLAB_SANITIZE=ON -DIMPACTLAB_FUZZ=ON -DIMPACTLAB_BUILD_BENCHMARKS=OFF >/dev/null
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:check_initialization_order=1:strict_init_order=1}
# Third-party leaks only (Siconos 4.4's own object graph): scripts/lsan_suppressions.txt.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan_suppressions.txt:print_suppressions=0}
[ -x /usr/lib/llvm-14/bin/llvm-symbolizer ] && export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-14/bin/llvm-symbolizer}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
