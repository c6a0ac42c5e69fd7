// An mbarrier awaited by the same threads from two collectives (test/SyncCheck/await-two-collectives.mlir).
gpuir.proc @mixed_awaiters(%n: index, %X: memref<?x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 128)>})
    attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<128xf32, #gpuir.smem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %k = 0 to %n : seq {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %x = gpuir.read %X[%k, %t] : memref<?x128xf32, #gpuir.gmem>
          gpuir.write %x, %s[%t] : memref<128xf32, #gpuir.smem>
        }
        gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
        gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
          %y = gpuir.read %s[127 - %t] : memref<128xf32, #gpuir.smem>
          gpuir.write %y, %X[%k, %t] : memref<?x128xf32, #gpuir.gmem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
      }
    }
  }
}
