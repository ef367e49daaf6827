#!/usr/bin/env bash
# Install the Debian 12 packages posenc needs, only those missing; does nothing when all are present.
# Usage: bash tools/bootstrap-deps.sh [--demo] [extra-package ...]   (as root, or with sudo available)
#   --demo: only what tools/demo.sh needs (one compiler, the libraries the configure step looks
#           for, the Arm cross toolchain and QEMU for its firmware step), not the second compiler
#           or the libraries only the tests use.
set -euo pipefail

demo_only=0
if [ "${1:-}" = "--demo" ]; then
  demo_only=1
  shift
fi

packages=(
  g++            # GCC 12: compiler and the compile-time MPFR folding used in proofs/
  cmake ninja-build
  libboost1.81-dev  # Boost.Hana and Boost.Multiprecision for the verify layer
  libmpfr-dev    # the oracle's arithmetic
  catch2         # Catch2 v2, the test framework
  nlohmann-json3-dev  # posenc::io: reading a model's config.json (posenc emit --hf-config)
  gnuplot-nox    # posenc report precision: the PNG plots (docs/rope-precision.md)
  gcc-arm-none-eabi libstdc++-arm-none-eabi-newlib  # the bare-metal target: examples/firmware, the demo's last step
  qemu-system-arm  # runs examples/firmware's images (and tests/cross/qemu_m4.cpp) on emulated Cortex-M cores
)
if [ "$demo_only" -eq 0 ]; then
  packages+=(
    clang-16       # the second compiler every proof and test must pass with
    libclang-rt-16-dev  # libFuzzer and clang's sanitizers: tests/fuzz (tools/fuzz.sh and the fuzzing smoke test)
    clang-format-16  # tools/check-format.sh: the declared format, checked by the test suite
    pybind11-dev python3-dev python3-numpy  # the Python module (python/): import posenc
    python3-pytest  # its tests, run by ctest
    python3-hypothesis  # posenc.testing: property tests of users' RoPE and bias kernels (Python)
    python3-pip python3-setuptools python3-wheel  # `pip install .` of the module, tested offline
    librapidcheck-dev   # posenc/testing: the same in C++ (RapidCheck generators, shrinking, in Catch2)
    libsleef-dev   # SLEEF, whose float32 pow torch's CPU build uses: the hf_float32 policy is tested against it
    gappa sollya   # proofs/gappa, proofs/sollya: the fast paths' error bounds, machine-checked
    parallel slurm-wlm  # tests/batch: docs/verify.md's sharded-verification recipes, run on real engines
  )
fi
packages+=("$@")

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "posenc: installing missing Debian packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
