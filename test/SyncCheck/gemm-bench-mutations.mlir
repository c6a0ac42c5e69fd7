// The fastest GEMMs of bench/gemm (docs/Performance.md) pass the check as
// written; each one-place mutation below (modeled on the authors'
// test_sync_error_Sm90a_gemm.py) is rejected with its hazard, naming both
// accesses and the size set.
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x256_g8_bf16.mlir --rake-check > /dev/null
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x256_t2g4_bf16.mlir --rake-check > /dev/null

// Wrong split of the tiles: the tasks of a group all write the group's
// first tile of C (the row offset of the task's tile dropped).
// RUN: sed 's/%%C\[%%mg \* 1024 + %%mi \* 128 + %%wm/%%C[%%mg * 1024 + %%wm/' %rake_src/bench/gemm/gemm_128x256_g8_bf16.mlir > %t.split.mlir
// RUN: not rake-opt %t.split.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: error: WAW hazard: thread 128 of task 1 write C[0, 0] on cuda_in_order_ram, written by threads 128..383 of task 0 on cuda_in_order_ram without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// Wrong wgmma commit group: waiting for all but the newest two groups, the
// consumers release a stage that wgmma may still read.
// RUN: sed 's/outstanding(1)/outstanding(2)/' %rake_src/bench/gemm/gemm_128x256_g8_bf16.mlir > %t.group.mlir
// RUN: not rake-opt %t.group.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: error: WAR hazard: thread 0 of task 0 write As[0, 0:128, 0:64] on tma_to_smem_async, read by threads 128..255 of task 0 on wgmma_async_smem without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// Missing RAW await: the consumers multiply a stage TMA may still fill.
// RUN: grep -v "gpuir.await %%full" %rake_src/bench/gemm/gemm_128x256_g8_bf16.mlir > %t.raw.mlir
// RUN: not rake-opt %t.raw.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=RAW
// RAW: error: RAW hazard: threads 128..255 of task 0 read As[0, 0:64, 0:16] on wgmma_async_smem, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// Awaiting the stage for in-order accesses only: the TMA writes are not
// ordered before wgmma's reads through the async proxy.
// RUN: sed 's/gpuir.await %%full\[%%k mod 4\], wgmma_async/gpuir.await %%full[%%k mod 4], cuda_in_order/' %rake_src/bench/gemm/gemm_128x256_g8_bf16.mlir > %t.proxy.mlir
// RUN: not rake-opt %t.proxy.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=PROXY
// PROXY: error: RAW hazard: threads 128..255 of task 0 read As[0, 0:64, 0:16] on wgmma_async_smem, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// Missing WAR await: the producer refills a stage without waiting for its
// release.
// RUN: grep -v "gpuir.await %%empty" %rake_src/bench/gemm/gemm_128x256_g8_bf16.mlir > %t.war.mlir
// RUN: not rake-opt %t.war.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=WAR
// WAR: error: WAW hazard: thread 0 of task 0 write As[0, 0:128, 0:64] on tma_to_smem_async, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// Missing WAR arrive: no release in the K loop, so the producer's wait for
// the fifth slice's stage never completes.
// RUN: grep -v "gpuir.arrive cuda_in_order >> %%empty\[(%%k + 3) mod 4\]" %rake_src/bench/gemm/gemm_128x256_g8_bf16.mlir > %t.arrive.mlir
// RUN: not rake-opt %t.arrive.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=ARRIVE
// ARRIVE: error: await without matching arrive: thread 0 of task 0 await phase 0 of empty, but only 0 arrives happened on it before (at Mg = 1, Nt = 2, Kt = 7)

// Missing final WAR arrive: the last slice's stage is never released, and
// its mbarrier's phases carry over to the CTA's next task unbalanced; in a
// task of two tiles the producer of the second tile waits for it forever.
// RUN: grep -v "gpuir.arrive cuda_in_order >> %%empty\[(%%Kt + 3) mod 4\]" %rake_src/bench/gemm/gemm_128x256_g8_bf16.mlir > %t.final.mlir
// RUN: not rake-opt %t.final.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=FINAL
// FINAL: error: unbalanced mbarrier: element 2 of empty completes 1 phases in its lifetime, but a collective awaits it 2 times; its phases carry over to the CTA's next task, so each awaiter must await as many phases as are completed (at Mg = 1, Nt = 2, Kt = 7)
// RUN: grep -v "gpuir.arrive cuda_in_order >> %%empty\[(%%Kt + 3) mod 4\]" %rake_src/bench/gemm/gemm_128x256_t2g4_bf16.mlir > %t.final2.mlir
// RUN: not rake-opt %t.final2.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=FINAL2
// FINAL2: error: await without matching arrive: thread 0 of task 0 await phase 1 of empty, but only 1 arrives happened on it before (at Mg = 1, Nt = 2, Kt = 7)

// No wait for the last wgmma group before the epilogue: the accumulators
// are read while wgmma may still write them (and, with two tiles a task,
// zeroed for the next tile).
// RUN: grep -v "outstanding(0)" %rake_src/bench/gemm/gemm_128x256_t2g4_bf16.mlir > %t.drain.mlir
// RUN: not rake-opt %t.drain.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=DRAIN
// DRAIN: error: RAW hazard: thread 128 of task 0 read D[0, 0, 0, 0] on cuda_in_order_rmem, written by threads 128..255 of task 0 on wgmma_async_rmem_d without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)
