#!/usr/bin/env bash
# Test job: install what is missing, build (Release), run the whole doctest suite through ctest; the package
# test (scripts/test_install.sh: install, the examples against the installed package, pytest); then the
# same suite under ASan + UBSan and both fuzz targets for 60 s each (docs/reliability.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
JOBS=$(nproc 2>/dev/null || echo 2)
ctest --test-dir build --output-on-failure -j "$JOBS" --timeout 900
bash scripts/test_install.sh build  # install to a temporary prefix; C++ examples, pkg-config, Python + pytest
bash scripts/sanitize.sh
bash scripts/fuzz.sh 60
