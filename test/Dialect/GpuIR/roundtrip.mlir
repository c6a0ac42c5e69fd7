// RUN: rake-opt %s | FileCheck %s
// RUN: rake-opt %s | rake-opt | FileCheck %s
// RUN: rake-opt -mlir-print-op-generic %s | rake-opt | FileCheck %s

// Every GpuIR operation in its custom form, printed back as written.

// CHECK-LABEL: gpuir.proc @callee
// CHECK-SAME: (%{{.*}}: index, %{{.*}}: memref<?xf32, #gpuir.gmem>)
gpuir.proc @callee(%n: index, %x: memref<?xf32, #gpuir.gmem>) {
}

// CHECK-LABEL: gpuir.proc @host_side
gpuir.proc @host_side(%n: index, %m: index, %A: memref<?x?xf16, #gpuir.gmem>) {
  // CHECK: %[[X:.*]] = gpuir.alloc(%{{.*}}) : memref<?xf32, #gpuir.gmem>
  %x = gpuir.alloc(%n) : memref<?xf32, #gpuir.gmem>
  // CHECK: gpuir.call @callee(%{{.*}}, %[[X]]) : (index, memref<?xf32, #gpuir.gmem>) -> ()
  gpuir.call @callee(%n, %x) : (index, memref<?xf32, #gpuir.gmem>) -> ()
  // CHECK: gpuir.alloc : memref<4xf32, #gpuir.host>
  %h = gpuir.alloc : memref<4xf32, #gpuir.host>
  // CHECK: gpuir.alloc : memref<2xi32, #gpuir.grid_constant>
  %g = gpuir.alloc : memref<2xi32, #gpuir.grid_constant>
  // CHECK: gpuir.alloc(%{{.*}}) : memref<?xf32, #gpuir.gmem_atomic16>
  %a16 = gpuir.alloc(%n) : memref<?xf32, #gpuir.gmem_atomic16>
  // CHECK: gpuir.for %[[I:.*]] = 0 to 4 : seq {
  gpuir.for %i = 0 to 4 : seq {
    // CHECK: %[[V:.*]] = gpuir.read %{{.*}}[%[[I]]] : memref<4xf32, #gpuir.host>
    %v = gpuir.read %h[%i] : memref<4xf32, #gpuir.host>
    // CHECK: gpuir.reduce %[[V]], %{{.*}}[-%[[I]] + 3] : memref<4xf32, #gpuir.host>
    gpuir.reduce %v, %h[3 - %i] : memref<4xf32, #gpuir.host>
  }
  // CHECK: gpuir.fence cuda_stream_sync -> cpu_in_order
  gpuir.fence cuda_stream_sync -> cpu_in_order
  // CHECK: gpuir.fence cpu_in_order -> cpu_in_order
  gpuir.fence cpu_in_order -> cpu_in_order
  // CHECK: gpuir.free %[[X]] : memref<?xf32, #gpuir.gmem>
  gpuir.free %x : memref<?xf32, #gpuir.gmem>
}

// CHECK-LABEL: gpuir.proc @device_side
gpuir.proc @device_side(%n: index, %A: memref<?x64xf32, #gpuir.gmem>) {
  // CHECK: gpuir.device_function cluster(2) blocks_per_sm(2) block(256) {
  gpuir.device_function cluster(2) blocks_per_sm(2) block(256) {
    // CHECK: gpuir.for %[[T0:.*]] = 0 to %{{.*}} ceildiv 2 : cuda_tasks {
    gpuir.for %t0 = 0 to %n ceildiv 2 : cuda_tasks {
      // CHECK: gpuir.for %[[T1:.*]] = 0 to 2 : cuda_tasks {
      gpuir.for %t1 = 0 to 2 : cuda_tasks {
        // CHECK: gpuir.alloc : memref<2x64xf32, #gpuir.smem>
        %s = gpuir.alloc : memref<2x64xf32, #gpuir.smem>
        // CHECK: gpuir.alloc : memref<64xf32, #gpuir.smem_atomic16>
        %s16 = gpuir.alloc : memref<64xf32, #gpuir.smem_atomic16>
        // CHECK: gpuir.alloc : memref<64x64xf16, #gpuir.smem_swizzled<128>>
        %sw = gpuir.alloc : memref<64x64xf16, #gpuir.smem_swizzled<128>>
        // CHECK: gpuir.alloc : memref<256x8xf32, #gpuir.rmem>
        %r = gpuir.alloc : memref<256x8xf32, #gpuir.rmem>
        // CHECK: gpuir.alloc : memref<8xi32, #gpuir.urmem>
        %u = gpuir.alloc : memref<8xi32, #gpuir.urmem>
        // CHECK: gpuir.for %[[C:.*]] = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          // CHECK: gpuir.for %[[W:.*]] = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
          gpuir.for %w = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
            // CHECK: gpuir.for %[[L:.*]] = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              // CHECK: gpuir.read %{{.*}}[(%[[T0]] * 2 + %[[T1]]) * 2 + %[[C]], %[[W]] * 8 + %[[L]] floordiv 4]
              %v = gpuir.read %A[(%t0 * 2 + %t1) * 2 + %c, %w * 8 + %l floordiv 4] : memref<?x64xf32, #gpuir.gmem>
              // CHECK: gpuir.write %{{.*}}, %{{.*}}[%[[W]] * 32 + %[[L]], 0] : memref<256x8xf32, #gpuir.rmem>
              gpuir.write %v, %r[%w * 32 + %l, 0] : memref<256x8xf32, #gpuir.rmem>
            }
          }
          // CHECK: gpuir.fence cuda_in_order -> cuda_in_order
          gpuir.fence cuda_in_order -> cuda_in_order
        }
        // CHECK: gpuir.for %{{.*}} = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
        gpuir.for %g = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
        }
        // CHECK: cuda_threads<#gpuir.unit<quadpair>>
        gpuir.for %q = 0 to 2 : cuda_threads<#gpuir.unit<quadpair>> {
        }
        // CHECK: cuda_threads<#gpuir.unit<8 x thread>>
        gpuir.for %e = 0 to 32 : cuda_threads<#gpuir.unit<8 x thread>> {
        }
        // CHECK: cuda_threads<#gpuir.unit<cluster>>
        gpuir.for %k = 0 to 1 : cuda_threads<#gpuir.unit<cluster>> {
        }
        // CHECK: cuda_threads<#gpuir.unit<warp_in_cluster>>
        gpuir.for %k = 0 to 16 : cuda_threads<#gpuir.unit<warp_in_cluster>> {
        }
        // CHECK: cuda_threads<#gpuir.unit<cta_in_cluster_strided(2)>>
        gpuir.for %k = 0 to 1 : cuda_threads<#gpuir.unit<cta_in_cluster_strided(2)>> {
        }
        // CHECK: cuda_threads<#gpuir.unit<warp_in_cluster_strided(2)>>
        gpuir.for %k = 0 to 8 : cuda_threads<#gpuir.unit<warp_in_cluster_strided(2)>> {
        }
        // CHECK: gpuir.if %[[T1]] < 1 and %[[T0]] * 2 >= %{{.*}} {
        // CHECK: } else {
        gpuir.if %t1 < 1 and %t0 * 2 >= %n {
          gpuir.fence Sm80_generic -> cuda_in_order
        } else {
          gpuir.fence cuda_in_order -> cuda_temporal
        }
        // CHECK: gpuir.if %[[T1]] == 0 {
        // CHECK-NOT: else
        gpuir.if %t1 == 0 {
        }
        // CHECK: gpuir.if %[[T1]] <= 1 and %[[T1]] > 0 {
        gpuir.if %t1 <= 1 and %t1 > 0 {
        }
        // CHECK: %[[WIN:.*]] = gpuir.window %{{.*}}[%[[T1]], 0 : 32] : memref<2x64xf32, #gpuir.smem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.smem>
        %win = gpuir.window %s[%t1, 0 : 32] : memref<2x64xf32, #gpuir.smem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.smem>
        // CHECK: gpuir.free %{{.*}} : memref<2x64xf32, #gpuir.smem>
        gpuir.free %s : memref<2x64xf32, #gpuir.smem>
      }
    }
  }
}

