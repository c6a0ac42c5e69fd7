// A staging tile scoped by a one-iteration loop (test/SyncCheck/nested-free.mlir).
gpuir.proc @staging_tile(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>})
    attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %once = 0 to 1 : seq {
        %stage = gpuir.alloc : memref<128xf32, #gpuir.smem>
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %stage[%t] : memref<128xf32, #gpuir.smem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %stage[127 - %t] : memref<128xf32, #gpuir.smem>
          gpuir.write %v, %A[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}
