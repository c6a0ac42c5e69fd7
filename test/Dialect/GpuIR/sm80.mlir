// RUN: rake-opt %s | FileCheck %s
// RUN: rake-opt %s | rake-opt | FileCheck %s

// The Sm80 instructions parse and print in their custom forms.
// CHECK-LABEL: gpuir.proc @sm80
gpuir.proc @sm80(%n: index, %G: memref<?xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %S = gpuir.alloc : memref<16x16xbf16, #gpuir.smem>
      %A = gpuir.alloc : memref<32x8xbf16, #gpuir.rmem>
      %B = gpuir.alloc : memref<32x4xbf16, #gpuir.rmem>
      %D = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %V = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %s = gpuir.window %S[%l floordiv 2, (%l mod 2) * 8 : (%l mod 2) * 8 + 8] : memref<16x16xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
        %g = gpuir.window %G[%t * 256 + %l * 8 : %t * 256 + %l * 8 + 8] : memref<?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
        // CHECK: gpuir.sm80.cp_async %{{.*}}, %{{.*}} : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
        gpuir.sm80.cp_async %s, %g : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
        // CHECK: gpuir.sm80.cp_async %{{.*}}, %{{.*}} fill(%{{.*}}) :
        gpuir.sm80.cp_async %s, %g fill(%n) : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
      }
      // CHECK: gpuir.sm80.ldmatrix %{{.*}}, %{{.*}} : memref<32x8xbf16, #gpuir.rmem>, memref<16x16xbf16, #gpuir.smem>
      gpuir.sm80.ldmatrix %A, %S : memref<32x8xbf16, #gpuir.rmem>, memref<16x16xbf16, #gpuir.smem>
      %S2 = gpuir.window %S[0 : 16, 0 : 8] : memref<16x16xbf16, #gpuir.smem> -> memref<16x8xbf16, strided<[16, 1]>, #gpuir.smem>
      // CHECK: gpuir.sm80.ldmatrix %{{.*}}, %{{.*}} trans : memref<32x4xbf16, #gpuir.rmem>, memref<16x8xbf16, strided<[16, 1]>, #gpuir.smem>
      gpuir.sm80.ldmatrix %B, %S2 trans : memref<32x4xbf16, #gpuir.rmem>, memref<16x8xbf16, strided<[16, 1]>, #gpuir.smem>
      // CHECK: gpuir.sm80.mma_sync %{{.*}}, %{{.*}}, %{{.*}} : memref<32x4xf32, #gpuir.rmem>, memref<32x8xbf16, #gpuir.rmem>, memref<32x4xbf16, #gpuir.rmem>
      gpuir.sm80.mma_sync %D, %A, %B : memref<32x4xf32, #gpuir.rmem>, memref<32x8xbf16, #gpuir.rmem>, memref<32x4xbf16, #gpuir.rmem>
      // CHECK: gpuir.sm80.shfl_bfly %{{.*}}, %{{.*}}, 16 : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
      gpuir.sm80.shfl_bfly %V, %V, 16 : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
      // CHECK: gpuir.sm80.shfl_down %{{.*}}, %{{.*}}, 1 :
      gpuir.sm80.shfl_down %V, %V, 1 : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
      // CHECK: gpuir.sm80.shfl_up %{{.*}}, %{{.*}}, 2 :
      gpuir.sm80.shfl_up %V, %V, 2 : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
      // CHECK: gpuir.sm80.shfl_idx %{{.*}}, %{{.*}}, 0 :
      gpuir.sm80.shfl_idx %V, %V, 0 : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
    }
  }
}