// CHECK-LABEL: gpuir.proc @sync
gpuir.proc @sync(%n: index) {
  // CHECK: gpuir.device_function cluster(2) warps(producer = 1 dec(40), consumer = 8 inc(200), idle = 1) {
  gpuir.device_function cluster(2) warps(producer = 1 dec(40), consumer = 8 inc(200), idle = 1) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // CHECK: %[[FULL:.*]] = gpuir.alloc : !gpuir.barrier<mbarrier [4]>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier [4]>
      // CHECK: %[[EMPTY:.*]] = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2, 4]>
      %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2, 4]>
      // CHECK: %[[CS:.*]] = gpuir.alloc : !gpuir.barrier<cluster_sync>
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      // CHECK: %[[CG:.*]] = gpuir.alloc : !gpuir.barrier<cp_async_group>
      %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
      // CHECK: %[[TS:.*]] = gpuir.alloc : !gpuir.barrier<tma_store_group>
      %ts = gpuir.alloc : !gpuir.barrier<tma_store_group>
      // CHECK: %[[WG:.*]] = gpuir.alloc : !gpuir.barrier<wgmma_group>
      %wg = gpuir.alloc : !gpuir.barrier<wgmma_group>
      // CHECK: gpuir.warps "producer" {
      gpuir.warps "producer" {
        gpuir.for %k = 0 to 16 : seq {
          // CHECK: gpuir.await %[[EMPTY]][0, %{{.*}} mod 4], cuda_in_order, lag(1) : !gpuir.barrier<mbarrier_prearrive [2, 4]>
          gpuir.await %empty[0, %k mod 4], cuda_in_order, lag(1) : !gpuir.barrier<mbarrier_prearrive [2, 4]>
          // CHECK: gpuir.arrive cuda_in_order >> %[[FULL]][%{{.*}} mod 4] : !gpuir.barrier<mbarrier [4]>
          gpuir.arrive cuda_in_order >> %full[%k mod 4] : !gpuir.barrier<mbarrier [4]>
        }
      }
      // CHECK: gpuir.warps "consumer"[0 : 4] {
      gpuir.warps "consumer"[0 : 4] {
        gpuir.for %k = 0 to 16 : seq {
          // CHECK: gpuir.await %[[FULL]][%{{.*}} mod 4], wgmma_async_smem : !gpuir.barrier<mbarrier [4]>
          gpuir.await %full[%k mod 4], wgmma_async_smem : !gpuir.barrier<mbarrier [4]>
          // CHECK: gpuir.await %[[FULL]][%{{.*}} mod 4], wgmma_async_smem, skip : !gpuir.barrier<mbarrier [4]>
          gpuir.await %full[%k mod 4], wgmma_async_smem, skip : !gpuir.barrier<mbarrier [4]>
          // CHECK: gpuir.arrive wgmma_async >> %[[WG]] : !gpuir.barrier<wgmma_group>
          gpuir.arrive wgmma_async >> %wg : !gpuir.barrier<wgmma_group>
          // CHECK: gpuir.await %[[WG]], cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
          gpuir.await %wg, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
          // CHECK: gpuir.await %[[TS]], cuda_in_order, outstanding(1), read : !gpuir.barrier<tma_store_group>
          gpuir.await %ts, cuda_in_order, outstanding(1), read : !gpuir.barrier<tma_store_group>
          // CHECK: gpuir.arrive cuda_in_order >> %[[EMPTY]][0 : 2, %{{.*}} mod 4] : !gpuir.barrier<mbarrier_prearrive [2, 4]>
          gpuir.arrive cuda_in_order >> %empty[0 : 2, %k mod 4] : !gpuir.barrier<mbarrier_prearrive [2, 4]>
        }
      }
      // CHECK: gpuir.arrive Sm80_cp_async >> %[[CG]] : !gpuir.barrier<cp_async_group>
      gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
      // CHECK: gpuir.await %[[CG]], Sm80_generic, outstanding(0) : !gpuir.barrier<cp_async_group>
      gpuir.await %cg, Sm80_generic, outstanding(0) : !gpuir.barrier<cp_async_group>
      // CHECK: gpuir.arrive tma_to_gmem_async >> %[[TS]] : !gpuir.barrier<tma_store_group>
      gpuir.arrive tma_to_gmem_async >> %ts : !gpuir.barrier<tma_store_group>
      // CHECK: gpuir.await %[[TS]], cuda_generic_and_async_proxy : !gpuir.barrier<tma_store_group>
      gpuir.await %ts, cuda_generic_and_async_proxy : !gpuir.barrier<tma_store_group>
      // CHECK: gpuir.arrive cuda_in_order >> %[[CS]] : !gpuir.barrier<cluster_sync>
      gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
      // CHECK: gpuir.await %[[CS]], cuda_in_order : !gpuir.barrier<cluster_sync>
      gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
      // CHECK: gpuir.fence wgmma_fence_1 -> wgmma_fence_2
      gpuir.fence wgmma_fence_1 -> wgmma_fence_2
      // CHECK: gpuir.fence cuda_generic_and_async_proxy -> cuda_async_proxy
      gpuir.fence cuda_generic_and_async_proxy -> cuda_async_proxy
      // CHECK: gpuir.fence tma_to_smem_async -> cuda_async_proxy_wgmma
      gpuir.fence tma_to_smem_async -> cuda_async_proxy_wgmma
      // CHECK: gpuir.fence wgmma_async -> wgmma_async_smem
      gpuir.fence wgmma_async -> wgmma_async_smem
      // CHECK: gpuir.fence tma_to_gmem_async -> Sm80_cp_async
      gpuir.fence tma_to_gmem_async -> Sm80_cp_async
      // CHECK: gpuir.free %[[FULL]] : !gpuir.barrier<mbarrier [4]>
      gpuir.free %full : !gpuir.barrier<mbarrier [4]>
    }
  }
}

