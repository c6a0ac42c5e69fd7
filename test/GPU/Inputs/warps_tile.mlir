// A staging tile inside a warps region (test/SyncCheck/nested-free.mlir).
gpuir.proc @warps_tile(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>})
    attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function warps(a = 4, b = 4) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.warps "a" {
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
