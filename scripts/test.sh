#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs every test: the lit suite under test/.
# GPU tests run only where a CUDA device answers and are reported as
# unsupported elsewhere; the sync check's tests run a second time with each
# check compared against the check without its symmetry reduction. Ends with one summary line: "N passed, N failed".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/rake-gpu-ccache}
export CCACHE_BASEDIR=$root
export CCACHE_NOHASHDIR=1

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cmake --build "$build" --target check-rake 2>&1 | tee "$log" || status=$?
# Then the sync check's tests with every check compared against the check
# without its symmetry reduction (the summary line counts the first run).
cmake --build "$build" --target check-rake-symmetry 2>&1 | tail -n 4 || status=$?
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | tail -n 1; }
passed=$(count Passed); failed=$(count Failed); unsupported=$(count Unsupported)
xfailed=$(count "Expectedly Failed")
passed=$(( ${passed:-0} + ${xfailed:-0} ))
failed=${failed:-0}
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "lit: $passed passed, $failed failed, ${unsupported:-0} skipped"
exit "$status"
