#!/usr/bin/env bash
# Installs the Debian 12 packages impactlab needs (only those missing; idempotent; needs root or sudo for
# the install step) and builds it in Release into ./build. Sourced by scripts/validate.sh and scripts/test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PACKAGES=(build-essential cmake pkg-config libeigen3-dev libsundials-dev libboost-dev libceres-dev
          doctest-dev nlohmann-json3-dev libtoml11-dev libcli11-dev libbenchmark-dev
          python3 python3-matplotlib python3-pandas python3-numpy chromium
          openmpi-bin libopenmpi-dev  # optional MPI ranks for sweep/validate (docs/scaling.md)
          libsiconos-kernel-dev libsiconos-mechanics-dev libsiconos-numerics-dev siconos  # nonsmooth peers (docs/nonsmooth-peers.md)
          python3-dev pybind11-dev python3-pytest  # Python module (python/)
          jupyter-nbconvert python3-ipykernel doxygen  # example notebook run by the tests; API reference (docs target)
          clang libclang-rt-14-dev llvm-14  # sanitizer + fuzz builds (scripts/sanitize.sh, scripts/fuzz.sh)
          time  # /usr/bin/time: peak RSS of the child runs of bench --only assembly (validation/bench/child_process.h)
          lammps)  # optional peer of `impactlab bench --only assembly` (lmp, one core; docs/performance.md): absent, the key reads "peer not installed"

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing missing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

JOBS=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$JOBS"
