// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-check

// The cluster version of gemm-mutations.mlir: two CTAs, each with its own
// producer and consumer; CTA 0 multicasts the B tiles into both CTAs, so a
// stage is released in both CTAs, and a cluster barrier after the epilogue
// keeps either CTA from reusing its stages while the other may still write
// them. The original passes; each mutation is rejected.
gpuir.proc @gemm_cluster(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 512, N = 128, K = 256}]} {
  gpuir.device_function cluster(2) warps(producer = 4 dec(40), consumer = 4 inc(232)) {
    gpuir.for %m = 0 to %M ceildiv 256 : cuda_tasks {
      gpuir.for %n = 0 to %N ceildiv 64 : cuda_tasks {
        %As = gpuir.alloc : memref<2x2x64x64xf16, #gpuir.smem>
        %Bs = gpuir.alloc : memref<2x2x64x64xf16, #gpuir.smem>
        %D = gpuir.alloc : memref<2x128x64xf32, #gpuir.rmem>
        %full = gpuir.alloc : !gpuir.barrier<mbarrier [2, 2]>
        %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2, 2]>
        %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
        %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
        gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          gpuir.warps "consumer" {
            %Dc = gpuir.window %D[%c, 0 : 128, 0 : 64] : memref<2x128x64xf32, #gpuir.rmem> -> memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
            rtest.in_order_op %Dc unit <warpgroup> over <thread> : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
          }
        }
        gpuir.for %k = 0 to %K ceildiv 64 : seq {
          gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
            gpuir.warps "producer" {
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %empty[%c, %k mod 2], cuda_in_order : !gpuir.barrier<mbarrier_prearrive [2, 2]>
                %Ag = gpuir.window %A[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
                %As_k = gpuir.window %As[%c, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
                rtest.example_tma_multicast %Ag, %As_k >> %full[%c, %k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2, 2]>
                gpuir.if %c == 0 {
                  // B is shared by both CTAs: CTA 0 multicasts it into both.
                  %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
                  %Bs_k = gpuir.window %Bs[0 : 2, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<2x64x64xf16, strided<[8192, 64, 1], offset: ?>, #gpuir.smem>
                  rtest.example_tma_multicast %Bg, %Bs_k >> %full[0 : 2, %k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<2x64x64xf16, strided<[8192, 64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2, 2]>
                }
              }
            }
            gpuir.warps "consumer" {
              gpuir.await %full[%c, %k mod 2], wgmma_async : !gpuir.barrier<mbarrier [2, 2]>
              gpuir.fence wgmma_fence_1 -> wgmma_fence_2
              %Dc = gpuir.window %D[%c, 0 : 128, 0 : 64] : memref<2x128x64xf32, #gpuir.rmem> -> memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
              %As_k = gpuir.window %As[%c, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              %Bs_k = gpuir.window %Bs[%c, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_wgmma %Dc, %As_k, %Bs_k : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
              gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
              // Release the stage in both CTAs: CTA 0's producer refills B in both.
              gpuir.arrive cuda_in_order >> %empty[0 : 2, %k mod 2] : !gpuir.barrier<mbarrier_prearrive [2, 2]>
            }
          }
        }
        gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          gpuir.warps "consumer" {
            gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %j = 0 to 64 : seq {
                %v = gpuir.read %D[%c, %t, %j] : memref<2x128x64xf32, #gpuir.rmem>
                gpuir.write %v, %C[%m * 256 + %c * 128 + %t, %n * 64 + %j] : memref<?x?xf32, #gpuir.gmem>
              }
            }
          }
        }
        // No CTA may reuse the stages while the other still uses them.
        gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
        gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
      }
    }
  }
}

// -----

