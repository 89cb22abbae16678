#!/usr/bin/env bash
# Sanitizer job (docs/reliability.md "Sanitizers"): builds the whole doctest suite (and the impactlab binary
# the CLI tests call) with clang, AddressSanitizer + UndefinedBehaviorSanitizer at -O2 (every UB report fatal,
# leak check on) into ./build-sanitize and runs it through ctest. The same build directory also holds the
# libFuzzer targets of scripts/fuzz.sh. Needs the packages of scripts/setup.sh (clang, libclang-rt-14-dev).
# Extra arguments go to ctest (e.g. -R cli).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/sanitize_env.sh
cmake --build "$SANITIZE_BUILD" -j "$JOBS" --target impactlab impactlab_tests
# Private temp directory: some tests use fixed names under temp_directory_path(), which would collide with a
# Release ctest (scripts/test.sh's first step, or another checkout) running at the same time.
export TMPDIR="$PWD/$SANITIZE_BUILD/tmp"
mkdir -p "$TMPDIR"
# The [mpi] tests are left out here (docs/reliability.md "Exclusions"): they time mpirun's signal handling (a
# killed rank, SIGINT within mpirun's ~1 s grace), which the ~10x slower sanitized binary does not meet; they run
# in the Release suite of scripts/test.sh, and the sanitized sweep code runs in the non-MPI sweep tests.
ctest --test-dir "$SANITIZE_BUILD" --output-on-failure -j "$JOBS" --timeout 1800 -E '\[mpi\]' "$@"
