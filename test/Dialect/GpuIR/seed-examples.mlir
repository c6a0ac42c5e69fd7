// RUN: rake-opt %s -split-input-file -allow-unregistered-dialect | FileCheck %s
// RUN: rake-opt %s -split-input-file -allow-unregistered-dialect --rake-check -verify-diagnostics | FileCheck %s --check-prefix=CHECKED

// The examples of the Exo-GPU paper (sections 2.1 and 2.2) in GpuIR. All of
// them are well-formed programs, so they parse and verify; the erroneous ones
// are rejected later, by distributed memory analysis (the broadcast through a
// register) and by the synchronization check (the three races).
//
// rake-check rejects the four erroneous ones: distributed memory analysis the
// broadcast, the synchronization check the three races, each with the hazard
// the paper describes. The Fence example and its split-barrier version pass.
//
// The paper's placeholder instructions are the rtest dialect's
// example_tma_multicast, example_wgmma and in_order_op (some_in_order_op).

// Section 2.1, the Fence example: each CTA reverses a tile of 256 elements
// through shared memory; the CTA-wide fence orders the writes of the first
// loop before the reads of the second.
// CHECK-LABEL: gpuir.proc @reverse_tiles
// CHECK: gpuir.fence cuda_in_order -> cuda_in_order
// CHECKED-LABEL: gpuir.proc @reverse_tiles
// CHECKED: gpuir.alloc {gpuir.sharding = #gpuir.sharding<whole>} : memref<256xf32, #gpuir.smem>
gpuir.proc @reverse_tiles(%n: index, %A: memref<?xf32, #gpuir.gmem>, %B: memref<?xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 512}]} {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n ceildiv 256 : cuda_tasks {
      %tile = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
        gpuir.write %v, %tile[%t] : memref<256xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tile[255 - %t] : memref<256xf32, #gpuir.smem>
        gpuir.write %v, %B[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// Section 2.1, the same program with the fence replaced by a split barrier on
// an mbarrier: the arrive captures the writes, the await makes them visible.
// CHECK-LABEL: gpuir.proc @reverse_tiles_split
// CHECKED-LABEL: gpuir.proc @reverse_tiles_split
// CHECKED: gpuir.alloc {gpuir.sharding = #gpuir.sharding<whole>} : !gpuir.barrier<mbarrier>
// CHECK: gpuir.arrive cuda_in_order >> %[[BAR:.*]] : !gpuir.barrier<mbarrier>
// CHECK: gpuir.await %[[BAR]], cuda_in_order : !gpuir.barrier<mbarrier>
gpuir.proc @reverse_tiles_split(%n: index, %A: memref<?xf32, #gpuir.gmem>, %B: memref<?xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 512}]} {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n ceildiv 256 : cuda_tasks {
      %tile = gpuir.alloc : memref<256xf32, #gpuir.smem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
        gpuir.write %v, %tile[%t] : memref<256xf32, #gpuir.smem>
      }
      gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
      gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tile[255 - %t] : memref<256xf32, #gpuir.smem>
        gpuir.write %v, %B[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// Section 2.1, broadcast through a register: sequentially, tmp holds A[31]
// after the first loop and the second loop broadcasts it to every B[i]. A
// register buffer cannot be read by a thread that did not write it, so
// distributed memory analysis rejects this program (a per-thread copy needs
// tmp: f32[32] indexed by the thread).
// CHECK-LABEL: gpuir.proc @broadcast_through_tmp
gpuir.proc @broadcast_through_tmp(%n: index, %A: memref<?xf32, #gpuir.gmem>, %B: memref<?xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 512}]} {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %tmp = gpuir.alloc : memref<f32, #gpuir.rmem>
      // expected-note @+1 {{the cuda_threads loop}}
      gpuir.for %i = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%task * 32 + %i] : memref<?xf32, #gpuir.gmem>
        // expected-error @+1 {{accesses the rmem buffer (one copy per thread) from each iteration of a cuda_threads loop, but its indices do not depend on the loop's variable}}
        gpuir.write %v, %tmp[] : memref<f32, #gpuir.rmem>
      }
      gpuir.for %i = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tmp[] : memref<f32, #gpuir.rmem>
        gpuir.write %v, %B[%task * 32 + %i] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// Section 2.2, first example (inter-thread race across CTAs): the CTA-scope
// fence orders each CTA's own reads of B before its TMA multicast, but the
// multicast of CTA 0 also writes B[1] while CTA 1 may still be reading it.
// The fence would have to be a cluster-wide synchronization.
// CHECK-LABEL: gpuir.proc @multicast_race
gpuir.proc @multicast_race(%n: index, %A: memref<?x64x64xf16, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 512}]} {
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %B = gpuir.alloc : memref<2x64x64xf16, #gpuir.smem>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      gpuir.for %cta = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        %Bc = gpuir.window %B[%cta, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
        // expected-error @+1 {{RAW hazard: threads 128..255 of task 0 read B[1, 0:64, 0:64] on cuda_in_order_ram, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before}}
        rtest.in_order_op %Bc unit <cta_in_cluster> read_only : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
        gpuir.fence cuda_in_order -> cuda_in_order
        gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %Ac = gpuir.window %A[%task, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
          // expected-note @+1 {{the earlier write of B[0:2, 0:64, 0:64]}}
          rtest.example_tma_multicast %Ac, %B >> %full[%cta] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<2x64x64xf16, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
          // expected-note @-1 {{the earlier access completes on its trailing barrier full, but threads 128..255 of task 0 do not await full before this access: add a gpuir.await on it whose second timeline covers cuda_in_order_ram}}
        }
      }
    }
  }
}

