// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-check

// Proxies (PTX ISA, memory consistency model, "proxies"): TMA copies access
// memory through the async proxy, ordinary loads, stores and cp.async
// through the generic proxy, and accesses of one location through different
// proxies are ordered only by a proxy fence (fence.proxy.async). A TMA copy
// into a tile that threads wrote therefore needs the writers' proxy fence
// before the barrier that orders them: a CTA barrier alone orders the two
// writes in time, which is not enough (the generic stores may land after the
// copy). A TMA copy overwriting what threads only read needs no proxy fence:
// the barrier orders the reads before the copy is issued (as CUTLASS's
// pipelines rely on): in the twin below, the next task's copy overwrites
// the shared memory that this task's threads read, after the CTA barrier
// between tasks and no proxy fence.

gpuir.proc @generic_then_tma(%n: index,
    %A: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 64)>},
    %B: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 64)>})
    attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %tile = gpuir.alloc : memref<64x64xf32, #gpuir.smem>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 32 : seq {
          %z = arith.constant 0.0 : f32
          // expected-note @+1 {{the earlier write of tile[0, 0:32]}}
          gpuir.write %z, %tile[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xf32, #gpuir.smem>
        }
      }
      // expected-note @+1 {{this synchronization orders the generic-proxy write before the async-proxy write only in time; accesses of different proxies are ordered by a proxy fence: write it as gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy (fence.proxy.async)}}
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %p = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %A[%task * 64 : %task * 64 + 64, 0 : 64] : memref<?x64xf32, #gpuir.gmem> -> memref<64x64xf32, strided<[64, 1], offset: ?>, #gpuir.gmem>
        // expected-error @+1 {{WAW hazard: thread 0 of task 0 write tile[0:64, 0:64] on tma_to_smem_async, written by thread 0 of task 0 on cuda_in_order_ram without synchronization that orders it before}}
        gpuir.sm90a.tma_load %tile, %g >> %full : memref<64x64xf32, #gpuir.smem>, memref<64x64xf32, strided<[64, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
      gpuir.await %full, cuda_in_order : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 32 : seq {
          %v = gpuir.read %tile[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xf32, #gpuir.smem>
          gpuir.write %v, %B[%task * 64 + %t floordiv 2, (%t mod 2) * 32 + %j] : memref<?x64xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// The twin: the fence to cuda_generic_and_async_proxy, which code generation
// lowers to fence.proxy.async.shared::cta before the CTA barrier.
gpuir.proc @generic_fence_tma(%n: index,
    %A: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 64)>},
    %B: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 64)>})
    attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %tile = gpuir.alloc : memref<64x64xf32, #gpuir.smem>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 32 : seq {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %tile[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xf32, #gpuir.smem>
        }
      }
      gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
      gpuir.for %p = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %A[%task * 64 : %task * 64 + 64, 0 : 64] : memref<?x64xf32, #gpuir.gmem> -> memref<64x64xf32, strided<[64, 1], offset: ?>, #gpuir.gmem>
        gpuir.sm90a.tma_load %tile, %g >> %full : memref<64x64xf32, #gpuir.smem>, memref<64x64xf32, strided<[64, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
      gpuir.await %full, cuda_in_order : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 32 : seq {
          %v = gpuir.read %tile[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xf32, #gpuir.smem>
          gpuir.write %v, %B[%task * 64 + %t floordiv 2, (%t mod 2) * 32 + %j] : memref<?x64xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// wgmma reads its shared operands through the async proxy: tiles that
// threads stored need the fence to the async proxy too. The note points at
// the CTA fence whose second timeline left the async proxy out.
gpuir.proc @generic_then_wgmma(%n: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x64xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{n = 1}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %As = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      %Bs = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      %D = gpuir.alloc : memref<128x64xf32, #gpuir.rmem>
      %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
      rtest.in_order_op %D unit <warpgroup> over <thread> : memref<128x64xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 32 : seq {
          %v = gpuir.read %A[%task, %t floordiv 2, (%t mod 2) * 32 + %j] : memref<?x64x64xf16, #gpuir.gmem>
          // expected-note @+1 {{the earlier write of As[0, 0:32]}}
          gpuir.write %v, %As[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xf16, #gpuir.smem>
          gpuir.write %v, %Bs[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xf16, #gpuir.smem>
        }
      }
      // expected-note @+1 {{this synchronization orders the earlier write for threads 0..127 of task 0, but its second timeline leaves out wgmma_async_smem: a write of the generic proxy is read through the async proxy only after a fence to it (gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy, which is fence.proxy.async)}}
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.fence wgmma_fence_1 -> wgmma_fence_2
      // expected-error @+1 {{RAW hazard: threads 0..127 of task 0 read As[0:64, 0:64] on wgmma_async_smem, written by thread 0 of task 0 on cuda_in_order_ram without synchronization that orders it before}}
      rtest.example_wgmma %D, %As, %Bs : memref<128x64xf32, #gpuir.rmem>, memref<64x64xf16, #gpuir.smem>, memref<64x64xf16, #gpuir.smem>
      gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
      gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 64 : seq {
          %v = gpuir.read %D[%t, %j] : memref<128x64xf32, #gpuir.rmem>
          gpuir.write %v, %C[%task * 128 + %t, %j] : memref<?x64xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// The twin.
gpuir.proc @generic_fence_wgmma(%n: index, %A: memref<?x64x64xf16, #gpuir.gmem>, %C: memref<?x64xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{n = 1}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %As = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      %Bs = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      %D = gpuir.alloc : memref<128x64xf32, #gpuir.rmem>
      %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
      rtest.in_order_op %D unit <warpgroup> over <thread> : memref<128x64xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 32 : seq {
          %v = gpuir.read %A[%task, %t floordiv 2, (%t mod 2) * 32 + %j] : memref<?x64x64xf16, #gpuir.gmem>
          gpuir.write %v, %As[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xf16, #gpuir.smem>
          gpuir.write %v, %Bs[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xf16, #gpuir.smem>
        }
      }
      gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
      gpuir.fence wgmma_fence_1 -> wgmma_fence_2
      rtest.example_wgmma %D, %As, %Bs : memref<128x64xf32, #gpuir.rmem>, memref<64x64xf16, #gpuir.smem>, memref<64x64xf16, #gpuir.smem>
      gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
      gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 64 : seq {
          %v = gpuir.read %D[%t, %j] : memref<128x64xf32, #gpuir.rmem>
          gpuir.write %v, %C[%task * 128 + %t, %j] : memref<?x64xf32, #gpuir.gmem>
        }
      }
    }
  }
}
