#!/usr/bin/env bash
# Times the synchronization check of a tiled GEMM-shaped kernel against the
# problem size, and prints the time per million multiply-adds of the problem
# (M*N*K) so that growth can be read off: a constant column means time grows
# linearly in M*N*K, a falling one less than linearly.
#
#   bench/sync_check/run.sh [sizes...]      default: 512 1024 2048 4096 8192
#
# Each size runs under a time limit (LIMIT seconds, default 120) and prints
# "over limit" past it. KERNEL=tma times examples/gemm_sm90a_tma.mlir (the
# Hopper GEMM with real instructions: 512 threads per task, per-thread
# accumulators and epilogue) instead of the GEMM shape of
# bench/sync_check/gemm.mlir (a producer thread and placeholder instructions).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
opt=${RAKE_OPT:-$root/build/bin/rake-opt}
limit=${LIMIT:-120}
sizes=${*:-512 1024 2048 4096 8192}
printf "%8s %12s %12s %14s %12s\n" size "M*N*K" "seconds" "s per 1e9 MNK" "max RSS MB"
for s in $sizes; do
  if [ "${KERNEL:-}" = tma ]; then
    kernel=$root/examples/gemm_sm90a_tma.mlir
    check="sizes=Mt=$((s / 256)),Nt=$((s / 128)),Kt=$((s / 64))"
  else
    kernel=$root/bench/sync_check/gemm.mlir
    check="sizes=M=$s,N=$s,K=$s"
  fi
  out=$( { /usr/bin/time -f "%e %M" timeout "$limit" "$opt" "$kernel" \
      --rake-sync-check="$check" -o /dev/null; } 2>&1 | tail -n 1)
  mnk=$((s * s * s))
  set -- $out
  if [ "$#" -ne 2 ] || ! [[ "$1" =~ ^[0-9.]+$ ]]; then
    printf "%8s %12s %12s\n" "$s" "$mnk" "over limit"
    continue
  fi
  per=$(awk -v t="$1" -v m="$mnk" 'BEGIN { printf "%.3f", t / (m / 1e9) }')
  printf "%8s %12s %12s %14s %12s\n" "$s" "$mnk" "$1" "$per" "$(( $2 / 1024 ))"
done
