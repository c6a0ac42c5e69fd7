// reverse_tiles (examples/) with 65 KiB of shared buffers, two CTAs per SM:
// more dynamic shared memory than a launch gets without the opt-in (48 KiB).
// The layout puts %tile at 0 and %pad at 65536 (128-byte aligned), so the
// launch shape records 256 threads, 2 CTAs per SM and 66560 bytes.
gpuir.proc @big_tiles(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 256)>}, %B: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 256)>})
    attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function blocks_per_sm(2) block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %tile = gpuir.alloc : memref<16384xf32, #gpuir.smem>
      %pad = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
        gpuir.write %v, %tile[%t * 64] : memref<16384xf32, #gpuir.smem>
        gpuir.write %v, %pad[%t] : memref<256xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tile[16320 - %t * 64] : memref<16384xf32, #gpuir.smem>
        gpuir.write %v, %B[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
