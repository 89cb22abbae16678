#!/usr/bin/env bash
# Main job: install what is missing, build (Release), run the validation suite on its built-in default and
# write the report to ./validation-report (report.md, report.html, results.json, per-study CSV + PNG).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
exec ./build/impactlab validate --out validation-report "$@"