// No cluster barrier after the epilogue: a CTA may reuse its stages while they are ordered only for the threads of the CTA that received them.
gpuir.proc @missing_cluster_sync(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 512, N = 128, K = 256}]} {
  gpuir.device_function cluster(2) warps(producer = 4 dec(40), consumer = 4 inc(232)) {
    gpuir.for %m = 0 to %M ceildiv 256 : cuda_tasks {
      gpuir.for %n = 0 to %N ceildiv 64 : cuda_tasks {
        %As = gpuir.alloc : memref<2x2x64x64xf16, #gpuir.smem>
        %Bs = gpuir.alloc : memref<2x2x64x64xf16, #gpuir.smem>
        %D = gpuir.alloc : memref<2x128x64xf32, #gpuir.rmem>
        %full = gpuir.alloc : !gpuir.barrier<mbarrier [2, 2]>
        %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2, 2]>
        %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
        %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
        gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          gpuir.warps "consumer" {
            %Dc = gpuir.window %D[%c, 0 : 128, 0 : 64] : memref<2x128x64xf32, #gpuir.rmem> -> memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
            rtest.in_order_op %Dc unit <warpgroup> over <thread> : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
          }
        }
        gpuir.for %k = 0 to %K ceildiv 64 : seq {
          gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
            gpuir.warps "producer" {
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %empty[%c, %k mod 2], cuda_in_order : !gpuir.barrier<mbarrier_prearrive [2, 2]>
                %Ag = gpuir.window %A[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
                %As_k = gpuir.window %As[%c, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
                rtest.example_tma_multicast %Ag, %As_k >> %full[%c, %k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2, 2]>
                gpuir.if %c == 0 {
                  // B is shared by both CTAs: CTA 0 multicasts it into both.
                  %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
                  %Bs_k = gpuir.window %Bs[0 : 2, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<2x64x64xf16, strided<[8192, 64, 1], offset: ?>, #gpuir.smem>
                  rtest.example_tma_multicast %Bg, %Bs_k >> %full[0 : 2, %k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<2x64x64xf16, strided<[8192, 64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2, 2]>
                }
              }
            }
            gpuir.warps "consumer" {
              gpuir.await %full[%c, %k mod 2], wgmma_async : !gpuir.barrier<mbarrier [2, 2]>
              gpuir.fence wgmma_fence_1 -> wgmma_fence_2
              %Dc = gpuir.window %D[%c, 0 : 128, 0 : 64] : memref<2x128x64xf32, #gpuir.rmem> -> memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
              %As_k = gpuir.window %As[%c, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              %Bs_k = gpuir.window %Bs[%c, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_wgmma %Dc, %As_k, %Bs_k : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
              gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
              // Release the stage in both CTAs: CTA 0's producer refills B in both.
              gpuir.arrive cuda_in_order >> %empty[0 : 2, %k mod 2] : !gpuir.barrier<mbarrier_prearrive [2, 2]>
            }
          }
        }
        gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          gpuir.warps "consumer" {
            gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %j = 0 to 64 : seq {
                %v = gpuir.read %D[%c, %t, %j] : memref<2x128x64xf32, #gpuir.rmem>
                gpuir.write %v, %C[%m * 256 + %c * 128 + %t, %n * 64 + %j] : memref<?x?xf32, #gpuir.gmem>
              }
            }
          }
        }
        // No CTA may reuse the stages while the other still uses them.
      }
    }
  }
}
// expected-error @-54 {{free without sync: empty is freed while an arrive on empty[0:2, 0] by threads 128..255 of task 0 on cuda_in_order_ram may still be unordered with the threads that free it}}
// expected-note @-20 {{the arrive}}
// expected-note @-17 {{freed here, at the end of its scope}}

// -----

// The consumers release a stage only in their own CTA: CTA 0 refills B in CTA 1 while CTA 1 may still read it.
gpuir.proc @release_own_cta_only(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 512, N = 128, K = 256}]} {
  gpuir.device_function cluster(2) warps(producer = 4 dec(40), consumer = 4 inc(232)) {
    gpuir.for %m = 0 to %M ceildiv 256 : cuda_tasks {
      gpuir.for %n = 0 to %N ceildiv 64 : cuda_tasks {
        %As = gpuir.alloc : memref<2x2x64x64xf16, #gpuir.smem>
        %Bs = gpuir.alloc : memref<2x2x64x64xf16, #gpuir.smem>
        %D = gpuir.alloc : memref<2x128x64xf32, #gpuir.rmem>
        %full = gpuir.alloc : !gpuir.barrier<mbarrier [2, 2]>
        %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2, 2]>
        %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
        %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
        gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          gpuir.warps "consumer" {
            %Dc = gpuir.window %D[%c, 0 : 128, 0 : 64] : memref<2x128x64xf32, #gpuir.rmem> -> memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
            rtest.in_order_op %Dc unit <warpgroup> over <thread> : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
          }
        }
        gpuir.for %k = 0 to %K ceildiv 64 : seq {
          gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
            gpuir.warps "producer" {
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %empty[%c, %k mod 2], cuda_in_order : !gpuir.barrier<mbarrier_prearrive [2, 2]>
                %Ag = gpuir.window %A[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
                %As_k = gpuir.window %As[%c, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
                rtest.example_tma_multicast %Ag, %As_k >> %full[%c, %k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2, 2]>
                gpuir.if %c == 0 {
                  // B is shared by both CTAs: CTA 0 multicasts it into both.
                  %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
                  %Bs_k = gpuir.window %Bs[0 : 2, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<2x64x64xf16, strided<[8192, 64, 1], offset: ?>, #gpuir.smem>
                  rtest.example_tma_multicast %Bg, %Bs_k >> %full[0 : 2, %k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<2x64x64xf16, strided<[8192, 64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2, 2]>
                }
              }
            }
            gpuir.warps "consumer" {
              gpuir.await %full[%c, %k mod 2], wgmma_async : !gpuir.barrier<mbarrier [2, 2]>
              gpuir.fence wgmma_fence_1 -> wgmma_fence_2
              %Dc = gpuir.window %D[%c, 0 : 128, 0 : 64] : memref<2x128x64xf32, #gpuir.rmem> -> memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
              %As_k = gpuir.window %As[%c, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              %Bs_k = gpuir.window %Bs[%c, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_wgmma %Dc, %As_k, %Bs_k : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
              gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
              // Release the stage in both CTAs: CTA 0's producer refills B in both.
              gpuir.arrive cuda_in_order >> %empty[%c, %k mod 2] : !gpuir.barrier<mbarrier_prearrive [2, 2]>
            }
          }
        }
        gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          gpuir.warps "consumer" {
            gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %j = 0 to 64 : seq {
                %v = gpuir.read %D[%c, %t, %j] : memref<2x128x64xf32, #gpuir.rmem>
                gpuir.write %v, %C[%m * 256 + %c * 128 + %t, %n * 64 + %j] : memref<?x?xf32, #gpuir.gmem>
              }
            }
          }
        }
        // No CTA may reuse the stages while the other still uses them.
        gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
        gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
      }
    }
  }
}
// expected-error @-35 {{WAR hazard: thread 0 of task 0 write Bs[0:2, 0, 0:64, 0:64] on tma_to_smem_async, read by threads 384..511 of task 0 on wgmma_async_smem without synchronization that orders it before}}
// expected-note @-26 {{the earlier read of Bs[1, 0, 0:64, 0:64]}}
// expected-note @-31 {{this synchronization by threads 384..511 of task 0 does not include wgmma_async_smem in its first timeline, so it does not order the earlier access}}

