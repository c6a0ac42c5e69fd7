// A missing await: with the consumers' `gpuir.await %full[...]` deleted from
// the TMA GEMM, the race's note points at the copy, which completes on its
// trailing barrier, and says that the consumers never await its barrier (not at the wgmma
// fence that follows, which could not order the copy anyway).
// RUN: sed '/gpuir.await %full/d' %examples/gemm_sm90a_tma.mlir > %t.mlir
// RUN: not rake-opt %t.mlir --rake-check 2>&1 | FileCheck %s
// CHECK: error: RAW hazard: threads 0..127 of task 0 read As[0, 0:64, 0:16] on wgmma_async_smem, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before (at Mt = 2, Nt = 1, Kt = 7)
// CHECK: note: the earlier write of As[0, 0:256, 0:64]
// CHECK: :52:15: note: the earlier access completes on its trailing barrier full, but threads 0..127 of task 0 do not await full before this access: add a gpuir.await on it whose second timeline covers wgmma_async_smem
// CHECK-NOT: does not include tma_to_smem_async in its first timeline

// Where some threads await the barrier and others do not, or a commit group
// is awaited with too many outstanding, the other notes stay (cp-async.mlir,
// gemm-mutations.mlir).
