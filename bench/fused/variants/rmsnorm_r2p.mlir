// Variant of rmsnorm_r4p.mlir with R = 2 rows per warp (16 rows a task):
// the same pipelining (row r + 1's loads issued before row r's arithmetic
// and stores), W loaded once per 2 rows, and twice the tasks, so the last
// round of a short input is less empty.
//
//   build/bin/rake-opt bench/fused/variants/rmsnorm_r2p.mlir --rake-check
gpuir.proc @fused_rmsnorm(%blocks: index, %X: memref<?x1000xf32, #gpuir.gmem> {gpuir.extents = affine_map<(blocks) -> (blocks * 16, 1000)>, gpuir.align = 16}, %W: memref<1000xf32, #gpuir.gmem> {gpuir.align = 16}, %Y: memref<?x1000xf32, #gpuir.gmem> {gpuir.extents = affine_map<(blocks) -> (blocks * 16, 1000)>, gpuir.align = 16})
    attributes {gpuir.check_sizes = [{blocks = 3}, {blocks = 1}]} {
  gpuir.device_function blocks_per_sm(2) block(256) {
    gpuir.for %b = 0 to %blocks : cuda_tasks {
      // Per warp v and lane l: two stages of a row's values (then the
      // results), 32 each, and the weights; the lane's partial sum, the
      // warp's sum and the scale.
      %x = gpuir.alloc : memref<8x32x2x32xf32, #gpuir.rmem>
      %w = gpuir.alloc : memref<8x32x32xf32, #gpuir.rmem>
      %part = gpuir.alloc : memref<8x32xf32, #gpuir.rmem>
      %sum = gpuir.alloc : memref<8x32xf32, #gpuir.rmem>
      %scale = gpuir.alloc : memref<8x32xf32, #gpuir.rmem>
      gpuir.for %v = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
        // The weights, once for the warp's 4 rows, and row 0 into stage 0.
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %s = 0 to 8 : seq {
            gpuir.if %s * 32 + %l < 250 {
              %gX = gpuir.window %X[%b * 16 + %v * 2, %s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<?x1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
              %rX = gpuir.window %x[%v, %l, 0, %s * 4 : %s * 4 + 4] : memref<8x32x2x32xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
              %gW = gpuir.window %W[%s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
              %rW = gpuir.window %w[%v, %l, %s * 4 : %s * 4 + 4] : memref<8x32x32xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
              gpuir.sm80.ld_global %rX, %gX : memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
              gpuir.sm80.ld_global %rW, %gW : memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
            }
          }
        }
        %pw = gpuir.window %part[%v, 0 : 32] : memref<8x32xf32, #gpuir.rmem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
        %sw = gpuir.window %sum[%v, 0 : 32] : memref<8x32xf32, #gpuir.rmem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
        gpuir.for %r = 0 to 2 : seq {
          // Row r + 1 into the other stage, before row r's arithmetic.
          gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %s = 0 to 8 : seq {
              gpuir.if %s * 32 + %l < 250 and %r < 1 {
                %gX = gpuir.window %X[%b * 16 + %v * 2 + %r + 1, %s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<?x1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
                %rX = gpuir.window %x[%v, %l, (%r + 1) mod 2, %s * 4 : %s * 4 + 4] : memref<8x32x2x32xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
                gpuir.sm80.ld_global %rX, %gX : memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
              }
            }
          }
          gpuir.fused {
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %zero = arith.constant 0.0 : f32
              gpuir.write %zero, %part[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              gpuir.for %i = 0 to 32 : seq {
                gpuir.if (%i floordiv 4) * 32 + %l < 250 {
                  %a = gpuir.read %x[%v, %l, %r mod 2, %i] : memref<8x32x2x32xf32, #gpuir.rmem>
                  %sq = arith.mulf %a, %a : f32
                  gpuir.reduce %sq, %part[%v, %l] : memref<8x32xf32, #gpuir.rmem>
                }
              }
            }
            gpuir.sm80.warp_sum %sw, %pw : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %s = gpuir.read %sum[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              %n = arith.constant 1000.0 : f32
              %eps = arith.constant 1.0e-6 : f32
              %one = arith.constant 1.0 : f32
              %mean = arith.divf %s, %n : f32
              %me = arith.addf %mean, %eps : f32
              %rms = math.sqrt %me : f32
              %inv = arith.divf %one, %rms : f32
              gpuir.write %inv, %scale[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              gpuir.for %i = 0 to 32 : seq {
                gpuir.if (%i floordiv 4) * 32 + %l < 250 {
                  %a = gpuir.read %x[%v, %l, %r mod 2, %i] : memref<8x32x2x32xf32, #gpuir.rmem>
                  %c = gpuir.read %w[%v, %l, %i] : memref<8x32x32xf32, #gpuir.rmem>
                  %k = gpuir.read %scale[%v, %l] : memref<8x32xf32, #gpuir.rmem>
                  %t = arith.mulf %a, %k : f32
                  %y = arith.mulf %t, %c : f32
                  gpuir.write %y, %x[%v, %l, %r mod 2, %i] : memref<8x32x2x32xf32, #gpuir.rmem>
                }
              }
            }
          }
          gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %s = 0 to 8 : seq {
              gpuir.if %s * 32 + %l < 250 {
                %gY = gpuir.window %Y[%b * 16 + %v * 2 + %r, %s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<?x1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
                %rY = gpuir.window %x[%v, %l, %r mod 2, %s * 4 : %s * 4 + 4] : memref<8x32x2x32xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
                gpuir.sm80.st_global %gY, %rY : memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
              }
            }
          }
        }
      }
    }
  }
}
