// A shared buffer allocated inside gpuir.if (test/Conversion/GpuIRToNVVM/nested-scopes.mlir).
gpuir.proc @if_alloc(%n: index, %A: memref<?xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.if %task < 1 {
        %s = gpuir.alloc : memref<128xf32, #gpuir.smem>
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 1.0 : f32
          gpuir.write %z, %s[%t] : memref<128xf32, #gpuir.smem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %s[127 - %t] : memref<128xf32, #gpuir.smem>
          gpuir.write %v, %A[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
      }
    }
  }
}
