#!/usr/bin/env bash
# The main job: set up, build, and take an example kernel through every stage
# of the compiler: parse and verify the GpuIR; collective and distributed
# memory analysis and the synchronization check (--rake-check); its
# sequential meaning on the host (rake-run --seq) on generated inputs,
# compared with a hand-written C++ reference (rake-example-ref); PTX and a
# cubin through the pinned ptxas, checked by the artifact verifier into a
# bundle (rake-bundle; verified where the example's disassembly is recorded
# or nvdisasm exists); and, where a GPU and the CUDA toolkit are present, a
# run on the GPU compared with the sequential meaning (scripts/gpu-run.sh).
#
#   scripts/run-example.sh                      # the flagship Hopper GEMM
#   scripts/run-example.sh examples/<kernel>.mlir
#
# The flagship (bench/gemm/gemm_128x256_g8s_bf16.mlir, the fastest GEMM of
# bench/gemm: docs/Performance.md) runs on the GPU from Python on torch
# tensors (examples/python/gemm_torch.py, against torch.matmul) where torch
# is installed; every other kernel, and the flagship without torch, through
# scripts/gpu-run.sh against its sequential meaning.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bin=$build/bin
example=${1:-$root/bench/gemm/gemm_128x256_g8s_bf16.mlir}
name=$(basename "$example" .mlir)
"$root/scripts/setup.sh" > /dev/null

# Per example: the sizes of the host run, of the GPU run, the reference's
# arguments (files relative to the run's output folder) and the tolerance.
case "$name" in
gemm_128x256_g8_bf16 | gemm_128x256_g8s_bf16)
  host="--sizes=Mg=1,Nt=1,Kt=2 --shape=A=1024x128,Bt=256x128,C=1024x256"
  gpu="--rtol=1e-2 --atol=1e-2 --sizes=Mg=2,Nt=2,Kt=8 --shape=A=2048x512,Bt=512x512,C=2048x512"
  ref="gemm_nt_bf16 A.bin Bt.bin C.bin 1024 256 128" ;;
gemm_sm80)
  host="--sizes=Mt=2,Nt=1,Kt=3 --shape=A=256x96,B=96x128,C=256x128"
  gpu="--rtol=1e-4 --atol=1e-4 --sizes=Mt=4,Nt=4,Kt=16 --shape=A=512x512,B=512x512,C=512x512"
  ref="gemm A.bin B.bin C.bin 256 128 96" ;;
reverse_tiles)
  host="--sizes=n=4096 --shape=A=4096,B=4096"
  gpu="--sizes=n=1048576 --shape=A=1048576,B=1048576"
  ref="reverse_tiles A.bin B.bin" ;;
block_sums)
  host="--sizes=rows=9 --shape=X=9,S=9"
  gpu="--sizes=rows=1000 --shape=X=1000,S=1000"
  ref="block_sums X.bin S.bin" ;;
ring_sums)
  host="--sizes=rows=3,K=7 --shape=X=3x7,Y=3"
  gpu="--sizes=rows=100,K=9 --shape=X=100x9,Y=100"
  ref="ring_sums X.bin Y.bin 7" ;;
*)
  host=""; gpu=""; ref="" ;;
esac

echo "== $name: parse, verify, collective and distributed memory analysis, synchronization check"
"$bin/rake-opt" "$example" --rake-check > /dev/null
echo "checked: no hazard at the sizes of gpuir.check_sizes"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== $name: sequential meaning on the host ($host)"
# shellcheck disable=SC2086
"$bin/rake-run" --seq "$example" $host --output-dir="$out/seq"
if [ -n "$ref" ]; then
  set -- $ref
  kind=$1; shift
  args=()
  for a in "$@"; do
    case "$a" in *.bin) args+=("$out/seq/$a") ;; *) args+=("$a") ;; esac
  done
  "$bin/rake-example-ref" "$kind" "${args[@]}"
fi

echo "== $name: PTX, cubin and the artifact verifier (rake-bundle)"
status=0
"$bin/rake-bundle" "$example" -o "$out/bundle" \
  --disasm-dir="$root/test/Verifier/Inputs/disasm" || status=$?
if [ "$status" -ne 0 ]; then
  echo "(not verified: no recorded disassembly of this cubin here and no nvdisasm;"
  echo " record it on the GPU machine as test/Verifier/Inputs/README.md says)"
fi

have_gpu() { command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; }
python=${RAKE_PYTHON:-python3}
if have_gpu && [ "$status" -eq 0 ] && [[ "$name" = gemm_128x256_g8*_bf16 ]] &&
   [ -d "$build/python/rake" ] && "$python" -c "import torch" 2> /dev/null; then
  echo "== $name: on the GPU from Python (rake.load, torch tensors), against torch.matmul"
  PYTHONPATH="$build/python" "$python" "$root/examples/python/gemm_torch.py" "$out/bundle" 8192x8192x8192
elif have_gpu && [ -n "$gpu" ]; then
  echo "== $name: on the GPU, against the sequential meaning"
  # shellcheck disable=SC2086
  "$root/scripts/gpu-run.sh" prepare "$out/gpu" "$example" $gpu > /dev/null
  "$root/scripts/gpu-run.sh" run "$out/gpu"
else
  echo "== no GPU here: the GPU run is skipped (scripts/gpu-run.sh runs it where one is)"
fi
