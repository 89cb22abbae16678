#!/usr/bin/env bash
# Wall time of the reference scaling sweep (docs/sweeps.md, ReferenceScalingSweep in
# validation/sweep/parallel_sweep.h) with 1 and 2 threads, best of N repeats, and the 1-minute load average
# before the measurement (the machine may be shared). Usage: scripts/sweep_scaling.sh [BUILD_DIR] [REPEATS]
set -euo pipefail
build=${1:-build}
repeats=${2:-3}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
best() {
  local t=$1 b=1e9
  for _ in $(seq "$repeats"); do
    rm -rf "$tmp/out"
    w=$("$build/impactlab" sweep "$src/validation/scenarios/ellipsoid_wall.toml" --set dt=1e-6 \
          --vary theta_deg=0:75:6 --vary e_cn=0.3,0.5,0.7,0.9 --threads "$t" --out "$tmp/out" --json 2>/dev/null |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["wall_time_s"])')
    b=$(python3 -c "print(min($b, $w))")
  done
  echo "$b"
}
load=$(cut -d' ' -f1 /proc/loadavg)
t1=$(best 1)
t2=$(best 2)
python3 -c "print(f'load_before={$load} rows=24 wall_1_thread_s={$t1:.3f} wall_2_threads_s={$t2:.3f} speedup={$t1/$t2:.3f}')"
