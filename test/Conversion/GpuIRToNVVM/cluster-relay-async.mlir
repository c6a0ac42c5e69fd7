// A relay through the async proxy: CTA 1 of a cluster of two stores a tile
// to G with TMA, waits for the store, and arrives on CTA 0's mbarrier rdy;
// CTA 0 awaits rdy and loads the tile of G with TMA. The check accepts it
// through the chain, so the remote arrive must release at cluster scope and
// the await acquire at cluster scope: a CTA-scope release in one CTA does
// not synchronize with an acquire in another, whatever proxy wrote the
// data (found by an adversarial review: code generation counted only
// generic-proxy writes and chose CTA scope here).
// RUN: rake-opt %s --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s
// CHECK: mbarrier.arrive.release.cluster.shared::cluster.b64
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared.b64
gpuir.proc @tma_relay(%n: index,
    %A: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 32)>},
    %G: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 32)>},
    %Z: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 32)>})
    attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %S = gpuir.alloc : memref<2x64x32xf32, #gpuir.smem>
      %fa = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %fb = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %rdy = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %g = gpuir.alloc : !gpuir.barrier<tma_store_group>
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
       gpuir.if %c == 1 {
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %s = gpuir.window %S[%c, 0 : 64, 0 : 32] : memref<2x64x32xf32, #gpuir.smem> -> memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.smem>
          %a = gpuir.window %A[%t * 64 : %t * 64 + 64, 0 : 32] : memref<?x?xf32, #gpuir.gmem> -> memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>
          gpuir.sm90a.tma_load %s, %a >> %fb[%c] : memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.smem>, memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [2]>
        }
        gpuir.await %fb[%c], cuda_in_order : !gpuir.barrier<mbarrier [2]>
        gpuir.fence cuda_in_order -> cuda_async_proxy
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %s = gpuir.window %S[%c, 0 : 64, 0 : 32] : memref<2x64x32xf32, #gpuir.smem> -> memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.smem>
          %w = gpuir.window %G[%t * 64 : %t * 64 + 64, 0 : 32] : memref<?x?xf32, #gpuir.gmem> -> memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>
          gpuir.sm90a.tma_store %w, %s : memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.smem>
          gpuir.arrive tma_to_gmem_async >> %g : !gpuir.barrier<tma_store_group>
          gpuir.await %g, cuda_in_order, outstanding(0) : !gpuir.barrier<tma_store_group>
        }
        gpuir.arrive cuda_in_order >> %rdy[%c - 1 : %c] : !gpuir.barrier<mbarrier [2]>
       }
      }
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
       gpuir.if %c == 0 {
        gpuir.await %rdy[%c], tma_to_smem_async : !gpuir.barrier<mbarrier [2]>
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %s = gpuir.window %S[%c, 0 : 64, 0 : 32] : memref<2x64x32xf32, #gpuir.smem> -> memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.smem>
          %w = gpuir.window %G[%t * 64 : %t * 64 + 64, 0 : 32] : memref<?x?xf32, #gpuir.gmem> -> memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>
          gpuir.sm90a.tma_load %s, %w >> %fa[%c] : memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.smem>, memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [2]>
        }
        gpuir.await %fa[%c], cuda_in_order : !gpuir.barrier<mbarrier [2]>
        gpuir.fence cuda_in_order -> cuda_async_proxy
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %s = gpuir.window %S[%c, 0 : 64, 0 : 32] : memref<2x64x32xf32, #gpuir.smem> -> memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.smem>
          %z = gpuir.window %Z[%t * 64 : %t * 64 + 64, 0 : 32] : memref<?x?xf32, #gpuir.gmem> -> memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>
          gpuir.sm90a.tma_store %z, %s : memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.smem>
          gpuir.arrive tma_to_gmem_async >> %g : !gpuir.barrier<tma_store_group>
          gpuir.await %g, cuda_in_order, outstanding(0) : !gpuir.barrier<tma_store_group>
        }
       }
      }
      gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
      gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
    }
  }
}
