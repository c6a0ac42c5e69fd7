// Two threads each commit one TMA store group (test/SyncCheck/commit-groups-per-thread.mlir).
gpuir.proc @two_committers(%n: index,
    %A: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128, 32)>},
    %C: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128, 32)>})
    attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function block(64) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %Cs = gpuir.alloc : memref<2x64x32xf32, #gpuir.smem>
      %g = gpuir.alloc : !gpuir.barrier<tma_store_group>
      gpuir.for %i = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %h = 0 to 2 : seq {
          gpuir.for %j = 0 to 32 : seq {
            %v = gpuir.read %A[%t * 128 + %h * 64 + %i, %j] : memref<?x?xf32, #gpuir.gmem>
            gpuir.write %v, %Cs[%h, %i, %j] : memref<2x64x32xf32, #gpuir.smem>
          }
        }
      }
      gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
      gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.if %w == 0 {
            %s0 = gpuir.window %Cs[0, 0 : 64, 0 : 32] : memref<2x64x32xf32, #gpuir.smem> -> memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.smem>
            %w0 = gpuir.window %C[%t * 128 : %t * 128 + 64, 0 : 32] : memref<?x?xf32, #gpuir.gmem> -> memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>
            gpuir.sm90a.tma_store %w0, %s0 : memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.smem>
            gpuir.arrive tma_to_gmem_async >> %g : !gpuir.barrier<tma_store_group>
          }
        }
      }
      gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.if %w == 1 {
            %s1 = gpuir.window %Cs[1, 0 : 64, 0 : 32] : memref<2x64x32xf32, #gpuir.smem> -> memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.smem>
            %w1 = gpuir.window %C[%t * 128 + 64 : %t * 128 + 128, 0 : 32] : memref<?x?xf32, #gpuir.gmem> -> memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>
            gpuir.sm90a.tma_store %w1, %s1 : memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.smem>
            gpuir.arrive tma_to_gmem_async >> %g : !gpuir.barrier<tma_store_group>
          }
        }
      }
      gpuir.await %g, cuda_in_order, outstanding(1), read : !gpuir.barrier<tma_store_group>
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %i = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %Cs[0, %i, 0] : memref<2x64x32xf32, #gpuir.smem>
      }
      gpuir.await %g, cuda_in_order, outstanding(0), read : !gpuir.barrier<tma_store_group>
    }
  }
}
