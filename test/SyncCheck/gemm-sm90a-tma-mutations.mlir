// The check accepts the TMA GEMM (examples/gemm_sm90a_tma.mlir) as written
// and rejects it when its pipeline is made wrong, naming both accesses.
// RUN: rake-opt %examples/gemm_sm90a_tma.mlir --rake-check > /dev/null

// Without the CTA fence, thread 0 refills a stage that the warpgroups may
// still read with wgmma (and over a copy of four slices before).
// RUN: grep -v "gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy" %examples/gemm_sm90a_tma.mlir > %t.fence.mlir
// RUN: not rake-opt %t.fence.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=FENCE
// FENCE: error: WAW hazard: thread 0 of task 0 write As[0, 0:256, 0:64] on tma_to_smem_async, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before

// Waiting on the stage's mbarrier for in-order accesses only does not
// order the TMA writes before wgmma's reads through the async proxy.
// RUN: sed 's/gpuir.await %full\[(%k + 2) mod 4\], wgmma_async/gpuir.await %full[(%k + 2) mod 4], cuda_in_order/' %examples/gemm_sm90a_tma.mlir > %t.proxy.mlir
// RUN: not rake-opt %t.proxy.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=PROXY
// PROXY: error: RAW hazard: threads 0..127 of task 0 read As[0, 0:64, 0:16] on wgmma_async_smem, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before

// With the B copy completing on the next stage's mbarrier, a stage's
// phase gets one copy's arrival where code generation counts two.
// RUN: sed 's/tma_load %%sb, %%gb >> %full\[%k mod 4\]/tma_load %%sb, %%gb >> %full[(%k + 1) mod 4]/' %examples/gemm_sm90a_tma.mlir > %t.arrive.mlir
// RUN: not rake-opt %t.arrive.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=ARRIVE
// ARRIVE: error: arrive count mismatch: phase 0 of full[0] gets 1 thread arrivals, but code generation initializes the mbarrier to complete a phase at 2 (the arrivals of the instructions completing on it in one loop body); a phase with fewer never completes, one with more completes early

// Leaving two groups of wgmma in flight: the stage refilled next may still
// be read.
// RUN: sed 's/outstanding(1)/outstanding(2)/' %examples/gemm_sm90a_tma.mlir > %t.mma.mlir
// RUN: not rake-opt %t.mma.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=MMA
// MMA: error: WAR hazard: thread 0 of task 0 write As[0, 0:256, 0:64] on tma_to_smem_async, read by threads 0..127 of task 0 on wgmma_async_smem without synchronization that orders it before

// The warp-specialized variant of the benchmark (a TMA producer warpgroup,
// four consumer warpgroups, full and empty mbarriers) passes the check;
// without the consumers' release, the producer's wait for a free stage
// (after the first four) never completes.
// RUN: rake-opt %rake_src/bench/gemm_examples/gemm_sm90a_ws.mlir --rake-check > /dev/null
// RUN: grep -v "gpuir.arrive cuda_in_order >> %empty" %rake_src/bench/gemm_examples/gemm_sm90a_ws.mlir > %t.ws.mlir
// RUN: not rake-opt %t.ws.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=WS
// WS: error: await without matching arrive: thread 0 of task 0 await phase 0 of empty, but only 0 arrives happened on it before

// The variants that release the previous slice's stage after waiting for all
// but the newest wgmma group (two arrive statements on the empty array: in
// the loop and after it), with four or two consumer warpgroups, pass too.
// Without the release after the loop, a stage's mbarrier completes fewer
// phases than the producer awaits: its phases carry over to the CTA's next
// task (code generation keeps mbarriers for the whole kernel), where the
// producer would wait forever.
// RUN: rake-opt %rake_src/bench/gemm_examples/gemm_sm90a_ws_lag.mlir --rake-check > /dev/null
// RUN: rake-opt %rake_src/bench/gemm_examples/gemm_sm90a_ws2.mlir --rake-check > /dev/null
// RUN: %python -c "import sys; s = open(sys.argv[1]).read(); i = s.index('          gpuir.if %%Kt >= 1 {'); j = s.index('          }\n', i) + 12; sys.stdout.write(s[:i] + s[j:])" %rake_src/bench/gemm_examples/gemm_sm90a_ws_lag.mlir > %t.lag.mlir
// RUN: not rake-opt %t.lag.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=LAG
// LAG: error: unbalanced mbarrier: element 2 of empty completes 1 phases in its lifetime, but a collective awaits it 2 times; its phases carry over to the CTA's next task, so each awaiter must await as many phases as are completed
// LAG: note: the last arrive on it