// A TMA copy with its trailing mbarrier, and a multicast into the parts of
// both CTAs of a cluster completing on each one's mbarrier.
// CHECK-LABEL: gpuir.proc @tma_trailing
// CHECK: gpuir.sm90a.tma_load %{{.*}}, %{{.*}} >> %{{.*}}[%{{.*}}, 1] : memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier [2, 2]>
// CHECK: gpuir.sm90a.tma_load %{{.*}}, %{{.*}} >> %{{.*}}[0 : 2, 1] : memref<2x64x64xbf16, strided<[8192, 64, 1], offset: 4096>, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier [2, 2]>
gpuir.proc @tma_trailing(%n: index, %A: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function cluster(2) block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2, 2]>
      %s = gpuir.alloc : memref<2x2x64x64xbf16, #gpuir.smem>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %w = gpuir.window %s[%c, 1, 0 : 64, 0 : 64] : memref<2x2x64x64xbf16, #gpuir.smem> -> memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem>
          gpuir.sm90a.tma_load %w, %A >> %bar[%c, 1] : memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier [2, 2]>
          %m = gpuir.window %s[0 : 2, 1, 0 : 64, 0 : 64] : memref<2x2x64x64xbf16, #gpuir.smem> -> memref<2x64x64xbf16, strided<[8192, 64, 1], offset: 4096>, #gpuir.smem>
          gpuir.sm90a.tma_load %m, %A >> %bar[0 : 2, 1] : memref<2x64x64xbf16, strided<[8192, 64, 1], offset: 4096>, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier [2, 2]>
        }
      }
    }
  }
}

// A TMA store of a shared tile into a window of C, committed to its bulk
// group and waited for.
// CHECK-LABEL: gpuir.proc @tma_store
// CHECK: gpuir.sm90a.tma_store %{{.*}}, %{{.*}} : memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x32xf32, #gpuir.smem>
// CHECK: gpuir.arrive tma_to_gmem_async >> %{{.*}} : !gpuir.barrier<tma_store_group>
// CHECK: gpuir.await %{{.*}}, cuda_in_order, outstanding(0) : !gpuir.barrier<tma_store_group>
gpuir.proc @tma_store(%n: index, %C: memref<?x?xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x32xf32, #gpuir.smem>
      %g = gpuir.alloc : !gpuir.barrier<tma_store_group>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %w = gpuir.window %C[%t * 64 : %t * 64 + 64, 0 : 32] : memref<?x?xf32, #gpuir.gmem> -> memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>
        gpuir.sm90a.tma_store %w, %s : memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x32xf32, #gpuir.smem>
        gpuir.arrive tma_to_gmem_async >> %g : !gpuir.barrier<tma_store_group>
        gpuir.await %g, cuda_in_order, outstanding(0) : !gpuir.barrier<tma_store_group>
      }
    }
  }
}
