// Shared memory reused across proxies: sibling blocks' buffers share their
// offsets (code generation lays them out like a stack), so the TMA copy into
// %Y writes the bytes the threads wrote into %X through the generic proxy.
// The check orders the reuse in time (the fence between the blocks), which
// does not order accesses of different proxies; code generation therefore
// puts fence.proxy.async before every in-order fence (and the task's end)
// of a kernel where a TMA copy may write bytes the generic proxy wrote in
// another buffer's lifetime (found by review).
// RUN: rake-opt %s --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s
// CHECK: st.shared
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync 0;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global
gpuir.proc @reuse(%n: index,
    %A: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 32)>},
    %B: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 32)>},
    %C: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 32)>},
    %D: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 32)>})
    attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %full = gpuir.alloc : !gpuir.barrier<mbarrier [1]>
      gpuir.for %s = 0 to 1 : seq {
        %X = gpuir.alloc : memref<64x32xf32, #gpuir.smem>
        gpuir.for %i = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %j = 0 to 16 : seq {
            %v = gpuir.read %A[%t * 64 + %i floordiv 2, (%i mod 2) * 16 + %j] : memref<?x?xf32, #gpuir.gmem>
            gpuir.write %v, %X[%i floordiv 2, (%i mod 2) * 16 + %j] : memref<64x32xf32, #gpuir.smem>
            %u = gpuir.read %X[%i floordiv 2, (%i mod 2) * 16 + %j] : memref<64x32xf32, #gpuir.smem>
            gpuir.write %u, %D[%t * 64 + %i floordiv 2, (%i mod 2) * 16 + %j] : memref<?x?xf32, #gpuir.gmem>
          }
        }
        gpuir.fence cuda_in_order -> cuda_in_order
      }
      gpuir.for %s = 0 to 1 : seq {
        %Y = gpuir.alloc : memref<64x32xf32, #gpuir.smem>
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %g = gpuir.window %B[%t * 64 : %t * 64 + 64, 0 : 32] : memref<?x?xf32, #gpuir.gmem>
          gpuir.sm90a.tma_load %Y, %g >> %full[0] : memref<64x32xf32, #gpuir.smem>, memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [1]>
        }
        gpuir.await %full[0], cuda_in_order : !gpuir.barrier<mbarrier [1]>
        gpuir.for %i = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %j = 0 to 16 : seq {
            %v = gpuir.read %Y[%i floordiv 2, (%i mod 2) * 16 + %j] : memref<64x32xf32, #gpuir.smem>
            gpuir.write %v, %C[%t * 64 + %i floordiv 2, (%i mod 2) * 16 + %j] : memref<?x?xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}
