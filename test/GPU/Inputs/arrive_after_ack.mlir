// Corrected twin of an arrive into an unfinished phase
// (test/SyncCheck/mbarrier-phases.mlir): the signalling warpgroup fills a
// shared row and arrives on "bar" only after the waiting warpgroup
// acknowledged the previous phase on "ack". Y[r, k, t] = X[r, k, 127 - t].
gpuir.proc @arrive_after_ack(%rows: index, %K: index,
    %X: memref<?x?x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows, K) -> (rows, K, 128)>},
    %Y: memref<?x?x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows, K) -> (rows, K, 128)>})
    attributes {gpuir.check_sizes = [{rows = 2, K = 3}]} {
  gpuir.device_function warps(signal = 4, wait = 4) {
    gpuir.for %r = 0 to %rows : cuda_tasks {
      %row = gpuir.alloc : memref<128xf32, #gpuir.smem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %ack = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive>
      gpuir.for %k = 0 to %K : seq {
        gpuir.warps "signal" {
          gpuir.await %ack, cuda_in_order : !gpuir.barrier<mbarrier_prearrive>
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            %x = gpuir.read %X[%r, %k, %t] : memref<?x?x128xf32, #gpuir.gmem>
            gpuir.write %x, %row[%t] : memref<128xf32, #gpuir.smem>
          }
          gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
        }
        gpuir.warps "wait" {
          gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            %v = gpuir.read %row[127 - %t] : memref<128xf32, #gpuir.smem>
            gpuir.write %v, %Y[%r, %k, %t] : memref<?x?x128xf32, #gpuir.gmem>
          }
          gpuir.arrive cuda_in_order >> %ack : !gpuir.barrier<mbarrier_prearrive>
        }
      }
    }
  }
}
