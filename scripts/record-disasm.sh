#!/usr/bin/env bash
# Records the disassembly of bundles' cubins for the verifier's trusted
# store, on a machine with the CUDA toolkit's nvdisasm (no MLIR or Rake build
# needed: the GPU machine will do):
#   scripts/record-disasm.sh STORE BUNDLE...
# writes STORE/<cubin-sha256>.json (nvdisasm -json of BUNDLE/kernel.cubin)
# for each bundle. Bring STORE back to the build machine and make the bundle
# again with --disasm-dir=STORE (rake-bundle), or pass it to rake-verify.
# Keep the store where only you write: a recording is trusted evidence.
set -euo pipefail
usage="usage: record-disasm.sh STORE BUNDLE..."
store=${1:?$usage}
shift
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
nvdisasm=$(command -v nvdisasm || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvdisasm")
if [ ! -x "$nvdisasm" ]; then
  echo "record-disasm.sh: nvdisasm not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin): run this where the CUDA toolkit is installed" >&2
  exit 1
fi
mkdir -p "$store"
for bundle in "$@"; do
  cubin="$bundle/kernel.cubin"
  [ -f "$cubin" ] || cubin="$bundle"
  sha=$(sha256sum "$cubin" | cut -c1-64)
  "$nvdisasm" -json "$cubin" > "$store/$sha.json.tmp"
  mv "$store/$sha.json.tmp" "$store/$sha.json"
  echo "$store/$sha.json"
done
