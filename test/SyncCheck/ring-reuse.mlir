// RUN: rake-opt %s -verify-diagnostics --rake-sync-check="max-errors=1"

// A stage of the ring is refilled every second K step. The TMA write of
// step 2 supersedes the one of step 0 (which the consumer awaited), so the
// check keeps one record per stage however long K is; the race it must still
// see is the consumer skipping the await from step 2 on: its wgmma reads the
// stage before the step-2 TMA is known to have landed. (Its passing twin is
// the kernel of gemm-mutations.mlir, which awaits in every step.)

gpuir.proc @gemm(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 128, N = 64, K = 192}]} {
  gpuir.device_function warps(producer = 4 dec(40), consumer = 4 inc(232)) {
    gpuir.for %m = 0 to %M ceildiv 128 : cuda_tasks {
      gpuir.for %n = 0 to %N ceildiv 64 : cuda_tasks {
        %As = gpuir.alloc : memref<2x64x64xf16, #gpuir.smem>
        %Bs = gpuir.alloc : memref<2x64x64xf16, #gpuir.smem>
        %D = gpuir.alloc : memref<128x64xf32, #gpuir.rmem>
        %full = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
        %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2]>
        %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
        gpuir.warps "consumer" {
          rtest.in_order_op %D unit <warpgroup> over <thread> : memref<128x64xf32, #gpuir.rmem>
        }
        gpuir.for %k = 0 to %K ceildiv 64 : seq {
          gpuir.warps "producer" {
            gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.await %empty[%k mod 2], cuda_in_order : !gpuir.barrier<mbarrier_prearrive [2]>
              %Ag = gpuir.window %A[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
              %As_k = gpuir.window %As[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_tma_multicast %Ag, %As_k >> %full[%k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
              // expected-note @-1 {{the earlier access completes on its trailing barrier full, but threads 128..255 of task 0 do not await full before this access: add a gpuir.await on it whose second timeline covers wgmma_async_smem}}
              %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
              %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_tma_multicast %Bg, %Bs_k >> %full[%k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
            }
          }
          gpuir.warps "consumer" {
            gpuir.if %k < 2 {
              gpuir.await %full[%k mod 2], wgmma_async : !gpuir.barrier<mbarrier [2]>
            }
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %As_k = gpuir.window %As[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            // expected-error @+2 {{RAW hazard: threads 128..255 of task 0 read As[0, 0:64, 0:64] on wgmma_async_smem, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before}}
            // expected-note @-15 {{the earlier write of As[0, 0:64, 0:64]}}
            rtest.example_wgmma %D, %As_k, %Bs_k : memref<128x64xf32, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
            gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
            gpuir.arrive cuda_in_order >> %empty[%k mod 2] : !gpuir.barrier<mbarrier_prearrive [2]>
          }
        }
        gpuir.warps "consumer" {
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %j = 0 to 64 : seq {
              %v = gpuir.read %D[%t, %j] : memref<128x64xf32, #gpuir.rmem>
              gpuir.write %v, %C[%m * 128 + %t, %n * 64 + %j] : memref<?x?xf32, #gpuir.gmem>
            }
          }
        }
      }
    }
  }
}

