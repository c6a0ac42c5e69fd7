// RUN: rake-opt %s --convert-gpuir-to-nvvm | FileCheck %s

// Each of a warp's 32 lanes copies one row: the mbarrier counts 32
// arrivals (each copy is its own arrival, expect_tx of its 128 bytes), not
// one a warp as for in-order arrives by whole warps.
// CHECK-LABEL: gpu.func @lane_rows
// CHECK: nvgpu.mbarrier.init %{{.*}}[%{{.*}}], %c32
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c128
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
gpuir.proc @lane_rows(%n: index, %A: memref<?x64xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 32, 64)>}) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %S = gpuir.alloc : memref<32x64xbf16, #gpuir.smem>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %s = gpuir.window %S[%l : %l + 1, 0 : 64] : memref<32x64xbf16, #gpuir.smem>
        %g = gpuir.window %A[%t * 32 + %l : %t * 32 + %l + 1, 0 : 64] : memref<?x64xbf16, #gpuir.gmem>
        gpuir.sm90a.tma_load %s, %g >> %full : memref<1x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<1x64xbf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
      gpuir.await %full, cuda_in_order : !gpuir.barrier<mbarrier>
    }
  }
}
