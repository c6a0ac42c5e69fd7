// Sums of the rows of X, one row of 1024 floats per CTA of 256 threads
// (8 warps). Each thread adds up 4 values of the row; each warp combines its
// 32 partial sums in a butterfly of register shuffles (shfl.sync.bfly with
// offsets 16, 8, 4, 2, 1: after it every lane holds the warp's sum); lane 0
// of each warp stages the warp's sum in shared memory; after a CTA fence one
// thread adds the 8 warp sums. The additions happen in the same order on the
// GPU as in the sequential meaning, so results are bit-exact.
//
//   build/bin/rake-opt examples/block_sums.mlir --rake-check
//   build/bin/rake-run --seq examples/block_sums.mlir --shape=X=4,S=4 --print=S
//   build/bin/rake-translate --gpuir-to-ptx examples/block_sums.mlir
gpuir.proc @block_sums(%rows: index, %X: memref<?x1024xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 1024)>}, %S: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows)>})
    attributes {gpuir.check_sizes = [{rows = 4}, {rows = 1}]} {
  gpuir.device_function blocks_per_sm(4) block(256) {
    gpuir.for %r = 0 to %rows : cuda_tasks {
      %part = gpuir.alloc : memref<8x32xf32, #gpuir.rmem>
      %other = gpuir.alloc : memref<8x32xf32, #gpuir.rmem>
      %warp_sums = gpuir.alloc : memref<8xf32, #gpuir.smem>
      gpuir.for %w = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %zero = arith.constant 0.0 : f32
          gpuir.write %zero, %part[%w, %l] : memref<8x32xf32, #gpuir.rmem>
          gpuir.for %i = 0 to 4 : seq {
            %x = gpuir.read %X[%r, %i * 256 + %w * 32 + %l] : memref<?x1024xf32, #gpuir.gmem>
            gpuir.reduce %x, %part[%w, %l] : memref<8x32xf32, #gpuir.rmem>
          }
        }
        %pw = gpuir.window %part[%w, 0 : 32] : memref<8x32xf32, #gpuir.rmem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
        %ow = gpuir.window %other[%w, 0 : 32] : memref<8x32xf32, #gpuir.rmem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
        gpuir.sm80.shfl_bfly %ow, %pw, 16 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %o = gpuir.read %other[%w, %l] : memref<8x32xf32, #gpuir.rmem>
          gpuir.reduce %o, %part[%w, %l] : memref<8x32xf32, #gpuir.rmem>
        }
        gpuir.sm80.shfl_bfly %ow, %pw, 8 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %o = gpuir.read %other[%w, %l] : memref<8x32xf32, #gpuir.rmem>
          gpuir.reduce %o, %part[%w, %l] : memref<8x32xf32, #gpuir.rmem>
        }
        gpuir.sm80.shfl_bfly %ow, %pw, 4 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %o = gpuir.read %other[%w, %l] : memref<8x32xf32, #gpuir.rmem>
          gpuir.reduce %o, %part[%w, %l] : memref<8x32xf32, #gpuir.rmem>
        }
        gpuir.sm80.shfl_bfly %ow, %pw, 2 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %o = gpuir.read %other[%w, %l] : memref<8x32xf32, #gpuir.rmem>
          gpuir.reduce %o, %part[%w, %l] : memref<8x32xf32, #gpuir.rmem>
        }
        gpuir.sm80.shfl_bfly %ow, %pw, 1 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %o = gpuir.read %other[%w, %l] : memref<8x32xf32, #gpuir.rmem>
          gpuir.reduce %o, %part[%w, %l] : memref<8x32xf32, #gpuir.rmem>
        }
        gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %s = gpuir.read %part[%w, %l] : memref<8x32xf32, #gpuir.rmem>
          gpuir.write %s, %warp_sums[%w] : memref<8xf32, #gpuir.smem>
        }
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %acc = gpuir.alloc : memref<1xf32, #gpuir.rmem>
        %zero = arith.constant 0.0 : f32
        gpuir.write %zero, %acc[0] : memref<1xf32, #gpuir.rmem>
        gpuir.for %j = 0 to 8 : seq {
          %v = gpuir.read %warp_sums[%j] : memref<8xf32, #gpuir.smem>
          gpuir.reduce %v, %acc[0] : memref<1xf32, #gpuir.rmem>
        }
        %total = gpuir.read %acc[0] : memref<1xf32, #gpuir.rmem>
        gpuir.write %total, %S[%r] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
