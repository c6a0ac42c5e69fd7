// Two cluster_sync variables interleaved (test/SyncCheck/cluster-barriers-interleaved.mlir).
gpuir.proc @two_cs(%n: index, %X: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>}, %Y: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>}, %Z: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>})
    attributes {gpuir.check_sizes = [{n = 4}]} {
  gpuir.device_function cluster(2) block(64) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %a = gpuir.alloc : !gpuir.barrier<cluster_sync>
      %b = gpuir.alloc : !gpuir.barrier<cluster_sync>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.if %c == 0 {
          gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
            %x = gpuir.read %X[%task, %t] : memref<?x64xf32, #gpuir.gmem>
            gpuir.write %x, %Y[%task, %t] : memref<?x64xf32, #gpuir.gmem>
          }
        }
      }
      gpuir.arrive cuda_in_order >> %a : !gpuir.barrier<cluster_sync>
      gpuir.arrive cuda_in_order >> %b : !gpuir.barrier<cluster_sync>
      gpuir.await %a, cuda_in_order : !gpuir.barrier<cluster_sync>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.if %c == 1 {
          gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
            %y = gpuir.read %Y[%task, %t] : memref<?x64xf32, #gpuir.gmem>
            gpuir.write %y, %Z[%task, %t] : memref<?x64xf32, #gpuir.gmem>
          }
        }
      }
      gpuir.await %b, cuda_in_order : !gpuir.barrier<cluster_sync>
    }
  }
}
