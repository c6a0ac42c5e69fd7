#!/usr/bin/env bash
# What this folder measures: the example GEMMs and the steps between them
# against cuBLAS (the fastest Rake GEMMs are bench/gemm). The GEMMs
# (examples/gemm_sm80.mlir, mma.sync double-buffered;
# bench/gemm_examples/gemm_sm80_4stage.mlir, four stages; examples/gemm_sm90a.mlir,
# wgmma on swizzled stages; bench/gemm_examples/gemm_sm90a_core.mlir, wgmma on
# core-matrix stages; examples/gemm_sm90a_tma.mlir, the swizzled stages filled
# by TMA; bench/gemm_examples/gemm_sm90a_ws*.mlir, that warp-specialized, written
# by make_gemm_sm90a_ws.py; gemm_sm80_derived, the first derived by its
# schedule from the sequential GEMM) against cuBLAS (torch.matmul), in two steps:
#
#   bench/gemm_examples/run.sh prepare          (here: needs the build)
#       compiles each kernel to a verified bundle gpu-work/bench/NAME
#       (rake-bundle, with the trusted disassembly store) and records its
#       launch shape (block, CTAs per SM, dynamic shared memory) as rake-run
#       gives it, in gpu-work/bench/kernels.txt
#   bench/gemm_examples/run.sh run [SIZE...]    (on the GPU machine: CUDA, PyTorch)
#       builds the launcher (with the C runtime: each kernel runs from its
#       verified bundle) and runs bench.py: TFLOP/s of each kernel and of
#       cuBLAS on the same inputs, and their ratio (cuBLAS time / ours: above
#       1 is faster than cuBLAS), after checking each result against torch's
#       f32 product of the same inputs
#
# Ratios, not absolute times, are what to compare across machines.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-$root/gpu-work/bench}
# Each kernel with the width of its K slices, how it takes B: k x n ("kn",
# B) or n x k ("nk", B transposed), and the height of its tiles of C.
kernels=("$root/examples/gemm_sm80.mlir 32 kn 128" "$root/bench/gemm_examples/gemm_sm80_4stage.mlir 32 kn 128"
         "$root/examples/gemm_sm90a.mlir 64 nk 256" "$root/bench/gemm_examples/gemm_sm90a_core.mlir 64 nk 256"
         "$root/examples/gemm_sm90a_tma.mlir 64 nk 256" "$root/bench/gemm_examples/gemm_sm90a_ws.mlir 64 nk 256"
         "$root/bench/gemm_examples/gemm_sm90a_ws_lag.mlir 64 nk 256" "$root/bench/gemm_examples/gemm_sm90a_ws2.mlir 64 nk 256")
# The Sm80 example's kernel derived from the sequential GEMM by its schedule
# (examples/schedules/), as gemm_sm80_derived.
kernels=("${kernels[0]}" "$work/gemm_sm80_derived.mlir 32 kn 128" "${kernels[@]:1}")
case "${1:-}" in
prepare)
  mkdir -p "$work"
  bin=${RAKE_BIN:-$root/build/bin}
  : > "$work/kernels.txt"
  "$bin/rake-opt" "$root/examples/schedules/gemm_sm80_seq.mlir" \
    --transform-preload-library=transform-library-paths="$root/examples/schedules/gemm_sm80.schedule.mlir" \
    --transform-interpreter | sed 's/@gemm_sm80(/@gemm_sm80_derived(/' > "$work/gemm_sm80_derived.mlir"
  for entry in "${kernels[@]}"; do
    set -- $entry
    k=$1 slice=$2 form=$3 mtile=$4
    name=$(basename "$k" .mlir)
    # ONLY='regex' prepares the kernels whose names match.
    grep -qE "^(${ONLY:-.*})$" <<< "$name" || continue
    "$bin/rake-bundle" "$k" -o "$work/$name" \
      --disasm-dir="${RAKE_DISASM_DIR:-$root/test/Verifier/Inputs/disasm}" > "$work/$name.log" \
      || { cat "$work/$name.log" >&2; echo "run.sh: $k: the bundle is not verified" >&2; exit 1; }
    if [ "$form" = kn ]; then shape="A=${mtile}x$slice,B=${slice}x128,C=${mtile}x128"
    else shape="A=${mtile}x$slice,Bt=128x$slice,C=${mtile}x128"; fi
    "$bin/rake-run" --seq "$k" --sizes=Mt=1,Nt=1,Kt=1 --shape="$shape" \
      --launch-args="$work/$name.args" > /dev/null
    launch=$(sed -E 's/^[a-z0-9_]+ (--block [0-9]+ --blocks-per-sm [0-9]+ --smem [0-9]+).*/\1/' "$work/$name.args")
    # The tensor maps of TMA kernels (t:ARG:BOX:SWIZZLE) come last.
    launch="$launch$(grep -o ' t:[^ ]*' "$work/$name.args" | tr -d '\n' || true)"
    echo "$name $name $slice $form $mtile $launch" >> "$work/kernels.txt"
  done
  cat "$work/kernels.txt"
  ;;
run)
  shift
  "$root/scripts/build-launcher.sh" "$work/rake-launch"
  python3 "$root/bench/gemm_examples/bench.py" "$work/rake-launch" "$work" "$@"
  ;;
*)
  echo "usage: run.sh prepare | run [SIZE...]" >&2; exit 2 ;;
esac
