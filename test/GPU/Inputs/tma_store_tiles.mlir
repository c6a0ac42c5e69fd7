// Each CTA copies a 64 x 32 tile of A into shared memory and stores it to C
// with one TMA store (cp.async.bulk.tensor global.shared::cta), completing in
// its thread's bulk group: C equals A.
gpuir.proc @tile_store(%n: index,
    %A: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 32)>},
    %C: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 32)>})
    attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %Cs = gpuir.alloc : memref<64x32xf32, #gpuir.smem>
      %g = gpuir.alloc : !gpuir.barrier<tma_store_group>
      gpuir.for %i = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 16 : seq {
          %v = gpuir.read %A[%t * 64 + %i floordiv 2, (%i mod 2) * 16 + %j] : memref<?x?xf32, #gpuir.gmem>
          gpuir.write %v, %Cs[%i floordiv 2, (%i mod 2) * 16 + %j] : memref<64x32xf32, #gpuir.smem>
        }
      }
      gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %w = gpuir.window %C[%t * 64 : %t * 64 + 64, 0 : 32] : memref<?x?xf32, #gpuir.gmem> -> memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>
        gpuir.sm90a.tma_store %w, %Cs : memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x32xf32, #gpuir.smem>
        gpuir.arrive tma_to_gmem_async >> %g : !gpuir.barrier<tma_store_group>
        gpuir.await %g, cuda_in_order, outstanding(0) : !gpuir.barrier<tma_store_group>
      }
    }
  }
}
