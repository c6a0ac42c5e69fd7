#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs every test: the lit suite under test/.
# GPU tests run only where a CUDA device answers and are reported as
# unsupported elsewhere.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/rake-gpu-ccache}
export CCACHE_BASEDIR=$root
export CCACHE_NOHASHDIR=1
cmake --build "$build" --target check-rake
