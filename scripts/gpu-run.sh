#!/usr/bin/env bash
# Runs an example kernel on the GPU and compares it with its sequential
# meaning, in two steps that may run on different machines:
#
#   scripts/gpu-run.sh prepare DIR KERNEL.mlir [--rtol=R] [--atol=A] RAKE-RUN-FLAGS...
#       (needs the build) compiles the kernel to DIR/kernel.ptx, runs its
#       sequential meaning on generated inputs (DIR/in -> DIR/cpu), and
#       writes the launcher's arguments to DIR/args; --rtol/--atol set the
#       tolerance of floating-point outputs (default 0: bit-exact)
#   scripts/gpu-run.sh run DIR...
#       (needs a GPU and the CUDA toolkit) builds runtime/launch/rake-launch,
#       runs each DIR's kernel on DIR/in, writes DIR/gpu, and compares every
#       buffer with DIR/cpu element by element, reporting the largest error
#
#   scripts/gpu-run.sh prepare work/rev examples/reverse_tiles.mlir \
#       --sizes=n=1048576 --shape=A=1048576,B=1048576
#
# scripts/run-example.sh does both when a GPU is present.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bin=${RAKE_BIN:-$build/bin}
usage="usage: gpu-run.sh prepare DIR KERNEL.mlir FLAGS... | run DIR..."
step=${1:?$usage}
shift
case "$step" in
prepare)
  dir=${1:?$usage}; kernel=${2:?$usage}; shift 2
  mkdir -p "$dir"
  tolerance=""
  flags=()
  for a in "$@"; do
    case "$a" in
      --rtol=*|--atol=*) tolerance+=" ${a%%=*} ${a#*=}" ;;
      *) flags+=("$a") ;;
    esac
  done
  echo "$tolerance" > "$dir/tolerance"
  "$bin/rake-translate" --gpuir-to-ptx "$kernel" -o "$dir/kernel.ptx"
  "$bin/rake-run" --seq "$kernel" "${flags[@]}" --save-inputs="$dir/in" \
    --output-dir="$dir/cpu" --launch-args="$dir/args"
  ;;
run)
  [ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
  cuda=${CUDA_HOME:-/usr/local/cuda}
  launcher=$(mktemp -d)/rake-launch
  g++ -O2 -std=c++17 -o "$launcher" "$root/runtime/launch/rake-launch.cpp" \
    -I"$cuda/include" -L"$cuda/lib64" -L"$cuda/lib64/stubs" -lcuda
  status=0
  for dir in "$@"; do
    mkdir -p "$dir/gpu"
    read -r name rest < "$dir/args"
    tolerance=$(cat "$dir/tolerance" 2>/dev/null || true)
    # shellcheck disable=SC2086
    (cd "$dir" && "$launcher" kernel.ptx "$name" --expect cpu $tolerance $rest) \
      || status=1
  done
  exit $status
  ;;
*)
  echo "$usage" >&2; exit 2 ;;
esac
