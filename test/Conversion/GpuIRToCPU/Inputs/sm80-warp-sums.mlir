// The warp's sum and inclusive scan in their published orders
// (gpuir.sm80.warp_sum, warp_scan) for the sequential-meaning test
// (test/Conversion/GpuIRToCPU/sm80-behaviors.mlir) and the GPU test
// (test/GPU/sm80.mlir, which compares the float bits): row 0 of Y is each
// lane's sum, row 1 its prefix sum.
gpuir.proc @warp_sums(%X: memref<32xf32, #gpuir.gmem>, %Y: memref<2x32xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %v = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      %r = gpuir.alloc : memref<32x2xf32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%l] : memref<32xf32, #gpuir.gmem>
        gpuir.write %x, %v[%l] : memref<32xf32, #gpuir.rmem>
      }
      %r0 = gpuir.window %r[0 : 32, 0] : memref<32x2xf32, #gpuir.rmem> -> memref<32xf32, strided<[2]>, #gpuir.rmem>
      gpuir.sm80.warp_sum %r0, %v : memref<32xf32, strided<[2]>, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
      %r1 = gpuir.window %r[0 : 32, 1] : memref<32x2xf32, #gpuir.rmem> -> memref<32xf32, strided<[2], offset: 1>, #gpuir.rmem>
      gpuir.sm80.warp_scan %r1, %v : memref<32xf32, strided<[2], offset: 1>, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 2 : seq {
          %y = gpuir.read %r[%l, %i] : memref<32x2xf32, #gpuir.rmem>
          gpuir.write %y, %Y[%i, %l] : memref<2x32xf32, #gpuir.gmem>
        }
      }
    }
  }
}
