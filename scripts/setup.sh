#!/usr/bin/env bash
# Installs what Rake GPU needs to build and test (Debian packages), then
# configures and builds it. Safe to run any number of times.
#
#   scripts/setup.sh            install, configure, build
#   BUILD_DIR=out scripts/setup.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

packages=(
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  cmake ninja-build ccache g++ python3 python3-dev pybind11-dev libssl-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi

# The compiler cache lives outside the source tree so that a fresh clone
# (CI's) reuses it; paths are made relative to the source root.
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/rake-gpu-ccache}
export CCACHE_BASEDIR=$root
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export CCACHE_COMPILERCHECK=content
mkdir -p "$CCACHE_DIR"

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
targets=(rake-opt rake-translate rake-run rake-verify rake-bundle rake-example-ref rake-lsp-server
  rake_runtime_shared)
# The Python package, where pybind11 was found (python/CMakeLists.txt).
grep -q "build rake-python:" "$build/build.ninja" && targets+=(rake-python)
cmake --build "$build" --target "${targets[@]}"
ccache -s 2>/dev/null | grep -Ei "hits|misses" | head -3 || true
