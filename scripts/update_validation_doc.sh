#!/usr/bin/env bash
# Regenerates docs/validation.md (and its figures under docs/validation/) from a full validation run, so the
# repository always shows the current state. Run after any change of results, then commit docs/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=$(mktemp -d)
./build/impactlab validate --out "$out" "$@" || true   # the report is written even when a claim fails
rm -rf docs/validation
mkdir -p docs/validation
(cd "$out" && find . -name '*.png' -exec cp --parents {} "$OLDPWD/docs/validation/" \;)
sed -e 's#](\([a-z0-9_]*\)/\([^)]*\.png\))#](validation/\1/\2)#g' \
    -e "s#--out $out#--out validation-report#g" "$out/report.md" > docs/validation.md
cp "$out/results.json" docs/validation/results.json
echo "docs/validation.md updated from $out"