// -----

// Section 2.2, second example (intra-thread race): each warpgroup works on its
// own shard D[cta, wg], but the asynchronous wgmma is never waited for before
// in_order_op reads its output. An arrive/await on a wgmma commit group
// between the two is missing.
// CHECK-LABEL: gpuir.proc @wgmma_not_awaited
gpuir.proc @wgmma_not_awaited(%n: index) attributes {gpuir.check_sizes = [{n = 512}]} {
  gpuir.device_function cluster(2) block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %A = gpuir.alloc : memref<2x64x64xf16, #gpuir.smem>
      %D = gpuir.alloc : memref<2x256x32xf32, #gpuir.rmem>
      gpuir.for %cta = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        %Ac = gpuir.window %A[%cta, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
        gpuir.for %wg = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
          %Dw = gpuir.window %D[%cta, %wg * 128 : %wg * 128 + 128, 0 : 32] : memref<2x256x32xf32, #gpuir.rmem> -> memref<128x32xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>
          // expected-note @+2 {{the earlier write of D[0, 0:128, 0:32]}}
          // expected-note @+1 {{the asynchronous access is never waited for (no fence, arrive or await on its timeline captures it)}}
          rtest.example_wgmma %Dw, %Ac, %Ac : memref<128x32xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
          // expected-error @+1 {{RAW hazard: thread 0 of task 0 read D[0, 0, 0:32] on cuda_in_order_rmem, written by threads 0..127 of task 0 on wgmma_async_rmem_d without synchronization that orders it before}}
          rtest.in_order_op %Dw unit <warpgroup> over <thread> : memref<128x32xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>
        }
      }
    }
  }
}

// -----

// Section 2.2, third example (async instructions and inter-thread sync): the
// cluster-sync arrive/await orders every in-order access to B before the TMA
// multicast overwrites it, and the commit-group await orders each wgmma
// before the reads of D. But the arrive on the cluster barrier uses
// cuda_in_order, which does not wait for the asynchronous wgmma reads of B,
// and the commit-group await comes too late to help: the multicast of the
// other CTA may overwrite B while a wgmma still reads it.
// CHECK-LABEL: gpuir.proc @async_and_cluster_sync
gpuir.proc @async_and_cluster_sync(%n: index, %G: memref<?x64x64xf16, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 512}]} {
  gpuir.device_function cluster(2) block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %B = gpuir.alloc : memref<2x64x64xf16, #gpuir.smem>
      %D = gpuir.alloc : memref<2x256x32xf32, #gpuir.rmem>
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      gpuir.for %cta = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        %Bc = gpuir.window %B[%cta, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
        gpuir.for %wg = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
          %Dw = gpuir.window %D[%cta, %wg * 128 : %wg * 128 + 128, 0 : 32] : memref<2x256x32xf32, #gpuir.rmem> -> memref<128x32xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>
          rtest.in_order_op %Bc unit <warpgroup> read_only : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
          // expected-note @+1 {{the earlier read of B[0, 0:64, 0:64]}}
          rtest.example_wgmma %Dw, %Bc, %Bc : memref<128x32xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
          gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
        }
      }
      // CHECK: gpuir.arrive cuda_in_order >> %{{.*}} : !gpuir.barrier<cluster_sync>
      // expected-note @+1 {{this synchronization by threads 0..511 of task 0 does not include wgmma_async_smem in its first timeline, so it does not order the earlier access}}
      gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
      gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
      gpuir.for %cta = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %Gc = gpuir.window %G[%task, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
          // expected-error @+1 {{WAR hazard: thread 0 of task 0 write B[0:2, 0:64, 0:64] on tma_to_smem_async, read by threads 0..127 of task 0 on wgmma_async_smem without synchronization that orders it before}}
          rtest.example_tma_multicast %Gc, %B >> %full[%cta] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<2x64x64xf16, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
        }
        gpuir.for %wg = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
          %Dw = gpuir.window %D[%cta, %wg * 128 : %wg * 128 + 128, 0 : 32] : memref<2x256x32xf32, #gpuir.rmem> -> memref<128x32xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>
          gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
          rtest.in_order_op %Dw unit <warpgroup> over <thread> : memref<128x32xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>
        }
      }
    }
  }
}
