#!/usr/bin/env bash
# Writes bench/fused/fused_{rmsnorm,softmax}_r4.mlir from the examples: the
# same kernels with 4 rows (4 warps) per CTA and 3 CTAs per SM instead of 8
# and 2 (test/Examples/fused-r4.mlir checks that the files are this
# script's output and compute what the examples compute).
#   bench/fused/make_r4.sh [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$root/bench/fused}
for k in rmsnorm softmax; do
  {
    echo "// Written by bench/fused/make_r4.sh from examples/fused_$k.mlir: 4 rows (4 warps) per"
    echo "// CTA and 3 CTAs per SM (12 warps, not 16: 32768 rows are 20.7 rounds of the"
    echo "// SMs' warps, not 15.5, so the last round leaves fewer of them idle)."
    sed -e 's/memref<8x32x32xf32/memref<4x32x32xf32/g; s/memref<8x32xf32/memref<4x32xf32/g' \
        -e 's/%v = 0 to 8 :/%v = 0 to 4 :/; s/%b \* 8 + %v/%b * 4 + %v/g; s/blocks \* 8/blocks * 4/g' \
        -e 's/blocks_per_sm(2) block(256)/blocks_per_sm(3) block(128)/' \
        -e "s/@fused_$k(/@fused_${k}_r4(/" "$root/examples/fused_$k.mlir"
  } > "$dir/fused_${k}_r4.mlir"
done
