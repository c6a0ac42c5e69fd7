// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-check

// A correct tiled kernel and mutations of it in one place each, modeled on
// the Exo-GPU authors' synchronization-error tests: the original passes the
// check, and every mutation is rejected with the hazard it causes.
//
// The kernel: a warp-specialized, double-buffered GEMM shape. A producer
// thread loads 64x64 tiles of A and B with TMA into a ring of 2 shared-memory
// stages, completing on the full barriers; the consumer warpgroup waits for a
// stage, multiplies it into register accumulators with wgmma, commits and
// waits for its wgmmas, and releases the stage on the empty barrier; the
// epilogue writes the accumulators to C.
gpuir.proc @gemm(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 256, N = 128, K = 256}]} {
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
              %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
              %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_tma_multicast %Bg, %Bs_k >> %full[%k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
            }
          }
          gpuir.warps "consumer" {
            gpuir.await %full[%k mod 2], wgmma_async : !gpuir.barrier<mbarrier [2]>
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %As_k = gpuir.window %As[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
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

// -----

// The consumer does not await the full barrier: its wgmma reads a stage the TMA may still be writing.
gpuir.proc @missing_full_await(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 256, N = 128, K = 256}]} {
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
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %As_k = gpuir.window %As[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
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
// expected-error @-18 {{RAW hazard: threads 128..255 of task 0 read As[0, 0:64, 0:64] on wgmma_async_smem, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before}}
// expected-note @-30 {{the earlier write of As[0, 0:64, 0:64]}}

// -----

// The consumer never releases a stage: the producer waits for an arrive that never comes.
gpuir.proc @missing_empty_arrive(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 256, N = 128, K = 256}]} {
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
              %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
              %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_tma_multicast %Bg, %Bs_k >> %full[%k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
            }
          }
          gpuir.warps "consumer" {
            gpuir.await %full[%k mod 2], wgmma_async : !gpuir.barrier<mbarrier [2]>
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %As_k = gpuir.window %As[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            rtest.example_wgmma %D, %As_k, %Bs_k : memref<128x64xf32, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
            gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
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
// expected-error @-31 {{await without matching arrive: thread 0 of task 0 await phase 0 of empty, but only 0 arrives happened on it before}}

// -----

// The consumer releases the stage before waiting for its wgmma: the next TMA may overwrite what the wgmma still reads.
gpuir.proc @arrive_before_await(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 256, N = 128, K = 256}]} {
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
              %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
              %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_tma_multicast %Bg, %Bs_k >> %full[%k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
            }
          }
          gpuir.warps "consumer" {
            gpuir.await %full[%k mod 2], wgmma_async : !gpuir.barrier<mbarrier [2]>
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %As_k = gpuir.window %As[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            rtest.example_wgmma %D, %As_k, %Bs_k : memref<128x64xf32, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
            gpuir.arrive cuda_in_order >> %empty[%k mod 2] : !gpuir.barrier<mbarrier_prearrive [2]>
            gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
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
// expected-error @-29 {{WAR hazard: thread 0 of task 0 write As[0, 0:64, 0:64] on tma_to_smem_async, read by threads 128..255 of task 0 on wgmma_async_smem without synchronization that orders it before}}
// expected-note @-19 {{the earlier read of As[0, 0:64, 0:64]}}
// expected-note @-23 {{this synchronization by threads 128..255 of task 0 does not include wgmma_async_smem in its first timeline, so it does not order the earlier access}}

// -----

// The consumer waits on a different commit group than the one its wgmmas were committed to.
gpuir.proc @wrong_commit_group(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 256, N = 128, K = 256}]} {
  gpuir.device_function warps(producer = 4 dec(40), consumer = 4 inc(232)) {
    gpuir.for %m = 0 to %M ceildiv 128 : cuda_tasks {
      gpuir.for %n = 0 to %N ceildiv 64 : cuda_tasks {
        %As = gpuir.alloc : memref<2x64x64xf16, #gpuir.smem>
        %Bs = gpuir.alloc : memref<2x64x64xf16, #gpuir.smem>
        %D = gpuir.alloc : memref<128x64xf32, #gpuir.rmem>
        %full = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
        %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2]>
        %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
        %cg2 = gpuir.alloc : !gpuir.barrier<wgmma_group>
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
              %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
              %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_tma_multicast %Bg, %Bs_k >> %full[%k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
            }
          }
          gpuir.warps "consumer" {
            gpuir.await %full[%k mod 2], wgmma_async : !gpuir.barrier<mbarrier [2]>
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %As_k = gpuir.window %As[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            rtest.example_wgmma %D, %As_k, %Bs_k : memref<128x64xf32, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
            gpuir.await %cg2, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
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
// expected-error @-29 {{WAR hazard: thread 0 of task 0 write As[0, 0:64, 0:64] on tma_to_smem_async, read by threads 128..255 of task 0 on wgmma_async_smem without synchronization that orders it before}}
// expected-note @-19 {{the earlier read of As[0, 0:64, 0:64]}}
// expected-note @-17 {{this synchronization by threads 128..255 of task 0 does not include wgmma_async_smem in its first timeline, so it does not order the earlier access}}

// -----

// The consumer awaits the full barrier on cuda_in_order: the TMA data becomes visible to ordinary loads, not to the wgmma that reads it.
gpuir.proc @wrong_timeline(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 256, N = 128, K = 256}]} {
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
              %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
              %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_tma_multicast %Bg, %Bs_k >> %full[%k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
            }
          }
          gpuir.warps "consumer" {
            gpuir.await %full[%k mod 2], cuda_in_order : !gpuir.barrier<mbarrier [2]>
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %As_k = gpuir.window %As[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
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
// expected-error @-18 {{RAW hazard: threads 128..255 of task 0 read As[0, 0:64, 0:64] on wgmma_async_smem, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before}}
// expected-note @-30 {{the earlier write of As[0, 0:64, 0:64]}}
// expected-note @-24 {{this synchronization orders it, but not for threads 128..255 of task 0 on wgmma_async_smem at the level needed}}

// -----

// The consumer reads the other stage of the ring than the one it waited for.
gpuir.proc @wrong_stage(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 256, N = 128, K = 256}]} {
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
              %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
              %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_tma_multicast %Bg, %Bs_k >> %full[%k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
            }
          }
          gpuir.warps "consumer" {
            gpuir.await %full[%k mod 2], wgmma_async : !gpuir.barrier<mbarrier [2]>
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %As_k = gpuir.window %As[(%k + 1) mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
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
// expected-error @-29 {{WAR hazard: thread 0 of task 0 write As[1, 0:64, 0:64] on tma_to_smem_async, read by threads 128..255 of task 0 on wgmma_async_smem without synchronization that orders it before}}
// expected-note @-17 {{this synchronization is too weak: it orders the earlier access for threads 128..255 of task 0 only, not for thread 0 of task 0; synchronize a collective that holds both (a fence of their common unit, or a barrier they both arrive on and await)}}
// expected-note @-20 {{the earlier read of As[1, 0:64, 0:64]}}

// -----

// No wgmma fence between the in-order initialization of the accumulator and the first wgmma.
gpuir.proc @missing_wgmma_fence(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 256, N = 128, K = 256}]} {
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
              %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
              %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_tma_multicast %Bg, %Bs_k >> %full[%k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
            }
          }
          gpuir.warps "consumer" {
            gpuir.await %full[%k mod 2], wgmma_async : !gpuir.barrier<mbarrier [2]>
            %As_k = gpuir.window %As[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
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
// expected-error @-18 {{RAW hazard: threads 128..255 of task 0 read D[0:128, 0:64] on wgmma_async_rmem_d, written by thread 128 of task 0 on cuda_in_order_rmem without synchronization that orders it before}}
// expected-note @-37 {{the earlier write of D[0, 0:64]}}

// -----

// The stages are freed right after the loop, before the threads that did not wait for the last loads are ordered after them.
gpuir.proc @free_too_early(%M: index, %N: index, %K: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %B: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{M = 256, N = 128, K = 256}]} {
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
              %Bg = gpuir.window %B[%k, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
              %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
              rtest.example_tma_multicast %Bg, %Bs_k >> %full[%k mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
            }
          }
          gpuir.warps "consumer" {
            gpuir.await %full[%k mod 2], wgmma_async : !gpuir.barrier<mbarrier [2]>
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %As_k = gpuir.window %As[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            %Bs_k = gpuir.window %Bs[%k mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            rtest.example_wgmma %D, %As_k, %Bs_k : memref<128x64xf32, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
            gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
            gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
            gpuir.arrive cuda_in_order >> %empty[%k mod 2] : !gpuir.barrier<mbarrier_prearrive [2]>
          }
        }
        gpuir.free %As : memref<2x64x64xf16, #gpuir.smem>
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
// expected-error @-13 {{free without sync: As is freed while a write of As[0, 0:64, 0:64] by thread 0 of task 0 on tma_to_smem_async may still be unordered with the threads that free it}}
// expected-note @-31 {{the access}}
