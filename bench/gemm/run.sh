#!/usr/bin/env bash
# The Hopper GEMMs of bench/gemm (written by make_gemm.py, listed with their
# arguments in variants.txt) and the TMA GEMM of examples/ against cuBLAS:
#
#   bench/gemm/run.sh generate [DIR]     rewrite bench/gemm/*.mlir from variants.txt
#       (or write them into DIR)
#   bench/gemm/run.sh prepare            (here: needs the build) compile each
#       kernel to a verified bundle $WORK/NAME (rake-bundle with the trusted
#       disassembly store) and record its launch shape in $WORK/kernels.txt;
#       the kernels are the example, the same kernel derived by its schedule
#       (examples/schedules/, as gemm_sm90a_tma_derived) and the variants;
#       ONLY=REGEX keeps the kernels whose name matches
#   bench/gemm/run.sh record DIR         (on the GPU machine) nvdisasm -json of
#       each bundle's cubin into DIR/<sha256 of the cubin>.json, for the store
#       (test/Verifier/Inputs/disasm) when a kernel is new
#   bench/gemm/run.sh sanitize NAME...   (on the GPU machine) each kernel at a
#       small size (two tiles of each dimension, three slices of K) under
#       compute-sanitizer's memcheck, racecheck and synccheck
#   bench/gemm/run.sh run [MxNxK...]     (on the GPU machine: CUDA, PyTorch)
#       build the launcher (the C runtime: each kernel runs from its verified
#       bundle) and run bench.py: each kernel and cuBLAS on the same inputs
#
# $WORK defaults to gpu-work/gemm. Ratios, not times, compare across machines.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/bench/gemm
work=${WORK:-$root/gpu-work/gemm}
bin=${RAKE_BIN:-$root/build/bin}
store=${RAKE_DISASM_DIR:-$root/test/Verifier/Inputs/disasm}
variants() { grep -v '^#' "$here/variants.txt"; }
case "${1:-}" in
generate)
  dir=${2:-$here}
  mkdir -p "$dir"
  variants | while read -r name args; do
    # shellcheck disable=SC2086
    python3 "$here/make_gemm.py" "$name" $args > "$dir/$name.mlir"
  done
  ;;
prepare)
  mkdir -p "$work"
  : > "$work/kernels.txt"
  # The example's kernel derived from the sequential GEMM by its schedule.
  "$bin/rake-opt" "$root/examples/schedules/gemm_sm90a_tma_seq.mlir" \
    --transform-preload-library=transform-library-paths="$root/examples/schedules/gemm_sm90a_tma.schedule.mlir" \
    --transform-interpreter | sed 's/@gemm_sm90a_tma(/@gemm_sm90a_tma_derived(/' > "$work/gemm_sm90a_tma_derived.mlir"
  # NAME FILE BM BN G T OUT IN: the example first (its own parameters Mt Nt Kt).
  { echo "gemm_sm90a_tma $root/examples/gemm_sm90a_tma.mlir 256 128 0 1 f32 bf16"
    echo "gemm_sm90a_tma_derived $work/gemm_sm90a_tma_derived.mlir 256 128 0 1 f32 bf16"
    variants | while read -r name args; do
      # Split-K pairs have a bench of their own (splitk.py).
      case "$args" in *--split*) continue ;; esac
      tile=$(sed -E 's/.*--tile ([0-9]+)x([0-9]+).*/\1 \2/' <<< "$args")
      g=$(sed -nE 's/.*--group ([0-9]+).*/\1/p' <<< "$args"); t=$(sed -nE 's/.*--tiles ([0-9]+).*/\1/p' <<< "$args")
      out=$(sed -nE 's/.*--out ([a-z0-9]+).*/\1/p' <<< "$args")
      in=$(sed -nE 's/.*--in ([a-z0-9]+).*/\1/p' <<< "$args")
      # A cluster's task is one tile a CTA, down M: BM rows times the cluster.
      c=$(sed -nE 's/.*--cluster ([0-9]+).*/\1/p' <<< "$args")
      read -r bm bn <<< "$tile"
      # A ping-pong task is 2 T tiles side by side in N (one row of tiles).
      case "$args" in *"--schedule pingpong"*) bn=$((bn * 2 * ${t:-1})); t=1 ;; esac
      echo "$name $here/$name.mlir $((bm * ${c:-1})) $bn ${g:-0} ${t:-1} ${out:-f32} ${in:-bf16}"
    done; } | grep -E "^(${ONLY:-.*}) " | while read -r name file bm bn g t out in; do
    if ! "$bin/rake-bundle" "$file" -o "$work/$name" --disasm-dir="$store" > "$work/$name.log" 2>&1; then
      cat "$work/$name.log" >&2
      echo "run.sh: $file: the bundle is not verified (a new cubin: 'run.sh record' on the GPU machine, then add the recordings to $store)" >&2
      continue
    fi
    rows=$((bm * t * (g > 0 ? g : 1)))
    ctype=$out
    kb=$([ "$in" = tf32 ] && echo 32 || echo 64)
    "$bin/rake-run" --seq "$file" --sizes="$(grep -oE '%[A-Za-z]+: index' "$file" | head -3 | sed -E 's/%([A-Za-z]+).*/\1=1/' | paste -sd,)" \
      --shape="A=${rows}x$kb,Bt=${bn}x$kb,C=${rows}x$bn" --launch-args="$work/$name.args" > /dev/null
    launch=$(sed -E 's/^[a-z0-9_]+ (--block [0-9]+ --blocks-per-sm [0-9]+ --smem [0-9]+).*/\1/' "$work/$name.args")
    launch="$launch$(grep -o ' t:[^ ]*' "$work/$name.args" | tr -d '\n' || true)"
    echo "$name $bm $bn $g $t $ctype $in $launch" >> "$work/kernels.txt"
  done
  cat "$work/kernels.txt"
  ;;
