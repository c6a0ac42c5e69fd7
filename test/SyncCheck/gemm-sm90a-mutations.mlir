// The check rejects the wgmma GEMM (examples/gemm_sm90a.mlir) when its
// pipeline is made wrong, and accepts it as written.
// RUN: rake-opt %examples/gemm_sm90a.mlir --rake-check > /dev/null

// Waiting for all but the newest two wgmma groups: the stage refilled at
// the next iteration may still be read by wgmma.
// RUN: sed 's/gpuir.await %mma, cuda_in_order, outstanding(1)/gpuir.await %mma, cuda_in_order, outstanding(2)/' %examples/gemm_sm90a.mlir > %t.mma.mlir
// RUN: not rake-opt %t.mma.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=MMA
// MMA: error: WAR hazard: thread 0 of task 0 write As[0, 0, 0:8] on Sm80_cp_async, read by threads 0..127 of task 0 on wgmma_async_smem without synchronization that orders it before

// A fence between in-order accesses does not reach the async proxy that
// wgmma reads shared memory through.
// RUN: sed 's/gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy/gpuir.fence cuda_in_order -> cuda_in_order/' %examples/gemm_sm90a.mlir > %t.proxy.mlir
// RUN: not rake-opt %t.proxy.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=PROXY
// PROXY: error: RAW hazard: threads 0..127 of task 0 read As[0, 0:64, 0:16] on wgmma_async_smem, written by thread 0 of task 0 on Sm80_cp_async without synchronization that orders it before

// Without the wgmma fence, the accumulators' zeroing may race with wgmma.
// RUN: grep -v "gpuir.fence wgmma_fence_1 -> wgmma_fence_2" %examples/gemm_sm90a.mlir > %t.wgfence.mlir
// RUN: not rake-opt %t.wgfence.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=WGFENCE
// WGFENCE: error: {{RAW|WAW|WAR}} hazard: {{.*}} D[{{.*}} on wgmma_async_rmem_d

// The core-matrix variant of the benchmark passes the check too.
// RUN: rake-opt %rake_src/bench/gemm_examples/gemm_sm90a_core.mlir --rake-check > /dev/null
