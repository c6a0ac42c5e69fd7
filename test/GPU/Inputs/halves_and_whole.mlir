// Groups of 64 and of 128 threads synchronizing on named barriers at the
// same time (test/Conversion/GpuIRToNVVM/named-barriers.mlir): warp group
// "a" reverses each 64-element half of its row in shared memory, "b" its
// whole 128-element row. Y[r, t] = X[r, ...] reversed within each part.
gpuir.proc @halves_and_whole(%rows: index,
    %X: memref<?x256xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 256)>},
    %Y: memref<?x256xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 256)>})
    attributes {gpuir.check_sizes = [{rows = 3}]} {
  gpuir.device_function warps(a = 4, b = 4) {
    gpuir.for %r = 0 to %rows : cuda_tasks {
      %row = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.warps "a" {
        gpuir.for %h = 0 to 2 : cuda_threads<#gpuir.unit<2 x warp>> {
          gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
            %x = gpuir.read %X[%r, %h * 64 + %t] : memref<?x256xf32, #gpuir.gmem>
            gpuir.write %x, %row[%h * 64 + %t] : memref<256xf32, #gpuir.smem>
          }
          gpuir.fence cuda_in_order -> cuda_in_order
          gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
            %v = gpuir.read %row[%h * 64 + 63 - %t] : memref<256xf32, #gpuir.smem>
            gpuir.write %v, %Y[%r, %h * 64 + %t] : memref<?x256xf32, #gpuir.gmem>
          }
        }
      }
      gpuir.warps "b" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %x = gpuir.read %X[%r, 128 + %t] : memref<?x256xf32, #gpuir.gmem>
          gpuir.write %x, %row[128 + %t] : memref<256xf32, #gpuir.smem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %row[255 - %t] : memref<256xf32, #gpuir.smem>
          gpuir.write %v, %Y[%r, 128 + %t] : memref<?x256xf32, #gpuir.gmem>
        }
      }
    }
  }
}
