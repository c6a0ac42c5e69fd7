// RUN: rake-opt %s --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s

// A TMA copy completes on the mbarrier of the arrive after it: the arrive
// becomes an expect_tx of the copy's bytes (64 x 64 bf16: 8192). Before it,
// every thread wrote the tile with st.shared and arrived in order on a
// barrier that the copying thread awaits for TMA's (async proxy) accesses:
// the writers' arrive comes after fence.proxy.async. The 128 writers are
// whole warps: each warp meets (bar.warp.sync) and its lane 0 arrives, so
// the barrier counts 4 arrivals. The kernel takes the tensor map's address
// after the procedure's parameters.
gpuir.proc @tma_tile(%n: index, %A: memref<?x?xbf16, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %As = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      %written = gpuir.alloc : !gpuir.barrier<mbarrier>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %i = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : bf16
        gpuir.write %z, %As[%i floordiv 2, (%i mod 2) * 32] : memref<64x64xbf16, #gpuir.smem>
      }
      gpuir.arrive cuda_in_order >> %written : !gpuir.barrier<mbarrier>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.await %written, tma_to_smem_async : !gpuir.barrier<mbarrier>
        %g = gpuir.window %A[%t * 64 : %t * 64 + 64, 0 : 64] : memref<?x?xbf16, #gpuir.gmem> -> memref<64x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>
        gpuir.sm90a.tma_load %As, %g >> %full : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
      gpuir.await %full, cuda_in_order : !gpuir.barrier<mbarrier>
    }
  }
}
// CHECK-LABEL: gpu.func @tma_tile(
// CHECK-SAME: %[[MAP:[a-z0-9]+]]: !llvm.ptr) kernel
// CHECK: nvgpu.mbarrier.init %[[WRITTEN:[0-9]+]][%{{.*}}], %c4 :
// CHECK: nvgpu.mbarrier.init %[[FULL:[0-9]+]][%{{.*}}], %c1
// The initializing thread makes the mbarriers visible to the async proxy
// (the TMA copies' complete_tx) before the CTA meets.
// CHECK: scf.if
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.barrier
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.bar.warp.sync
// CHECK: arith.remui %{{.*}}, %c32
// CHECK: scf.if
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[WRITTEN]]
// CHECK: nvgpu.mbarrier.try_wait.parity
// The copy is its thread's arrival on its trailing mbarrier, expecting its
// bytes, then the copy completing them there.
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.*}}], %c8192
// CHECK: %[[DST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[MAP]], %{{.*}}, box[%{{.*}}, %{{.*}}]

// Two arrive statements on one mbarrier array (the release of the previous
// slice's stage in the K loop, the last one after it), each from the 512
// consumer threads, 16 whole warps: the empty barriers count 16 arrivals
// (lane 0 of each warp, after bar.warp.sync), the full ones the two TMA
// copies of a stage (an expect_tx of each copy's bytes before it). No thread writes shared memory but by TMA, so
// the releases need no fence.proxy.async: the consumers only read the
// stages the producer refills (a write-after-read the barrier orders).
// RUN: rake-opt %rake_src/bench/gemm_examples/gemm_sm90a_ws_lag.mlir --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s --check-prefix=LAG
// LAG-COUNT-4: nvgpu.mbarrier.init %[[FULL:[0-9]+]][%c{{[0-3]}}], %c2 :
// LAG-COUNT-4: nvgpu.mbarrier.init %[[EMPTY:[0-9]+]][%c{{[0-3]}}], %c16 :
// (The initializing thread's fence, once, before the CTA meets.)
// LAG: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// LAG-NEXT: {{^ *}}}
// LAG-NEXT: nvvm.barrier
// LAG-NOT: nvvm.fence.proxy
// LAG: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.*}}], %c32768
// LAG: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.*}}], %c16384
// LAG-NOT: nvvm.fence.proxy
// LAG: nvvm.bar.warp.sync
// LAG: nvgpu.mbarrier.arrive %[[EMPTY]]
// LAG-NOT: nvvm.fence.proxy
// LAG: nvvm.bar.warp.sync
// LAG: nvgpu.mbarrier.arrive %[[EMPTY]]
// LAG-NOT: nvvm.fence.proxy
