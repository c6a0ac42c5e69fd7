// The release of a ring stage (an in-order arrive on an mbarrier that the
// producer awaits before its TMA copies) comes after fence.proxy.async only
// where the awaiting threads may access through the async proxy a shared
// buffer that some thread writes through the generic proxy: here the
// consumers write only %T, which no TMA copy or wgmma touches, so the
// releases need no fence (the producer's copies into %S are ordered after
// the consumers' reads by the mbarrier alone) and the kernel has none.
// When the consumers write the stage itself, the producer's copy into it
// must see those writes through the async proxy: each release is then
// preceded by fence.proxy.async. Both pass the check.
// RUN: rake-opt %s --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s --check-prefix=KEEP
// KEEP: mbarrier.try_wait.parity
// KEEP-NOT: fence.proxy.async
// KEEP: mbarrier.arrive.shared.b64
// KEEP-NOT: fence.proxy.async
// RUN: sed 's/gpuir.write %%v, %%T\[%%i floordiv 2, (%%i mod 2) \* 32 + %%j\] : memref<64x64xbf16, #gpuir.smem>/gpuir.write %%v, %%S[%%k mod 2, %%i floordiv 2, (%%i mod 2) * 32 + %%j] : memref<2x64x64xbf16, #gpuir.smem>/' %s > %t.mlir
// RUN: rake-opt %t.mlir --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %t.mlir | FileCheck %s --check-prefix=FENCE
// (The stage is also a buffer that TMA writes after generic writes of an
// earlier task: every barrier of the task's end gets the fence too.)
// (First the initializing thread's fence after mbarrier.init, before the
// CTA meets: the mbarriers are then visible to the TMA copies.)
// FENCE: mbarrier.init.shared.b64
// FENCE: fence.proxy.async.shared::cta;
// FENCE: bar.sync 0;
// FENCE: fence.proxy.async.shared::cta;
// FENCE-NEXT: barrier.sync 0;
// FENCE: mbarrier.try_wait.parity
// FENCE: fence.proxy.async.shared::cta;
// FENCE-NEXT: bar.warp.sync
// FENCE: mbarrier.arrive.shared.b64
gpuir.proc @release_fence(%n: index,
    %A: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 64)>},
    %C: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 64)>})
    attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function blocks_per_sm(1) warps(producer = 4, consumer = 4) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %S = gpuir.alloc : memref<2x64x64xbf16, #gpuir.smem>
      %T = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2]>
      gpuir.for %k = 0 to 4 : seq {
        gpuir.warps "producer" {
          gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.await %empty[%k mod 2], tma_to_smem_async : !gpuir.barrier<mbarrier_prearrive [2]>
            %s = gpuir.window %S[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xbf16, #gpuir.smem>
            %g = gpuir.window %A[%t * 64 : %t * 64 + 64, 0 : 64] : memref<?x?xbf16, #gpuir.gmem>
            gpuir.sm90a.tma_load %s, %g >> %full[%k mod 2] : memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [2]>
          }
        }
        gpuir.warps "consumer" {
          gpuir.await %full[%k mod 2], cuda_in_order : !gpuir.barrier<mbarrier [2]>
          gpuir.for %i = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %j = 0 to 32 : seq {
              %v = gpuir.read %S[%k mod 2, %i floordiv 2, (%i mod 2) * 32 + %j] : memref<2x64x64xbf16, #gpuir.smem>
              gpuir.write %v, %T[%i floordiv 2, (%i mod 2) * 32 + %j] : memref<64x64xbf16, #gpuir.smem>
            }
          }
          gpuir.arrive cuda_in_order >> %empty[%k mod 2] : !gpuir.barrier<mbarrier_prearrive [2]>
        }
      }
      gpuir.warps "consumer" {
        gpuir.for %i = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %j = 0 to 32 : seq {
            %v = gpuir.read %T[%i floordiv 2, (%i mod 2) * 32 + %j] : memref<64x64xbf16, #gpuir.smem>
            gpuir.write %v, %C[%t * 64 + %i floordiv 2, (%i mod 2) * 32 + %j] : memref<?x?xbf16, #gpuir.gmem>
          }
        }
      }
    }
  }
}
