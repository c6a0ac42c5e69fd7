// Corrected twin of an arrive-count mismatch (test/SyncCheck/mbarrier-phases.mlir):
// both warpgroups of the arrive statement arrive on the mbarrier, which code
// generation initializes for their 256 threads. Each step, the warpgroups
// fill the halves of a shared row, meet on the mbarrier, and write the row
// reversed: Y[r, k, t] = X[r, k, 255 - t].
gpuir.proc @all_arrive(%rows: index, %K: index,
    %X: memref<?x?x256xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows, K) -> (rows, K, 256)>},
    %Y: memref<?x?x256xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows, K) -> (rows, K, 256)>})
    attributes {gpuir.check_sizes = [{rows = 2, K = 3}]} {
  gpuir.device_function block(256) {
    gpuir.for %r = 0 to %rows : cuda_tasks {
      %row = gpuir.alloc : memref<256xf32, #gpuir.smem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %k = 0 to %K : seq {
        gpuir.for %g = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            %x = gpuir.read %X[%r, %k, %g * 128 + %t] : memref<?x?x256xf32, #gpuir.gmem>
            gpuir.write %x, %row[%g * 128 + %t] : memref<256xf32, #gpuir.smem>
          }
          gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
        }
        gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
        gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %row[255 - %t] : memref<256xf32, #gpuir.smem>
          gpuir.write %v, %Y[%r, %k, %t] : memref<?x?x256xf32, #gpuir.gmem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
      }
    }
  }
}
