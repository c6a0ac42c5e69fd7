#!/usr/bin/env bash
# The Sm80 GEMM example against cuBLAS (torch.matmul), in two steps:
#
#   bench/gemm_sm80/run.sh prepare          (here: needs the build)
#       compiles examples/gemm_sm80.mlir to gpu-work/bench/gemm_sm80.ptx
#   bench/gemm_sm80/run.sh run [SIZE...]    (on the GPU machine: CUDA, PyTorch)
#       builds the launcher and runs bench.py: TFLOP/s of both and their
#       ratio (cuBLAS time / ours: above 1 is faster than cuBLAS), after
#       checking our result against torch's product of the same inputs
#
# Ratios, not absolute times, are what to compare across machines.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-$root/gpu-work/bench}
case "${1:-}" in
prepare)
  mkdir -p "$work"
  bin=${RAKE_BIN:-$root/build/bin}
  "$bin/rake-translate" --gpuir-to-ptx "$root/examples/gemm_sm80.mlir" \
    -o "$work/gemm_sm80.ptx"
  # The launch shape (block, CTAs per SM, dynamic shared memory) as rake-run
  # gives it to the launcher.
  "$bin/rake-run" --seq "$root/examples/gemm_sm80.mlir" --sizes=Mt=1,Nt=1,Kt=1 \
    --shape=A=128x32,B=32x128,C=128x128 --launch-args="$work/args" > /dev/null
  sed -E 's/^[a-z0-9_]+ (--block [0-9]+ --blocks-per-sm [0-9]+ --smem [0-9]+).*/\1/' \
    "$work/args" > "$work/launch"
  echo "wrote $work/gemm_sm80.ptx; launch: $(cat "$work/launch")"
  ;;
run)
  shift
  cuda=${CUDA_HOME:-/usr/local/cuda}
  g++ -O2 -std=c++17 -o "$work/rake-launch" "$root/runtime/launch/rake-launch.cpp" \
    -I"$cuda/include" -L"$cuda/lib64" -L"$cuda/lib64/stubs" -lcuda
  python3 "$root/bench/gemm_sm80/bench.py" "$work/rake-launch" \
    "$work/gemm_sm80.ptx" "$work" "$(cat "$work/launch")" "$@"
  ;;
*)
  echo "usage: run.sh prepare | run [SIZE...]" >&2; exit 2 ;;
esac
