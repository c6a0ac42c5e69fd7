// The warp's vote (gpuir.sm80.ballot) for the sequential-meaning test
// (test/Conversion/GpuIRToCPU/sm80-behaviors.mlir) and the GPU test
// (test/GPU/sm80.mlir): Y[l] is the mask of the lanes l' with X[l'] != 0,
// the same for every lane.
gpuir.proc @ballot(%X: memref<32xi32, #gpuir.gmem>, %Y: memref<32xi32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %v = gpuir.alloc : memref<32xi32, #gpuir.rmem>
      %m = gpuir.alloc : memref<32xi32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%l] : memref<32xi32, #gpuir.gmem>
        gpuir.write %x, %v[%l] : memref<32xi32, #gpuir.rmem>
      }
      gpuir.sm80.ballot %m, %v : memref<32xi32, #gpuir.rmem>, memref<32xi32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %y = gpuir.read %m[%l] : memref<32xi32, #gpuir.rmem>
        gpuir.write %y, %Y[%l] : memref<32xi32, #gpuir.gmem>
      }
    }
  }
}
