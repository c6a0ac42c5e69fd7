// RUN: rake-opt %s -split-input-file | FileCheck %s
// RUN: rake-opt %s -split-input-file | rake-opt -split-input-file | FileCheck %s

// Instructions from another dialect (rtest) through the instruction
// interface: their parameters' memory types, element types and trailing
// barriers are checked by the interface's verifier.

// CHECK-LABEL: gpuir.proc @instructions
gpuir.proc @instructions(%n: index, %A: memref<2x64x64xf16, #gpuir.gmem>, %h: memref<4xf32, #gpuir.host>) {
  // CHECK: rtest.host_op %{{.*}} : memref<4xf32, #gpuir.host>
  rtest.host_op %h : memref<4xf32, #gpuir.host>
  gpuir.device_function cluster(2) block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %B = gpuir.alloc : memref<2x64x64xf16, #gpuir.smem>
      %D = gpuir.alloc : memref<256x32xf32, #gpuir.rmem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        %Bc = gpuir.window %B[%c, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
        // CHECK: rtest.in_order_op %{{.*}} unit <cta_in_cluster> : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
        rtest.in_order_op %Bc unit <cta_in_cluster> : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
        gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %Ac = gpuir.window %A[%c, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
          // CHECK: rtest.example_tma_multicast %{{.*}}, %{{.*}} >> %{{.*}}[%{{.*}}] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<2x64x64xf16, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
          rtest.example_tma_multicast %Ac, %B >> %bar[%c] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<2x64x64xf16, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
        }
        gpuir.for %wg = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
          %Dw = gpuir.window %D[%wg * 128 : %wg * 128 + 128, 0 : 32] : memref<256x32xf32, #gpuir.rmem> -> memref<128x32xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>
          // CHECK: rtest.example_wgmma %{{.*}}, %{{.*}}, %{{.*}} : memref<128x32xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
          rtest.example_wgmma %Dw, %Bc, %Bc : memref<128x32xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
        }
      }
    }
  }
}
