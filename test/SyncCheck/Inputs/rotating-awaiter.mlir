// The warp that awaits the mbarrier changes with the task (task mod 5),
// for test/SyncCheck/await-same-threads-every-task.mlir.
gpuir.proc @rotating_awaiter(%n: index, %X: memref<?x160xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 160)>},
    %Y: memref<?x160xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 160)>})
    attributes {gpuir.check_sizes = [{n = 7}]} {
  gpuir.device_function block(160) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<160xf32, #gpuir.smem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 160 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%task, %t] : memref<?x160xf32, #gpuir.gmem>
        gpuir.write %x, %s[%t] : memref<160xf32, #gpuir.smem>
      }
      gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
      gpuir.for %w = 0 to 5 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.if %w == %task mod 5 {
          gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
          gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %j = 0 to 5 : seq {
              %y = gpuir.read %s[%j * 32 + %t] : memref<160xf32, #gpuir.smem>
              gpuir.write %y, %Y[%task, %j * 32 + %t] : memref<?x160xf32, #gpuir.gmem>
            }
          }
        }
      }
    }
  }
}
