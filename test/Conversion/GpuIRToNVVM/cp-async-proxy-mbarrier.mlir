// cp.async copies (generic proxy) complete on an mbarrier; the consumer
// warpgroup awaits it for wgmma_async and reads the tile with wgmma (async
// proxy). cp.async.mbarrier.arrive has no proxy fence, so the awaiting
// threads need one once the phase completed: without it the check accepted
// a kernel whose wgmma could read stale shared memory (found by an
// adversarial review).
// RUN: rake-opt %s --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s
// CHECK: cp.async.mbarrier.arrive.noinc.shared.b64
// CHECK: mbarrier.try_wait.parity
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NEXT: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async
gpuir.proc @cpasync_wgmma(%Mt: index,
    %A: memref<?x64xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 64, 64)>},
    %Bt: memref<64x64xbf16, #gpuir.gmem>,
    %C: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 64, 64)>})
    attributes {gpuir.check_sizes = [{Mt = 2}]} {
  gpuir.device_function blocks_per_sm(1) warps(producer = 4, consumer = 4) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<64x64xbf16, #gpuir.smem_swizzled<128>>
      %Bs = gpuir.alloc : memref<64x64xbf16, #gpuir.smem_swizzled<128>>
      %D = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier>
      %mma = gpuir.alloc : !gpuir.barrier<wgmma_group>
      gpuir.warps "producer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %c = 0 to 4 : seq {
            %s = gpuir.window %As[(%c * 128 + %t) floordiv 8, ((%c * 128 + %t) mod 8) * 8 : ((%c * 128 + %t) mod 8) * 8 + 8] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>
            %g = gpuir.window %A[%m * 64 + (%c * 128 + %t) floordiv 8, ((%c * 128 + %t) mod 8) * 8 : ((%c * 128 + %t) mod 8) * 8 + 8] : memref<?x64xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
            gpuir.sm80.cp_async %s, %g : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
            %s2 = gpuir.window %Bs[(%c * 128 + %t) floordiv 8, ((%c * 128 + %t) mod 8) * 8 : ((%c * 128 + %t) mod 8) * 8 + 8] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>
            %g2 = gpuir.window %Bt[(%c * 128 + %t) floordiv 8, ((%c * 128 + %t) mod 8) * 8 : ((%c * 128 + %t) mod 8) * 8 + 8] : memref<64x64xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
            gpuir.sm80.cp_async %s2, %g2 : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
          }
        }
        gpuir.arrive Sm80_cp_async >> %full : !gpuir.barrier<mbarrier>
      }
      gpuir.warps "consumer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %r = 0 to 32 : seq {
            %zero = arith.constant 0.0 : f32
            gpuir.write %zero, %D[%t, %r] : memref<128x32xf32, #gpuir.rmem>
          }
        }
        gpuir.await %full, wgmma_async : !gpuir.barrier<mbarrier>
        gpuir.fence wgmma_fence_1 -> wgmma_fence_2
        gpuir.for %kk = 0 to 4 : seq {
          %a = gpuir.window %As[0 : 64, %kk * 16 : %kk * 16 + 16] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
          %b = gpuir.window %Bs[0 : 64, %kk * 16 : %kk * 16 + 16] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
          gpuir.sm90a.wgmma %D, %a, %b : memref<128x32xf32, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
        }
        gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
        gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %j = 0 to 8 : seq {
            gpuir.for %i = 0 to 4 : seq {
              %v = gpuir.read %D[%t, %j * 4 + %i] : memref<128x32xf32, #gpuir.rmem>
              gpuir.write %v, %C[%m * 64, 0] fragment(wgmma_d %t, %j, %i) : memref<?x64xf32, #gpuir.gmem>
            }
          }
        }
      }
    }
  }
}
