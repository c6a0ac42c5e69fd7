// A one-iteration warpgroup loop in a CTA of one warpgroup (test/Conversion/GpuIRToNVVM/nested-scopes.mlir).
gpuir.proc @one_warpgroup(%n: index, %A: memref<?xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %g = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 1.0 : f32
          gpuir.write %z, %A[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}
