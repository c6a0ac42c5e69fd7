// The check rejects the four-stage Sm80 GEMM (bench/gemm_examples) when its
// pipeline is made wrong, and accepts it as written.
// RUN: rake-opt %rake_src/bench/gemm_examples/gemm_sm80_4stage.mlir --rake-check > /dev/null

// Waiting with three groups outstanding lets slice k still be in flight.
// RUN: sed 's/outstanding(2)/outstanding(3)/' %rake_src/bench/gemm_examples/gemm_sm80_4stage.mlir > %t.wait.mlir
// RUN: not rake-opt %t.wait.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=WAIT
// WAIT: error: RAW hazard: threads 0..31 of task 0 read As[0, 0:16, 0:16] on cuda_in_order_ram, written by thread 0 of task 0 on Sm80_cp_async without synchronization that orders it before

// Refilling the stage of slice k (k + 4 mod 4) instead of slice k - 1's
// overwrites the slice being multiplied.
// RUN: sed 's/gpuir.if %k + 3 < %Kt {/gpuir.if %k + 4 < %Kt {/; s/(%k + 3) mod 4/(%k + 4) mod 4/g; s/(%k + 3) \* 32/(%k + 4) * 32/g' %rake_src/bench/gemm_examples/gemm_sm80_4stage.mlir > %t.stage.mlir
// RUN: not rake-opt %t.stage.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=STAGE
// STAGE: error: RAW hazard: threads 0..31 of task 0 read As[0, 0:16, 0:16] on cuda_in_order_ram, written by thread 0 of task 0 on Sm80_cp_async without synchronization that orders it before

// Without the CTA fence, warps read slices other threads copied.
// RUN: grep -v "gpuir.fence cuda_in_order -> cuda_in_order" %rake_src/bench/gemm_examples/gemm_sm80_4stage.mlir > %t.fence.mlir
// RUN: not rake-opt %t.fence.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=FENCE
// FENCE: error: RAW hazard: threads 0..31 of task 0 read As[0, 0:16, 0:16] on cuda_in_order_ram, written by thread {{[0-9]+}} of task 0 on Sm80_cp_async without synchronization that orders it before

// Prefetching A into stage (k + 1) mod 3 of a two-stage ring: the cp.async
// writes past As, into the shared memory placed after it.
// RUN: sed '0,/%As\[(%k + 1) mod 2/s//%As[(%k + 1) mod 3/' %examples/gemm_sm80.mlir > %t.oob.mlir
// RUN: not rake-opt %t.oob.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=OOB
// OOB: error: out-of-bounds access: thread 0 of task 0 write As[2, 0, 0:8], but index 2 of dimension 0 is outside its extent 2

// Without its commit (the arrive on the cp.async group), the prologue's
// copies are never waited for: the note points at the copy that needs the
// arrive, not at the await that could not see it.
// RUN: grep -v "gpuir.arrive Sm80_cp_async" %examples/gemm_sm80.mlir > %t.commit.mlir
// RUN: not rake-opt %t.commit.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=COMMIT
// COMMIT: error: RAW hazard: threads 0..31 of task 0 read As[0, 0:16, 0:16] on cuda_in_order_ram, written by thread 0 of task 0 on Sm80_cp_async without synchronization that orders it before (at Mt = 2, Nt = 2, Kt = 3)
// COMMIT: note: the earlier write of As[0, 0, 0:8]
// COMMIT: note: the asynchronous access on Sm80_cp_async is never waited for: no arrive or fence on Sm80_cp_async after it captures it (commit it with gpuir.arrive Sm80_cp_async >> a barrier or commit group, then await that)
