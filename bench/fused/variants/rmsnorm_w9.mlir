// Variant of examples/fused_rmsnorm.mlir with 9 warps (rows) a task instead of 8,
// taking the number of rows (%rows) and guarding the last task's rows: with
// 2 CTAs an SM, 32768 rows are 13.79 rows a warp on 132 SMs
// (8 warps: 15.52, whose last round is half empty).
//
// A fused RMSNorm, one warp per row: Y[r, j] = X[r, j] / sqrt(mean_j
// X[r, j]^2 + 1e-6) * W[j] for rows of 1000 floats, 9 rows (9 warps) per
// CTA. A row is 250 runs of 4 floats; lane l holds runs 32 s + l (s < 8),
// loaded and stored with one 16-byte access each (gpuir.sm80.ld_global,
// st_global: the buffers are declared 16-byte aligned and a row of 1000
// floats keeps every run aligned), register 4 s + e holding column
// 128 s + 4 l + e. 250 is not a multiple of 32, so in the last step only
// lanes 0..25 have a run (the tail: the other lanes read and write nothing
// and add 0 to the sum). The
// warp's sum is gpuir.sm80.warp_sum (a butterfly of shuffles, its order of
// additions the sequential meaning), then each lane takes the correctly
// rounded square root and reciprocal and scales its values.
//
// The arithmetic between the loads and the stores is a gpuir.fused region:
// its values stay in registers (no device memory is touched inside, which
// GpuIR checks), and rake-verify checks from the cubin that its machine
// code has no loads or stores of device or local memory (no spills), no
// calls and no loops. Every operation is correctly rounded and runs in the
// same order as in the sequential meaning: the GPU computes the same bits.
//
//   build/bin/rake-opt bench/fused/variants/rmsnorm_w9.mlir --rake-check
//   build/bin/rake-run --seq bench/fused/variants/rmsnorm_w9.mlir --sizes=rows=9 --print=Y
//   build/bin/rake-translate --gpuir-to-ptx bench/fused/variants/rmsnorm_w9.mlir
gpuir.proc @fused_rmsnorm_w9(%rows: index, %X: memref<?x1000xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 1000)>, gpuir.align = 16}, %W: memref<1000xf32, #gpuir.gmem> {gpuir.align = 16}, %Y: memref<?x1000xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 1000)>, gpuir.align = 16})
    attributes {gpuir.check_sizes = [{rows = 21}, {rows = 9}, {rows = 5}]} {
  gpuir.device_function blocks_per_sm(2) block(288) {
    gpuir.for %b = 0 to %rows ceildiv 9 : cuda_tasks {
      // Per warp v and lane l: the row's values (then the results) and the
      // weights, 32 each; the lane's partial sum, the warp's sum and the
      // scale.
      %x = gpuir.alloc : memref<9x32x32xf32, #gpuir.rmem>
      %w = gpuir.alloc : memref<9x32x32xf32, #gpuir.rmem>
      %part = gpuir.alloc : memref<9x32xf32, #gpuir.rmem>
      %sum = gpuir.alloc : memref<9x32xf32, #gpuir.rmem>
      %scale = gpuir.alloc : memref<9x32xf32, #gpuir.rmem>
      gpuir.for %v = 0 to 9 : cuda_threads<#gpuir.unit<warp>> {
        // The last task's warps past the last row do nothing.
        gpuir.if %b * 9 + %v < %rows {
          gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %s = 0 to 8 : seq {
              gpuir.if %s * 32 + %l < 250 {
                %gX = gpuir.window %X[%b * 9 + %v, %s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<?x1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
                %rX = gpuir.window %x[%v, %l, %s * 4 : %s * 4 + 4] : memref<9x32x32xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
                %gW = gpuir.window %W[%s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
                %rW = gpuir.window %w[%v, %l, %s * 4 : %s * 4 + 4] : memref<9x32x32xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
                gpuir.sm80.ld_global %rX, %gX : memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.ld_global %rW, %gW : memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
              }
            }
          }
          %pw = gpuir.window %part[%v, 0 : 32] : memref<9x32xf32, #gpuir.rmem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
          %sw = gpuir.window %sum[%v, 0 : 32] : memref<9x32xf32, #gpuir.rmem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
          gpuir.fused {
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %zero = arith.constant 0.0 : f32
              gpuir.write %zero, %part[%v, %l] : memref<9x32xf32, #gpuir.rmem>
              gpuir.for %i = 0 to 32 : seq {
                gpuir.if (%i floordiv 4) * 32 + %l < 250 {
                  %a = gpuir.read %x[%v, %l, %i] : memref<9x32x32xf32, #gpuir.rmem>
                  %sq = arith.mulf %a, %a : f32
                  gpuir.reduce %sq, %part[%v, %l] : memref<9x32xf32, #gpuir.rmem>
                }
              }
            }
            gpuir.sm80.warp_sum %sw, %pw : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %s = gpuir.read %sum[%v, %l] : memref<9x32xf32, #gpuir.rmem>
              %n = arith.constant 1000.0 : f32
              %eps = arith.constant 1.0e-6 : f32
              %one = arith.constant 1.0 : f32
              %mean = arith.divf %s, %n : f32
              %me = arith.addf %mean, %eps : f32
              %rms = math.sqrt %me : f32
              %inv = arith.divf %one, %rms : f32
              gpuir.write %inv, %scale[%v, %l] : memref<9x32xf32, #gpuir.rmem>
              gpuir.for %i = 0 to 32 : seq {
                gpuir.if (%i floordiv 4) * 32 + %l < 250 {
                  %a = gpuir.read %x[%v, %l, %i] : memref<9x32x32xf32, #gpuir.rmem>
                  %c = gpuir.read %w[%v, %l, %i] : memref<9x32x32xf32, #gpuir.rmem>
                  %k = gpuir.read %scale[%v, %l] : memref<9x32xf32, #gpuir.rmem>
                  %t = arith.mulf %a, %k : f32
                  %y = arith.mulf %t, %c : f32
                  gpuir.write %y, %x[%v, %l, %i] : memref<9x32x32xf32, #gpuir.rmem>
                }
              }
            }
          }
          gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %s = 0 to 8 : seq {
              gpuir.if %s * 32 + %l < 250 {
                %gY = gpuir.window %Y[%b * 9 + %v, %s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<?x1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
                %rY = gpuir.window %x[%v, %l, %s * 4 : %s * 4 + 4] : memref<9x32x32xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
                gpuir.sm80.st_global %gY, %rY : memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
              }
            }
          }
        }
      }
    }
  }
}
