// The corrected twins of the kernels the synchronization check now rejects
// (phase run-ahead, arrive counts, arrivals into an unfinished phase, named
// barriers of several group sizes) and the constructs code generation now
// lowers (a shared buffer inside gpuir.if, a one-iteration warpgroup loop,
// nested staging tiles), on the GPU against their sequential meaning. Needs a
// CUDA device: skipped (UNSUPPORTED) elsewhere, including CI; the check of
// each runs in CI (test/SyncCheck/gpu-twins.mlir).
// REQUIRES: gpu
// RUN: rm -rf %t
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/ring %rake_src/test/GPU/Inputs/ring_full_per_slot.mlir --sizes=rows=100,K=9
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/count %rake_src/test/GPU/Inputs/all_arrive.mlir --sizes=rows=100,K=7
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/ack %rake_src/test/GPU/Inputs/arrive_after_ack.mlir --sizes=rows=100,K=7
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/named %rake_src/test/GPU/Inputs/halves_and_whole.mlir --sizes=rows=300
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/ifalloc %rake_src/test/GPU/Inputs/if_alloc.mlir --sizes=n=50 --shape=A=6400
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/onewg %rake_src/test/GPU/Inputs/one_warpgroup.mlir --sizes=n=50 --shape=A=6400
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/stage %rake_src/test/GPU/Inputs/staging_tile.mlir --sizes=n=500
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/wstage %rake_src/test/GPU/Inputs/warps_tile.mlir --sizes=n=500
// RUN: %rake_src/scripts/gpu-run.sh run %t/ring %t/count %t/ack %t/named %t/ifalloc %t/onewg %t/stage %t/wstage | FileCheck %s
// CHECK-DAG: full_per_slot: Y.bin equals the sequential meaning
// CHECK-DAG: all_arrive: Y.bin equals the sequential meaning
// CHECK-DAG: arrive_after_ack: Y.bin equals the sequential meaning
// CHECK-DAG: halves_and_whole: Y.bin equals the sequential meaning
// CHECK-DAG: if_alloc: A.bin equals the sequential meaning
// CHECK-DAG: one_warpgroup: A.bin equals the sequential meaning
// CHECK-DAG: staging_tile: A.bin equals the sequential meaning
// CHECK-DAG: warps_tile: A.bin equals the sequential meaning
// CHECK-NOT: differ from the sequential meaning
