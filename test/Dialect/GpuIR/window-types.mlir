// RUN: rake-opt %s -split-input-file | FileCheck %s
// RUN: rake-opt %s -split-input-file | rake-opt -split-input-file | FileCheck %s


// A window's type may be left out after its source's: the intervals give
// the shape (static where hi - lo is a constant), the source its strides,
// the offset is dynamic, element and memory type are the source's.

// CHECK-LABEL: gpuir.proc @inferred
gpuir.proc @inferred(%k: index, %n: index, %A: memref<?x?xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %As = gpuir.alloc : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>>
      // CHECK: gpuir.window %{{.*}}[%k mod 4, 0 : 256, 0 : 64] : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>> -> memref<256x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %sa = gpuir.window %As[%k mod 4, 0 : 256, 0 : 64] : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>>
      // CHECK: gpuir.window %{{.*}}[%k * 64 : %k * 64 + 64, 3] : memref<?x?xbf16, #gpuir.gmem> -> memref<64xbf16, strided<[?], offset: ?>, #gpuir.gmem>
      %ga = gpuir.window %A[%k * 64 : %k * 64 + 64, 3] : memref<?x?xbf16, #gpuir.gmem>
      // An extent known only at run time is dynamic.
      // CHECK: gpuir.window %{{.*}}[0 : %n, 0 : 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<?x8xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>
      %gn = gpuir.window %A[0 : %n, 0 : 8] : memref<?x?xbf16, #gpuir.gmem>
      // hi - lo is simplified: constants in both sums cancel (before, this
      // window came out ?x64).
      // CHECK: gpuir.window %{{.*}}[%n * 512 + 128 : %n * 512 + 256, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem> -> memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>
      %gc = gpuir.window %A[%n * 512 + 128 : %n * 512 + 256, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
    }
  }
}
