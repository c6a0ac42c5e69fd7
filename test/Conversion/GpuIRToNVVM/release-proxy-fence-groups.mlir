// The threads that await a barrier are those of every gpuir.warps region
// of the awaiting warp group, not only the region that holds the await:
// here the consumers await the producer's staging in one region and
// multiply the staged tiles with wgmma (the async proxy) in another, so the
// producer's release of its generic-proxy writes is preceded by
// fence.proxy.async (found by review: the first version of the rule looked
// only at the awaiting region and left the fence out).
// RUN: rake-opt %s --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s
// CHECK: st.shared
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.warp.sync
// CHECK: mbarrier.arrive.shared.b64
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
gpuir.proc @split_regions(%A: memref<64x16xbf16, #gpuir.gmem>, %B: memref<16x64xbf16, #gpuir.gmem>, %C: memref<64x64xf32, #gpuir.gmem>) {
  gpuir.device_function warps(producer = 4, consumer = 4) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %As = gpuir.alloc : memref<8x2x8x8xbf16, #gpuir.smem>
      %Bs = gpuir.alloc : memref<8x2x8x8xbf16, #gpuir.smem>
      %D = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
      %staged = gpuir.alloc : !gpuir.barrier<mbarrier [1]>
      gpuir.warps "producer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %e = 0 to 8 : seq {
            %a = gpuir.read %A[(%t * 8 + %e) floordiv 16, (%t * 8 + %e) mod 16] : memref<64x16xbf16, #gpuir.gmem>
            gpuir.write %a, %As[(%t * 8 + %e) floordiv 128, ((%t * 8 + %e) mod 16) floordiv 8, ((%t * 8 + %e) floordiv 16) mod 8, (%t * 8 + %e) mod 8] : memref<8x2x8x8xbf16, #gpuir.smem>
            %b = gpuir.read %B[(%t * 8 + %e) floordiv 64, (%t * 8 + %e) mod 64] : memref<16x64xbf16, #gpuir.gmem>
            gpuir.write %b, %Bs[((%t * 8 + %e) mod 64) floordiv 8, (%t * 8 + %e) floordiv 512, (%t * 8 + %e) mod 8, ((%t * 8 + %e) floordiv 64) mod 8] : memref<8x2x8x8xbf16, #gpuir.smem>
          }
        }
        gpuir.arrive cuda_in_order >> %staged[0] : !gpuir.barrier<mbarrier [1]>
      }
      gpuir.warps "consumer" {
        gpuir.await %staged[0], wgmma_async : !gpuir.barrier<mbarrier [1]>
      }
      gpuir.warps "consumer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %r = 0 to 32 : seq {
            %zero = arith.constant 0.0 : f32
            gpuir.write %zero, %D[%t, %r] : memref<128x32xf32, #gpuir.rmem>
          }
        }
        gpuir.fence wgmma_fence_1 -> wgmma_fence_2
        gpuir.sm90a.wgmma %D, %As, %Bs : memref<128x32xf32, #gpuir.rmem>, memref<8x2x8x8xbf16, #gpuir.smem>, memref<8x2x8x8xbf16, #gpuir.smem>
        gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
        gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %j = 0 to 8 : seq {
            gpuir.for %i = 0 to 4 : seq {
              %v = gpuir.read %D[%t, %j * 4 + %i] : memref<128x32xf32, #gpuir.rmem>
              gpuir.write %v, %C[(%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, %j * 8 + (%t mod 4) * 2 + %i mod 2] : memref<64x64xf32, #gpuir.gmem>
            }
          }
        }
      }
    }
  }
}
