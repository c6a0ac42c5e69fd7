// Corrected twin of a phase run-ahead (test/SyncCheck/mbarrier-phases.mlir):
// a two-slot ring with a "full" mbarrier per slot, a single producer thread
// and a consumer warpgroup. Y[r, t] = sum over k of X[r, k, t].
gpuir.proc @full_per_slot(%rows: index, %K: index, 
    %X: memref<?x?x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows, K) -> (rows, K, 128)>},
    %Y: memref<?x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows, K) -> (rows, 128)>})
    attributes {gpuir.check_sizes = [{rows = 2, K = 5}]} {
  gpuir.device_function warps(producer = 4, consumer = 4) {
    gpuir.for %r = 0 to %rows : cuda_tasks {
      %ring = gpuir.alloc : memref<2x128xf32, #gpuir.smem>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2]>
      %acc = gpuir.alloc : memref<128xf32, #gpuir.rmem>
      gpuir.warps "consumer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %zero = arith.constant 0.0 : f32
          gpuir.write %zero, %acc[%t] : memref<128xf32, #gpuir.rmem>
        }
      }
      gpuir.for %k = 0 to %K : seq {
        gpuir.warps "producer" {
          gpuir.for %p = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.await %empty[%k mod 2], cuda_in_order : !gpuir.barrier<mbarrier_prearrive [2]>
            gpuir.for %i = 0 to 128 : seq {
              %x = gpuir.read %X[%r, %k, %i] : memref<?x?x128xf32, #gpuir.gmem>
              gpuir.write %x, %ring[%k mod 2, %i] : memref<2x128xf32, #gpuir.smem>
            }
            gpuir.arrive cuda_in_order >> %full[%k mod 2] : !gpuir.barrier<mbarrier [2]>
          }
        }
        gpuir.warps "consumer" {
          gpuir.await %full[%k mod 2], cuda_in_order : !gpuir.barrier<mbarrier [2]>
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            %x = gpuir.read %ring[%k mod 2, %t] : memref<2x128xf32, #gpuir.smem>
            gpuir.reduce %x, %acc[%t] : memref<128xf32, #gpuir.rmem>
          }
          gpuir.arrive cuda_in_order >> %empty[%k mod 2] : !gpuir.barrier<mbarrier_prearrive [2]>
        }
      }
      gpuir.warps "consumer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %s = gpuir.read %acc[%t] : memref<128xf32, #gpuir.rmem>
          gpuir.write %s, %Y[%r, %t] : memref<?x128xf32, #gpuir.gmem>
        }
      }
    }
  }
}
