#!/usr/bin/env bash
# Package test (called by scripts/test.sh after ctest; docs/python.md, README "Use it as a library"):
#   1. `cmake --install build --prefix P` into a fresh temporary prefix P (outside the build tree);
#   2. the three C++ examples (examples/contact_law, integrator, model) configured with
#      find_package(impactlab) from P only, built and run (each prints its comparison table; exit 0 only if
#      its checks pass); a user-registered integrator in `list` and in a `converge` run of the user's program;
#   3. a pkg-config consumer compiled and linked against P;
#   4. `import impactlab` from P, then pytest python/tests (the example notebook included, executed headless).
# Usage: bash scripts/test_install.sh [BUILD_DIR]   (default ./build; needs a configured and built BUILD_DIR)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SRC=$PWD
BUILD=${1:-build}
JOBS=$(nproc 2>/dev/null || echo 2)
((JOBS > 2)) && JOBS=2
WORK=$(mktemp -d "${TMPDIR:-/tmp}/impactlab-install.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
PREFIX=$WORK/prefix
step() { printf '\n== test_install: %s\n' "$*"; }

step "install into $PREFIX"
cmake --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log"
for f in bin/impactlab lib/cmake/impactlab/impactlabConfig.cmake lib/cmake/impactlab/impactlabConfigVersion.cmake \
         lib/pkgconfig/impactlab.pc include/impactlab/contact/power_law.h include/impactlab/integrators/simo_tarnow.h \
         include/impactlab/validation/registry/extension.h lib/libimpactlab_core.a; do
  [ -e "$PREFIX/$f" ] || { echo "test_install: missing $PREFIX/$f" >&2; exit 1; }
done
"$PREFIX/bin/impactlab" --version

# A consumer sees only the prefix: the source and build trees are not on any search path.
build_example() {  # name
  step "example $1: configure with find_package(impactlab) from the prefix, build"
  cmake -S "$SRC/examples/$1" -B "$WORK/ex-$1" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PREFIX" \
        ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >"$WORK/ex-$1.cfg.log"
  cmake --build "$WORK/ex-$1" -j "$JOBS" >"$WORK/ex-$1.build.log" || { cat "$WORK/ex-$1.build.log"; exit 1; }
}
for ex in contact_law integrator model; do build_example "$ex"; done

step "example contact_law: a new normal law vs five integrators"
"$WORK/ex-contact_law/contact_law_example" "$WORK/out-contact_law"
# (outputs captured first: `prog | grep -q` would fail under pipefail when grep exits before prog ends)
listing=$("$WORK/ex-contact_law/contact_law_example" cli list)
grep -q '^  duffing - ' <<<"$listing" || { echo "test_install: the user-registered law is not in the user's 'list'" >&2; exit 1; }
step "example integrator: a new integrator, contract, order audit, conservation"
"$WORK/ex-integrator/integrator_example" "$WORK/out-integrator"
listing=$("$WORK/ex-integrator/integrator_example" cli list)
grep -q '^  yoshida4 (order 4)' <<<"$listing" \
  || { echo "test_install: the user-registered integrator is not in the user's 'list'" >&2; exit 1; }
if grep -q -- '--matrix' <<<"$("$WORK/ex-integrator/integrator_example" cli list --help 2>&1)"; then
  matrix=$("$WORK/ex-integrator/integrator_example" cli list --matrix)
  grep -q yoshida4 <<<"$matrix" \
    || { echo "test_install: the user-registered integrator is not in the user's 'list --matrix'" >&2; exit 1; }
  echo "yoshida4 is in the user's 'list --matrix'"
fi
"$WORK/ex-integrator/integrator_example" cli converge "$PREFIX/share/impactlab/scenarios/hertz_unit_exact.toml" \
  --integrator yoshida4 --integrator velocity_verlet --dt-min 2.5e-3 --dt-max 0.04 --levels 5 --out "$WORK/out-converge"
step "example model: a new model with built-in laws and integrators"
"$WORK/ex-model/model_example" "$WORK/out-model"

step "pkg-config consumer"
cat >"$WORK/pc.cpp" <<'CPP'
#include <cmath>
#include <iostream>
#include "contact/power_law.h"
#include "registry/registries.h"
int main() {
  const impactlab::HertzLaw law(1e9);
  std::cout << "pkg-config consumer: " << impactlab::IntegratorRegistry().names().size() << " integrators, F(1e-6) = "
            << law.Force(1e-6) << " N\n";
  return std::abs(law.Force(1e-6) - 1.0) < 1e-12 ? 0 : 1;  // F = k δ^1.5 = 1e9 · 1e-9 N
}
CPP
PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
  sh -c 'c++ -O1 "$1/pc.cpp" -o "$1/pc" $(pkg-config --cflags --libs impactlab)' _ "$WORK"
"$WORK/pc"

PYDIR=$(ls -d "$PREFIX"/lib/python3/dist-packages 2>/dev/null || true)
if [ -z "$PYDIR" ] || [ ! -d "$PYDIR/impactlab" ]; then
  echo "test_install: the Python module was not installed (Python 3 or pybind11 missing at configure time)" >&2
  exit 1
fi
step "python: import impactlab from $PYDIR, pytest python/tests"
export PYTHONPATH="$PYDIR" IMPACTLAB_PREFIX="$PREFIX" MPLBACKEND=Agg
(cd "$WORK" && /usr/bin/python3 -c 'import impactlab, sys; print("impactlab", impactlab.__version__, "from", impactlab.__file__); sys.exit(0 if impactlab.__file__.startswith(sys.argv[1]) else 1)' "$PREFIX")
# pytest exit codes: 0 all passed; 1 some failed; 2 interrupted; 3 internal error; 4 usage error; 5 no tests
# collected. Only 0 is a pass (5 would mean the suite silently vanished).
set +e
(cd "$WORK" && /usr/bin/python3 -m pytest -q -p no:cacheprovider "$SRC/python/tests")
rc=$?
set -e
case $rc in
  0) ;;
  5) echo "test_install: pytest collected no tests" >&2; exit 1 ;;
  *) echo "test_install: pytest failed (exit status $rc)" >&2; exit 1 ;;
esac
step "all package tests passed"
