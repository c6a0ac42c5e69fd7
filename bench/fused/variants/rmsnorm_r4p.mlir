// Variant of examples/fused_rmsnorm.mlir, software-pipelined: as
// rmsnorm_r4.mlir (each warp normalizes R = 4 consecutive rows 32 b + 4 v + r,
// W loaded into registers once per task), but the row's registers are two
// stages x[v, l, stage, i] and the loads of row r + 1 (into stage
// (r + 1) mod 2) are issued before the fused arithmetic and the stores of
// row r (stage r mod 2); row 0 is loaded before the loop.
//
// Why it should be faster: in rmsnorm_r4 (and the example) a warp has no
// load in flight while it reduces, takes the square root and stores a row,
// and its next loads cannot move above its stores in the machine code
// (nothing tells LLVM or ptxas that X and Y are distinct), so per warp the
// latency of a row's loads is exposed once per row.
// Here each warp keeps the next row's 8 loads in flight during the current
// row's arithmetic and stores: with 16 warps an SM, about twice the bytes in
// flight at the same occupancy, which is what the copy gets from its many
// independent loads. The cost is 32 more registers a thread (two stages of
// 32 plus 32 weights), within the 128 that 2 CTAs of 256 threads allow.
//
// The row loop indexes the staged register buffer (r mod 2), so code
// generation unrolls it (4 iterations) and every register index is a
// constant. The arithmetic of each row is the example's, in the same order
// (same bits per row); loading row r + 1 before storing row r reads X and
// writes Y, distinct buffers, so the sequential meaning is unchanged.
//
//   build/bin/rake-opt bench/fused/variants/rmsnorm_r4p.mlir --rake-check
//   build/bin/rake-translate --gpuir-to-ptx bench/fused/variants/rmsnorm_r4p.mlir
gpuir.proc @fused_rmsnorm(%blocks: index, %X: memref<?x1000xf32, #gpuir.gmem> {gpuir.extents = affine_map<(blocks) -> (blocks * 32, 1000)>, gpuir.align = 16}, %W: memref<1000xf32, #gpuir.gmem> {gpuir.align = 16}, %Y: memref<?x1000xf32, #gpuir.gmem> {gpuir.extents = affine_map<(blocks) -> (blocks * 32, 1000)>, gpuir.align = 16})
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
              %gX = gpuir.window %X[%b * 32 + %v * 4, %s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<?x1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
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
        gpuir.for %r = 0 to 4 : seq {
          // Row r + 1 into the other stage, before row r's arithmetic.
          gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %s = 0 to 8 : seq {
              gpuir.if %s * 32 + %l < 250 and %r < 3 {
                %gX = gpuir.window %X[%b * 32 + %v * 4 + %r + 1, %s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<?x1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
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
                %gY = gpuir.window %Y[%b * 32 + %v * 4 + %r, %s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<?x1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
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
