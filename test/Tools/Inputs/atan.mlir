// A procedure with math.atan, which has no exact lowering (test/Tools/rake-run-errors.mlir).
gpuir.proc @l(%X: memref<128xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<128xf32, #gpuir.gmem>
        %y = math.atan %x : f32
        gpuir.write %y, %X[%t] : memref<128xf32, #gpuir.gmem>
      }
    }
  }
}
