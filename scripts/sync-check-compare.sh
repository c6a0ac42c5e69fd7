#!/usr/bin/env bash
# Deletes each synchronization statement (gpuir.fence, arrive, await) of a
# kernel in turn and runs the synchronization check of each mutant with
# and without the symmetry reduction (RAKE_SYNC_CHECK_COMPARE=1, which
# aborts on any difference in verdict or report), at each size set given:
#
#   scripts/sync-check-compare.sh examples/gemm_sm90a_tma.mlir "Mt=3,Nt=2,Kt=5" "Mt=2,Nt=3,Kt=1"
#
# Prints one line per difference and a summary; exits 1 if any.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
opt=${RAKE_OPT:-$root/build/bin/rake-opt}
kernel=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=0 bad=0
for line in $(grep -n "gpuir.fence\|gpuir.arrive\|gpuir.await" "$kernel" | cut -d: -f1); do
  sed "${line}d" "$kernel" > "$tmp/mutant.mlir"
  for sizes in "$@"; do
    runs=$((runs + 1))
    out=$(RAKE_SYNC_CHECK_COMPARE=1 "$opt" "$tmp/mutant.mlir" \
      --rake-sync-check="sizes=$sizes" -o /dev/null 2>&1)
    if grep -q "symmetry reduction changed\|LLVM ERROR" <<< "$out"; then
      bad=$((bad + 1))
      echo "difference: line $line deleted, sizes $sizes"
    fi
  done
done
echo "$kernel: $runs mutants checked both ways, $bad differences"
[ "$bad" -eq 0 ]
