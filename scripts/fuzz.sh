#!/usr/bin/env bash
# Fuzzing job (docs/reliability.md "Fuzzing"): builds the two libFuzzer targets (clang, ASan + UBSan) into
# ./build-sanitize and runs each for a bounded time, default 60 s (`bash scripts/fuzz.sh SECONDS`):
#   scenario_parser_fuzzer  seeds validation/scenarios/*.toml (but the 10^4- and 10^5-sphere timing packings),
#                           validation/calibration/examples/*.toml
#   cli_args_fuzzer         seeds fuzz/corpus/cli/* (one command line each; run from the project root so the
#                           scenario paths in them resolve)
# Exit status non-zero on any finding (crash, sanitizer report, FuzzFinding, slow input > 25 s, > 2 GB);
# the input is saved as build-sanitize/fuzz-run/<target>/findings/{crash,timeout,oom,...}-<sha1>.
# Reproduce: build-sanitize/fuzz/<target> <file>; after the fix copy it to fuzz/regressions/{scenario,cli}/
# (the doctest suite replays every file there; it also seeds the next run) and add a minimised case to
# tests/validation/fuzz_entry_points_test.cpp.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FUZZ_SECONDS=${1:-${FUZZ_SECONDS:-60}}
source scripts/sanitize_env.sh
cmake --build "$SANITIZE_BUILD" -j "$JOBS" --target scenario_parser_fuzzer cli_args_fuzzer

status=0
run_fuzzer() {  # target max_len dict seed-dir...
  local target=$1 max_len=$2 dict=$3
  shift 3
  local work="$SANITIZE_BUILD/fuzz-run/$target"
  rm -rf "$work/findings"
  mkdir -p "$work/corpus" "$work/findings"
  echo "fuzz: $target for ${FUZZ_SECONDS} s (log: $work/log.txt)"
  if "$SANITIZE_BUILD/fuzz/$target" -max_total_time="$FUZZ_SECONDS" -max_len="$max_len" -timeout=25 \
       -rss_limit_mb=2048 -dict="$dict" -close_fd_mask=1 -print_final_stats=1 \
       -artifact_prefix="$work/findings/" "$work/corpus" "$@" >"$work/log.txt" 2>&1; then
    grep -E "^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)|Done " \
      "$work/log.txt" | sed "s/^/fuzz: $target: /"
  else
    status=1
    echo "fuzz: $target: FINDING - input saved in $work/findings/:" >&2
    ls -l "$work/findings" >&2
    grep -E -A25 "ERROR|fuzz finding|runtime error|deadly signal|timeout" "$work/log.txt" | head -60 >&2
  fi
}
# The scenario seeds without sphere_assembly_1e4/1e5.toml: the same keys as sphere_assembly_1e3.toml, but each of their
# mutants builds a 10^4- or 10^5-sphere packing, which took three quarters of a 60 s run (199 against 758 exec/s
# without them, docs/reliability.md "Fuzzing").
seeds="$SANITIZE_BUILD/fuzz-run/scenario-seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
cp validation/scenarios/*.toml "$seeds/"
rm -f "$seeds/sphere_assembly_1e4.toml" "$seeds/sphere_assembly_1e5.toml"
run_fuzzer scenario_parser_fuzzer 4096 fuzz/scenario.dict "$seeds" validation/calibration/examples fuzz/regressions/scenario
run_fuzzer cli_args_fuzzer 512 fuzz/cli.dict fuzz/corpus/cli fuzz/regressions/cli
exit "$status"
