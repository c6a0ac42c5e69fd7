// Sums over k of X[r, k, :], streamed through a two-stage ring of shared
// memory by a warp-specialized pair: the producer warpgroup (setmaxnreg.dec
// 40) copies slice k into stage k mod 2 with cp.async and signals the
// stage's "full" mbarrier when its copies land (cp.async.mbarrier.arrive);
// the consumer warpgroup (setmaxnreg.inc 232) waits on "full", adds the
// slice into its registers, and signals the stage's "empty" mbarrier, on
// which the producer waits before refilling the stage. "empty" starts
// arrived once (mbarrier_prearrive): both stages start free. The sums are
// added in order of k on the GPU as in the sequential meaning: bit-exact.
//
//   build/bin/rake-opt examples/ring_sums.mlir --rake-check
//   build/bin/rake-run --seq examples/ring_sums.mlir --sizes=rows=2,K=5 --shape=X=2x5,Y=2
//   build/bin/rake-translate --gpuir-to-ptx examples/ring_sums.mlir
gpuir.proc @ring_sums(%rows: index, %K: index, %X: memref<?x?x1024xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows, K) -> (rows, K, 1024)>}, %Y: memref<?x1024xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows, K) -> (rows, 1024)>})
    attributes {gpuir.check_sizes = [{rows = 2, K = 5}, {rows = 1, K = 1}]} {
  gpuir.device_function blocks_per_sm(1) warps(producer = 4 dec(40), consumer = 4 inc(232)) {
    gpuir.for %r = 0 to %rows : cuda_tasks {
      %ring = gpuir.alloc : memref<2x1024xf32, #gpuir.smem>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2]>
      %acc = gpuir.alloc : memref<128x8xf32, #gpuir.rmem>
      gpuir.warps "consumer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %i = 0 to 8 : seq {
            %zero = arith.constant 0.0 : f32
            gpuir.write %zero, %acc[%t, %i] : memref<128x8xf32, #gpuir.rmem>
          }
        }
      }
      gpuir.for %k = 0 to %K : seq {
        gpuir.warps "producer" {
          gpuir.await %empty[%k mod 2], cuda_in_order : !gpuir.barrier<mbarrier_prearrive [2]>
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %c = 0 to 2 : seq {
              %d = gpuir.window %ring[%k mod 2, (%c * 128 + %t) * 4 : (%c * 128 + %t) * 4 + 4] : memref<2x1024xf32, #gpuir.smem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.smem>
              %g = gpuir.window %X[%r, %k, (%c * 128 + %t) * 4 : (%c * 128 + %t) * 4 + 4] : memref<?x?x1024xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
              gpuir.sm80.cp_async %d, %g : memref<4xf32, strided<[1], offset: ?>, #gpuir.smem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
            }
          }
          gpuir.arrive Sm80_cp_async >> %full[%k mod 2] : !gpuir.barrier<mbarrier [2]>
        }
        gpuir.warps "consumer" {
          gpuir.await %full[%k mod 2], cuda_in_order : !gpuir.barrier<mbarrier [2]>
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %i = 0 to 8 : seq {
              %x = gpuir.read %ring[%k mod 2, %i * 128 + %t] : memref<2x1024xf32, #gpuir.smem>
              gpuir.reduce %x, %acc[%t, %i] : memref<128x8xf32, #gpuir.rmem>
            }
          }
          gpuir.arrive cuda_in_order >> %empty[%k mod 2] : !gpuir.barrier<mbarrier_prearrive [2]>
        }
      }
      gpuir.warps "consumer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %i = 0 to 8 : seq {
            %s = gpuir.read %acc[%t, %i] : memref<128x8xf32, #gpuir.rmem>
            gpuir.write %s, %Y[%r, %i * 128 + %t] : memref<?x1024xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}
