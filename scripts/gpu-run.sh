#!/usr/bin/env bash
# Runs an example kernel on the GPU and compares it with its sequential
# meaning, in two steps that may run on different machines:
#
#   scripts/gpu-run.sh prepare DIR   (needs the build: rake-translate, rake-run)
#       compiles examples/reverse_tiles.mlir to DIR/reverse_tiles.ptx, runs its
#       sequential meaning on generated inputs (DIR/in -> DIR/cpu), and
#       writes the launcher's arguments to DIR/args
#   scripts/gpu-run.sh run DIR       (needs a GPU and the CUDA toolkit)
#       builds runtime/launch/rake-launch.cpp, runs the kernel on DIR/in,
#       writes DIR/gpu, and compares every buffer with DIR/cpu (exactly: the
#       example only moves data)
#
# scripts/run-example.sh does both when a GPU is present.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
step=${1:?usage: gpu-run.sh prepare|run DIR}
dir=${2:?usage: gpu-run.sh prepare|run DIR}
n=${N:-1048576}
case "$step" in
prepare)
  mkdir -p "$dir"
  "$build/bin/rake-translate" --gpuir-to-ptx "$root/examples/reverse_tiles.mlir" \
    -o "$dir/reverse_tiles.ptx"
  "$build/bin/rake-run" --seq "$root/examples/reverse_tiles.mlir" --sizes=n=$n \
    --shape=A=$n,B=$n --save-inputs="$dir/in" --output-dir="$dir/cpu"
  # The kernel's block size and CTAs per SM, from its PTX and the source.
  block=$(grep -o '\.maxntid [0-9]*' "$dir/reverse_tiles.ptx" | awk '{print $2}')
  echo "reverse_tiles --block $block i:$n m:4:$n:in/A.bin:gpu/A.bin m:4:$n:in/B.bin:gpu/B.bin" > "$dir/args"
  ;;
run)
  cuda=${CUDA_HOME:-/usr/local/cuda}
  mkdir -p "$dir/gpu"
  g++ -O2 -std=c++17 -o "$dir/rake-launch" "$root/runtime/launch/rake-launch.cpp" \
    -I"$cuda/include" -L"$cuda/lib64" -L"$cuda/lib64/stubs" -lcuda
  (cd "$dir" && ./rake-launch reverse_tiles.ptx $(cat args))
  status=0
  for f in "$dir"/cpu/*.bin; do
    b=$(basename "$f")
    if cmp -s "$f" "$dir/gpu/$b"; then
      echo "$b: GPU equals the sequential meaning ($(stat -c %s "$f") bytes)"
    else
      echo "$b: GPU DIFFERS from the sequential meaning"; status=1
    fi
  done
  exit $status
  ;;
*)
  echo "usage: gpu-run.sh prepare|run DIR" >&2; exit 2 ;;
esac