record)
  dir=${2:?usage: run.sh record DIR}
  mkdir -p "$dir"
  nvdisasm=$(command -v nvdisasm || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvdisasm")
  for cubin in "$work"/*/kernel.cubin; do
    sha=$(sha256sum "$cubin" | cut -d' ' -f1)
    "$nvdisasm" -json "$cubin" > "$dir/$sha.json"
  done
  ls "$dir"
  ;;
sanitize)
  shift
  [ -x "$work/rake-launch" ] || "$root/scripts/build-launcher.sh" "$work/rake-launch"
  sanitizer=$(command -v compute-sanitizer || echo "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer")
  status=0
  for name in "$@"; do
    if ! read -r _ bm bn g t out in launch < <(grep "^$name " "$work/kernels.txt"); then
      echo "run.sh: $name is not in $work/kernels.txt (not prepared, or its bundle was not verified)" >&2
      status=1; continue
    fi
    rows=$((bm * t * (g > 0 ? g : 1))); m=$((2 * rows)); n=$((2 * bn)); k=192
    kb=$([ "$in" = tf32 ] && echo 32 || echo 64); k=$((3 * kb))
    et=$([ "$in" = tf32 ] && echo f32 || echo bf16)
    python3 - "$work" "$m" "$k" "$n" "$et" <<'PY'
import array, random, struct, sys
work, m, k, n, et = sys.argv[1], *map(int, sys.argv[2:5]), sys.argv[5]
random.seed(0)
for name, count in (("A", m * k), ("Bt", n * k)):
    if et == "f32":
        data = array.array("f", (random.gauss(0, 1) for _ in range(count)))
    else:  # bf16: the high half of each f32.
        data = array.array("H", (struct.unpack("<I", struct.pack("<f", random.gauss(0, 1)))[0] >> 16
                                 for _ in range(count)))
    data.tofile(open(f"{work}/san_{name}.bin", "wb"))
PY
    params=(i:2 i:2 i:3 "m:$et:${m}x$k:$work/san_A.bin:-" "m:$et:${n}x$k:$work/san_Bt.bin:-" "m:$out:${m}x$n:-:-")
    # shellcheck disable=SC2086
    flags=$(tr ' ' '\n' <<< "$launch" | grep -v '^t:' | paste -sd' '); maps=$(tr ' ' '\n' <<< "$launch" | grep '^t:' | paste -sd' ')
    for tool in memcheck racecheck synccheck; do
      # shellcheck disable=SC2086
      if "$sanitizer" --tool $tool --error-exitcode 9 "$work/rake-launch" "$work/$name" "$name" $flags "${params[@]}" $maps > "$work/san_$name.$tool.log" 2>&1; then
        echo "$name $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/san_$name.$tool.log" | tail -1)"
      else
        echo "$name $tool: FAILED"; tail -20 "$work/san_$name.$tool.log"; status=1
      fi
    done
  done
  exit $status
  ;;
run)
  shift
  "$root/scripts/build-launcher.sh" "$work/rake-launch"
  python3 "$here/bench.py" "$work/rake-launch" "$work" "$@"
  ;;
*)
  echo "usage: run.sh generate | prepare | record DIR | sanitize NAME... | run [MxNxK...]" >&2; exit 2 ;;
esac
