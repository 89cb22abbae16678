#!/usr/bin/env bash
# Test job: install what is missing, build (Release), run the whole doctest suite through ctest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
JOBS=$(nproc 2>/dev/null || echo 2)
ctest --test-dir build --output-on-failure -j "$JOBS" --timeout 900
