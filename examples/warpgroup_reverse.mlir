// Reverse every 128-element tile of X in place, one tile per warpgroup: each
// CTA of two warpgroups stages 256 values in shared memory, and each
// warpgroup meets only its own threads at a warpgroup fence, a named barrier
// (bar.sync 1 + tid / 128, 128) rather than the whole CTA's.
//
//   build/bin/rake-opt examples/warpgroup_reverse.mlir --rake-check
//   build/bin/rake-translate --gpuir-to-ptx examples/warpgroup_reverse.mlir
gpuir.proc @warpgroup_reverse(%n: index, %X: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 256)>})
    attributes {gpuir.check_sizes = [{n = 8}, {n = 3}]} {
  gpuir.device_function blocks_per_sm(4) block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %g = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %X[%task * 256 + %g * 128 + %t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %s[%g * 128 + %t] : memref<256xf32, #gpuir.smem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %s[%g * 128 + 127 - %t] : memref<256xf32, #gpuir.smem>
          gpuir.write %v, %X[%task * 256 + %g * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}