// -----

// The cluster barrier is arrived on but never awaited.
gpuir.proc @cluster_arrive_without_await(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 512, N = 128, K = 256}]} {
  gpuir.device_function cluster(2) warps(producer = 4 dec(40), consumer = 4 inc(232)) {
    gpuir.for %m = 0 to %M ceildiv 256 : cuda_tasks {
      gpuir.for %n = 0 to %N ceildiv 64 : cuda_tasks {
        %As = gpuir.alloc : memref<2x2x64x64xf16, #gpuir.smem>
        %Bs = gpuir.alloc : memref<2x2x64x64xf16, #gpuir.smem>
        %D = gpuir.alloc : memref<2x128x64xf32, #gpuir.rmem>
        %full = gpuir.alloc : !gpuir.barrier<mbarrier [2, 2]>
        %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2, 2]>
        %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
        %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
        gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          gpuir.warps "consumer" {
            %Dc = gpuir.window %D[%c, 0 : 128, 0 : 64] : memref<2x128x64xf32, #gpuir.rmem> -> memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
            rtest.in_order_op %Dc unit <warpgroup> over <thread> : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
          }
        }
        gpuir.for %k = 0 to %K ceildiv 64 : seq {
          gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
            gpuir.warps "producer" {
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %empty[%c, %k mod 2], cuda_in_order : !gpuir.barrier<mbarrier_prearrive [2, 2]>
                %Ag = gpuir.window %A[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
                %As_k = gpuir.window %As[%c, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
                rtest.example_tma_multicast %Ag, %As_k >> %full[%c, %k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2, 2]>
                gpuir.if %c == 0 {
                  // B is shared by both CTAs: CTA 0 multicasts it into both.
                  %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
                  %Bs_k = gpuir.window %Bs[0 : 2, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<2x64x64xf16, strided<[8192, 64, 1], offset: ?>, #gpuir.smem>
                  rtest.example_tma_multicast %Bg, %Bs_k >> %full[0 : 2, %k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<2x64x64xf16, strided<[8192, 64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2, 2]>
                }
              }
            }
            gpuir.warps "consumer" {
              gpuir.await %full[%c, %k mod 2], wgmma_async : !gpuir.barrier<mbarrier [2, 2]>
              gpuir.fence wgmma_fence_1 -> wgmma_fence_2
              %Dc = gpuir.window %D[%c, 0 : 128, 0 : 64] : memref<2x128x64xf32, #gpuir.rmem> -> memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
              %As_k = gpuir.window %As[%c, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              %Bs_k = gpuir.window %Bs[%c, %k mod 2, 0 : 64, 0 : 64] : memref<2x2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_wgmma %Dc, %As_k, %Bs_k : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
              gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
              // Release the stage in both CTAs: CTA 0's producer refills B in both.
              gpuir.arrive cuda_in_order >> %empty[0 : 2, %k mod 2] : !gpuir.barrier<mbarrier_prearrive [2, 2]>
            }
          }
        }
        gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          gpuir.warps "consumer" {
            gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %j = 0 to 64 : seq {
                %v = gpuir.read %D[%c, %t, %j] : memref<2x128x64xf32, #gpuir.rmem>
                gpuir.write %v, %C[%m * 256 + %c * 128 + %t, %n * 64 + %j] : memref<?x?xf32, #gpuir.gmem>
              }
            }
          }
        }
        // No CTA may reuse the stages while the other still uses them.
        gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
      }
    }
  }
}
// expected-error @-53 {{cluster barrier arrive without await: threads 0..511 of task 0 arrived on cs and did not await it before cs is freed; each CTA has one hardware cluster barrier (barrier.cluster), which every cluster_sync variable and the CTA's next task use, so the threads' next arrive on it would be their second before a wait (a race or a hang): await cs before it is freed}}
// expected-note @-6 {{the arrive}}
// expected-note @-7 {{freed here, at the end of its scope}}
