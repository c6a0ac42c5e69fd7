#!/usr/bin/env bash
# Times the synchronization check of GEMM kernels against the problem size,
# with the symmetry reduction (the default) and without it (every task
# interpreted), and prints seconds and peak memory of each in one run:
#
#   bench/sync_check/run.sh [sizes...]      default: 1024 4096 8192
#
# Kernels (KERNELS="tma ws fast c2 cluster shape" by default):
#   tma      examples/gemm_sm90a_tma.mlir: the Hopper TMA GEMM with real
#            instructions (512 threads per task, per-thread accumulators
#            and epilogue), 256x128 tiles
#   ws       bench/gemm_examples/gemm_sm90a_ws2.mlir: its warp-specialized
#            version (a producer warpgroup, two consumers, empty and full
#            mbarriers, no CTA barrier in the K loop)
#   fast     bench/gemm/gemm_128x256_g8s_bf16.mlir: the fastest Rake GEMM (the flagship)
#            (docs/Performance.md): warp-specialized, 128x256 tiles of
#            wgmma.m64n256k16, tasks in groups of 8 down M, bf16 out
#   c2       bench/gemm/gemm_128x256_g4c2_bf16.mlir: the warp-specialized
#            cluster GEMM with real instructions (clusters of two CTAs,
#            each 128x256 tiles, half of B multicast by each CTA into both,
#            remote releases, a cluster barrier after the epilogue)
#   cluster  the correct kernel of test/SyncCheck/gemm-cluster-mutations.mlir:
#            a warp-specialized GEMM shape on clusters of two CTAs with a TMA
#            multicast of B and a cluster barrier after the epilogue
#   shape    bench/sync_check/gemm.mlir: a GEMM shape with a producer thread
#            and placeholder instructions
#
# Each check runs under a time limit (LIMIT seconds, default 120) and prints
# "over limit" past it; "ratio" is the time without the reduction over the
# time with it.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
opt=${RAKE_OPT:-$root/build/bin/rake-opt}
limit=${LIMIT:-120}
sizes=${*:-1024 4096 8192}
kernels=${KERNELS:-tma ws fast c2 cluster shape}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The first kernel of the cluster mutation tests (before the first mutation).
sed '/^\/\/ -----/q' "$root/test/SyncCheck/gemm-cluster-mutations.mlir" \
  | grep -v '^// -----' > "$tmp/cluster.mlir"

# Prints "seconds MB" of one check, or "over limit".
timed() {
  local kernel=$1 check=$2 out
  out=$( { /usr/bin/time -f "%e %M %x" timeout "$limit" "$opt" "$kernel" \
      --rake-sync-check="$check" -o /dev/null; } 2>&1 | tail -n 1)
  set -- $out
  if [ "$#" -ne 3 ] || ! [[ "$1" =~ ^[0-9.]+$ ]] || [ "$3" = 124 ]; then
    echo "over limit"
  else
    echo "$1 $(( $2 / 1024 ))"
  fi
}

printf "%-8s %6s %7s | %10s %8s | %10s %8s | %7s\n" kernel size tasks \
  "reduced s" "MB" "full s" "MB" ratio
for k in $kernels; do
  for s in $sizes; do
    case $k in
      tma) kernel=$root/examples/gemm_sm90a_tma.mlir
           check="sizes=Mt=$((s / 256)),Nt=$((s / 128)),Kt=$((s / 64))"
           tasks=$(( (s / 256) * (s / 128) )) ;;
      ws) kernel=$root/bench/gemm_examples/gemm_sm90a_ws2.mlir
          check="sizes=Mt=$((s / 256)),Nt=$((s / 128)),Kt=$((s / 64))"
          tasks=$(( (s / 256) * (s / 128) )) ;;
      fast) kernel=$root/bench/gemm/gemm_128x256_g8s_bf16.mlir
            check="sizes=Mg=$((s / 1024)),Nt=$((s / 256)),Kt=$((s / 64))"
            tasks=$(( (s / 128) * (s / 256) )) ;;
      c2) kernel=$root/bench/gemm/gemm_128x256_g4c2_bf16.mlir
          check="sizes=Mg=$((s / 1024)),Nt=$((s / 256)),Kt=$((s / 64))"
          tasks=$(( (s / 256) * (s / 256) )) ;;
      cluster) kernel=$tmp/cluster.mlir
               check="sizes=M=$s,N=$s,K=$s"
               tasks=$(( (s / 256) * (s / 64) )) ;;
      shape) kernel=$root/bench/sync_check/gemm.mlir
             check="sizes=M=$s,N=$s,K=$s"
             tasks=$(( (s / 128) * (s / 64) )) ;;
      *) echo "unknown kernel $k" >&2; exit 2 ;;
    esac
    reduced=$(timed "$kernel" "$check")
    full=$(timed "$kernel" "$check symmetry=false")
    set -- $reduced
    rs=$1 rm=${2:-}
    [ "$reduced" = "over limit" ] && rs="over" rm="limit"
    set -- $full
    fs=$1 fm=${2:-}
    [ "$full" = "over limit" ] && fs=">$limit" fm="-"
    ratio=$(awk -v a="$rs" -v b="$fs" 'BEGIN {
      if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && a > 0) printf "%.0f", b / a;
      else if (a ~ /^[0-9.]+$/ && a > 0) { sub(/>/, "", b); printf ">%.0f", b / a }
      else printf "-" }')
    printf "%-8s %6s %7s | %10s %8s | %10s %8s | %7s\n" "$k" "$s" "$tasks" \
      "$rs" "$rm" "$fs" "$fm" "$ratio"
  done
done
