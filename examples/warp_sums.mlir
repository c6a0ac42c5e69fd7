// Sums of 32 integers, one per warp: each CTA of 128 threads (4 warps) takes
// a row of 128 values of X. Each lane stages its value (doubled) in shared
// memory; the warp meets at a warp fence (bar.warp.sync); then one lane per
// warp adds up its warp's 32 staged values and writes the sum to S.
//
//   build/bin/rake-opt examples/warp_sums.mlir --rake-check
//   build/bin/rake-run --seq examples/warp_sums.mlir --shape=X=64,S=64 --print=S
//   build/bin/rake-translate --gpuir-to-ptx examples/warp_sums.mlir
gpuir.proc @warp_sums(%rows: index, %X: memref<?x128xi32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 128)>}, %S: memref<?x4xi32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 4)>})
    attributes {gpuir.check_sizes = [{rows = 64}, {rows = 5}]} {
  gpuir.device_function blocks_per_sm(4) block(128) {
    gpuir.for %r = 0 to %rows : cuda_tasks {
      %stage = gpuir.alloc : memref<4x32xi32, #gpuir.smem>
      gpuir.for %w = 0 to 4 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %X[%r, %w * 32 + %l] : memref<?x128xi32, #gpuir.gmem>
          %d = arith.addi %v, %v : i32
          gpuir.write %d, %stage[%w, %l] : memref<4x32xi32, #gpuir.smem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
        gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %sum = gpuir.alloc : memref<1xi32, #gpuir.rmem>
          %zero = arith.constant 0 : i32
          gpuir.write %zero, %sum[0] : memref<1xi32, #gpuir.rmem>
          gpuir.for %j = 0 to 32 : seq {
            %x = gpuir.read %stage[%w, %j] : memref<4x32xi32, #gpuir.smem>
            gpuir.reduce %x, %sum[0] : memref<1xi32, #gpuir.rmem>
          }
          %s = gpuir.read %sum[0] : memref<1xi32, #gpuir.rmem>
          gpuir.write %s, %S[%r, %w] : memref<?x4xi32, #gpuir.gmem>
        }
      }
    }
  }
}
