// One Sm80 instruction kernel for the sequential-meaning tests
// (test/Conversion/GpuIRToCPU/sm80-behaviors.mlir) and the GPU tests
// (test/GPU/sm80.mlir, which compare the sequential meaning with the
// hardware on random inputs).
//
// Four shuffles of X (one value per lane) into the rows of Y.
gpuir.proc @shuffles(%X: memref<32xi32, #gpuir.gmem>, %Y: memref<4x32xi32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %v = gpuir.alloc : memref<32xi32, #gpuir.rmem>
      %r = gpuir.alloc : memref<32x4xi32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%l] : memref<32xi32, #gpuir.gmem>
        gpuir.write %x, %v[%l] : memref<32xi32, #gpuir.rmem>
      }
      %r0 = gpuir.window %r[0 : 32, 0] : memref<32x4xi32, #gpuir.rmem> -> memref<32xi32, strided<[4]>, #gpuir.rmem>
      gpuir.sm80.shfl_bfly %r0, %v, 3 : memref<32xi32, strided<[4]>, #gpuir.rmem>, memref<32xi32, #gpuir.rmem>
      %r1 = gpuir.window %r[0 : 32, 1] : memref<32x4xi32, #gpuir.rmem> -> memref<32xi32, strided<[4], offset: 1>, #gpuir.rmem>
      gpuir.sm80.shfl_down %r1, %v, 5 : memref<32xi32, strided<[4], offset: 1>, #gpuir.rmem>, memref<32xi32, #gpuir.rmem>
      %r2 = gpuir.window %r[0 : 32, 2] : memref<32x4xi32, #gpuir.rmem> -> memref<32xi32, strided<[4], offset: 2>, #gpuir.rmem>
      gpuir.sm80.shfl_up %r2, %v, 7 : memref<32xi32, strided<[4], offset: 2>, #gpuir.rmem>, memref<32xi32, #gpuir.rmem>
      %r3 = gpuir.window %r[0 : 32, 3] : memref<32x4xi32, #gpuir.rmem> -> memref<32xi32, strided<[4], offset: 3>, #gpuir.rmem>
      gpuir.sm80.shfl_idx %r3, %v, 9 : memref<32xi32, strided<[4], offset: 3>, #gpuir.rmem>, memref<32xi32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 4 : seq {
          %y = gpuir.read %r[%l, %i] : memref<32x4xi32, #gpuir.rmem>
          gpuir.write %y, %Y[%i, %l] : memref<4x32xi32, #gpuir.gmem>
        }
      }
    }
  }
}
