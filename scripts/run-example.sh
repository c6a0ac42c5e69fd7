#!/usr/bin/env bash
# The main job: set up, build, and take an example kernel through every stage
# of the compiler that exists today: parsing and verifying the GpuIR (every
# op's rules: scopes, memory types, units, timelines), then collective and
# distributed memory analysis and the synchronization check (rake-check),
# printing the annotated IR; then running its sequential meaning on the host
# (rake-run --seq) on generated inputs, and for reverse_tiles comparing the
# output with an independent reference; compiling it to PTX; and, where a
# GPU and the CUDA toolkit are present, running it and comparing with the
# sequential meaning (scripts/gpu-run.sh). The cubin verifier joins this
# script when it lands.
#
#   scripts/run-example.sh [examples/<kernel>.mlir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
example=${1:-$root/examples/reverse_tiles.mlir}
"$root/scripts/setup.sh" > /dev/null
echo "== $example: parse, verify, collective and distributed memory analysis"
"$build/bin/rake-opt" "$example" --rake-check
echo "== $example: checked"
if [ "$(basename "$example")" = reverse_tiles.mlir ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  echo "== $example: sequential meaning on the host, n = 4096"
  "$build/bin/rake-run" --seq "$example" --sizes=n=4096 --shape=A=4096,B=4096 \
    --output-dir="$out"
  python3 "$root/test/Tools/Inputs/check_reverse_tiles.py" "$out/A.bin" "$out/B.bin"
  echo "== $example: PTX for sm_90a (rake-translate --gpuir-to-ptx)"
  "$build/bin/rake-translate" --gpuir-to-ptx "$example" | grep -cE "bar.sync" \
    | xargs -I{} echo "{} bar.sync in the kernel (the CTA fence and the end of each task)"
  if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then
    echo "== $example: on the GPU, against the sequential meaning"
    "$root/scripts/gpu-run.sh" prepare "$out/gpu" "$example" --sizes=n=1048576 \
      --shape=A=1048576,B=1048576
    "$root/scripts/gpu-run.sh" run "$out/gpu"
  else
    echo "== no GPU here: the GPU run is skipped (scripts/gpu-run.sh runs it where one is)"
  fi
fi
