// The ping-pong GEMM (bench/gemm/gemm_128x128p_g8_bf16, make_gemm.py
// --schedule pingpong: each consumer warpgroup owns whole tiles, the two
// take turns, each on a ring of its own) passes the check; each one-place
// mutation of its synchronization is rejected with the hazard it causes.
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x128p_g8_bf16.mlir --rake-check > /dev/null

// One ring for both warpgroups (tile j's slices at ring position j Kt + k,
// bench/gemm/gemm_128x128q6_g8_bf16): each warpgroup skips the phases of
// the other's tiles (gpuir.await ..., skip) and the two take turns (turn0,
// turn1). The kernel passes; each mutation of what makes the shared ring
// sound is rejected.
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x128q6_g8_bf16.mlir --rake-check > /dev/null
// Without the skips, warpgroup 1's count of the ring's phases is stale and
// its first wait passes on a phase long completed, before its slice arrived.
// RUN: grep -v ", skip :" %rake_src/bench/gemm/gemm_128x128q6_g8_bf16.mlir > %t.noskip.mlir
// RUN: not rake-opt %t.noskip.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=NOSKIP
// NOSKIP: error: RAW hazard: threads 256..383 of task 0 read As0[1, 0:64, 0:16] on wgmma_async_smem, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)
// Without the turns, a warpgroup's first await after its skips may see the
// skipped phase still in progress, whose parity lets the wait pass at once.
// RUN: grep -v "gpuir.await %%turn" %rake_src/bench/gemm/gemm_128x128q6_g8_bf16.mlir > %t.noturn.mlir
// RUN: not rake-opt %t.noturn.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=NOTURN
// NOTURN: error: await after a skipped phase that may be in progress: threads 256..383 of task 0 await phase 1 of full0[1] after skipping phase 0, but nothing orders the await after phase 0 completes; the wait sees only the parity of the current phase, so while phase 0 is in progress it passes at once: synchronize with the threads that await phase 0 before this await (at Mg = 1, Nt = 2, Kt = 7)
// Warpgroup 0 not skipping the task's last tile: its count carries into
// the CTA's next task one phase short.
// RUN: grep -v "(%%Kt \* 3 + %%k) mod 6\], wgmma_async, skip" %rake_src/bench/gemm/gemm_128x128q6_g8_bf16.mlir > %t.lastskip.mlir
// RUN: not rake-opt %t.lastskip.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=LASTSKIP
// LASTSKIP: error: unbalanced mbarrier: element 0 of full0 completes 5 phases in its lifetime, but a collective awaits it 4 times; its phases carry over to the CTA's next task, so each awaiter must await as many phases as are completed (at Mg = 1, Nt = 2, Kt = 7)
// Warpgroup 1 awaiting its own turn barrier instead of warpgroup 0's: a hang.
// RUN: sed 's/gpuir.await %%turn0\[0\], cuda_in_order/gpuir.await %%turn1[0], cuda_in_order/' %rake_src/bench/gemm/gemm_128x128q6_g8_bf16.mlir > %t.ownturn.mlir
// RUN: not rake-opt %t.ownturn.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=OWNTURN
// OWNTURN: error: await without matching arrive: threads 256..383 of task 0 await phase 0 of turn1, but only 0 arrives happened on it before (at Mg = 1, Nt = 2, Kt = 7)

// Warpgroup 1 waiting on warpgroup 0's ring for its first tile.
// RUN: sed 's/gpuir.await %%full1\[(%%Kt \* 1 + %%k) mod 3\], wgmma_async/gpuir.await %%full0[(%%Kt * 1 + %%k) mod 3], wgmma_async/' %rake_src/bench/gemm/gemm_128x128p_g8_bf16.mlir > %t.cross.mlir
// RUN: not rake-opt %t.cross.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=CROSS
// CROSS: error: mbarrier phase run-ahead: phase 1 of full0[1] can complete before threads 256..383 of task 0 await phase 0: the wait sees only the parity of the current phase, so it would miss phase 0 and wait for a later one; order an arrive of phase 1 after this await (at Mg = 1, Nt = 2, Kt = 7)

// The wrong commit group: waiting with two groups outstanding, a warpgroup
// releases a stage its previous slice's products may still read.
// RUN: sed 's/outstanding(1) : !gpuir.barrier<wgmma_group>/outstanding(2) : !gpuir.barrier<wgmma_group>/' %rake_src/bench/gemm/gemm_128x128p_g8_bf16.mlir > %t.group.mlir
// RUN: not rake-opt %t.group.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: error: WAR hazard: thread 0 of task 0 write As0[0, 0:128, 0:64] on tma_to_smem_async, read by threads 128..255 of task 0 on wgmma_async_smem without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// The commit after the wait (the arrive and the await reordered): the wait
// for all but the newest group leaves the previous slice's products
// running when its stage is released.
// RUN: sed -e '/gpuir.arrive wgmma_async >> %%mma/{h;d}' -e '/outstanding(1) : !gpuir.barrier<wgmma_group>/G' %rake_src/bench/gemm/gemm_128x128p_g8_bf16.mlir > %t.order.mlir
// RUN: not rake-opt %t.order.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: error: WAR hazard: thread 0 of task 0 write As0[0, 0:128, 0:64] on tma_to_smem_async, read by threads 128..255 of task 0 on wgmma_async_smem without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// The epilogue reading the accumulators with a group outstanding.
// RUN: sed 's/outstanding(0) : !gpuir.barrier<wgmma_group>/outstanding(1) : !gpuir.barrier<wgmma_group>/' %rake_src/bench/gemm/gemm_128x128p_g8_bf16.mlir > %t.epilogue.mlir
// RUN: not rake-opt %t.epilogue.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=EPILOGUE
// EPILOGUE: error: RAW hazard: thread 128 of task 0 read D[0, 0, 0] on cuda_in_order_rmem, written by threads 128..255 of task 0 on wgmma_async_rmem_d without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// The final release of warpgroup 1's last tile missing: the CTA's next
// task would wait for a phase that never completes (a hang).
// RUN: grep -v "gpuir.arrive cuda_in_order >> %%empty1\[(%%Kt \* 2 + 2) mod 3\]" %rake_src/bench/gemm/gemm_128x128p_g8_bf16.mlir > %t.final.mlir
// RUN: not rake-opt %t.final.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=FINAL
// FINAL: error: unbalanced mbarrier: element 1 of empty1 completes 4 phases in its lifetime, but a collective awaits it 5 times; its phases carry over to the CTA's next task, so each awaiter must await as many phases as are completed (at Mg = 1, Nt = 2, Kt = 7)
