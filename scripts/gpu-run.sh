#!/usr/bin/env bash
# Runs an example kernel on the GPU and compares it with its sequential
# meaning, in two steps that may run on different machines:
#
#   scripts/gpu-run.sh prepare DIR KERNEL.mlir [--rtol=R] [--atol=A] RAKE-RUN-FLAGS...
#       (needs the build) compiles the kernel to a verified bundle DIR/bundle
#       (rake-bundle; the disassembly live where nvdisasm exists, else from
#       the trusted store test/Verifier/Inputs/disasm or $RAKE_DISASM_DIR),
#       runs its sequential meaning on generated inputs (DIR/in -> DIR/cpu),
#       and writes the launcher's arguments to DIR/args; --rtol/--atol set
#       the tolerance of floating-point outputs (default 0: bit-exact). A
#       kernel whose cubin has no trusted disassembly is not prepared: record
#       one (below) and prepare again.
#   scripts/gpu-run.sh run DIR...
#       (needs a GPU, the CUDA toolkit and libcrypto) builds rake-launch with
#       the C runtime (scripts/build-launcher.sh), runs each DIR's kernel
#       from its verified bundle on DIR/in (the runtime checks the bundle and
#       the launch), writes DIR/gpu, and compares every buffer with DIR/cpu
#       element by element, reporting the largest error
#   scripts/gpu-run.sh record DIR...
#       (on the GPU machine) writes nvdisasm -json of each DIR/bundle's cubin
#       to DIR/<cubin-sha256>.json, for the trusted store
#
#   scripts/gpu-run.sh prepare work/rev examples/reverse_tiles.mlir \
#       --sizes=n=1048576 --shape=A=1048576,B=1048576
#
# scripts/run-example.sh does both when a GPU is present.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bin=${RAKE_BIN:-$build/bin}
usage="usage: gpu-run.sh prepare DIR KERNEL.mlir FLAGS... | run DIR... | record DIR..."
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
  store=${RAKE_DISASM_DIR:-$root/test/Verifier/Inputs/disasm}
  if ! "$bin/rake-bundle" "$kernel" -o "$dir/bundle" --disasm-dir="$store" > "$dir/bundle.log" 2>&1; then
    cat "$dir/bundle.log" >&2
    echo "gpu-run.sh: $kernel: the bundle is not verified; if the disassembly is what is missing, run 'scripts/gpu-run.sh record $dir' on the GPU machine, add $dir/*.json to $store, and prepare again" >&2
    exit 1
  fi
  "$bin/rake-run" --seq "$kernel" "${flags[@]}" --save-inputs="$dir/in" \
    --output-dir="$dir/cpu" --launch-args="$dir/args"
  ;;
run)
  [ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
  launcher=$(mktemp -d)/rake-launch
  "$root/scripts/build-launcher.sh" "$launcher"
  status=0
  for dir in "$@"; do
    mkdir -p "$dir/gpu"
    read -r name rest < "$dir/args"
    tolerance=$(cat "$dir/tolerance" 2>/dev/null || true)
    # shellcheck disable=SC2086
    (cd "$dir" && "$launcher" bundle "$name" --expect cpu $tolerance $rest) \
      || status=1
  done
  exit $status
  ;;
record)
  [ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
  for dir in "$@"; do
    "$root/scripts/record-disasm.sh" "$dir" "$dir/bundle"
  done
  ;;
*)
  echo "$usage" >&2; exit 2 ;;
esac
