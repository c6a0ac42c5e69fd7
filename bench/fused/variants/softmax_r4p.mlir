// Variant of examples/fused_softmax.mlir, software-pipelined over rows:
// each warp takes R = 4 consecutive rows (32 b + 4 v + r, r < 4, a `seq`
// loop inside the warp; a task is 8 x 4 = 32 rows, so X's and Y's extents
// are (blocks * 32, 1000)), and the row's registers are two stages
// x[v, l, stage, i]: the loads of row r + 1 (into stage (r + 1) mod 2) are
// issued before the fused arithmetic and the stores of row r (stage
// r mod 2); row 0 is loaded before the loop.
//
// Why it should be faster: the softmax reads nothing but its row, so the
// row loop alone gains nothing; what it can gain is loads in flight. In the
// example a warp has no load in flight while it takes the row's maximum,
// exponentials and sum (the longest arithmetic of the two kernels: five
// shuffle rounds, Rake's exp on 32 values, warp_sum, a divide) and stores
// the row, and the next row's loads cannot move above those stores in the
// machine code (nothing tells LLVM or ptxas that X and Y are distinct).
// Here each warp keeps the next row's 8 loads in flight during that work:
// about twice the bytes in flight a warp at the same 16 warps an SM. The
// cost is 32 more registers a thread (the example takes 48).
//
// The row loop indexes the staged register buffer (r mod 2), so code
// generation unrolls it and every register index is a constant. Each row's
// arithmetic is the example's, in the same order (the same bits per row).
//
//   build/bin/rake-opt bench/fused/variants/softmax_r4p.mlir --rake-check
//   build/bin/rake-translate --gpuir-to-ptx bench/fused/variants/softmax_r4p.mlir
gpuir.proc @fused_softmax(%blocks: index, %X: memref<?x1000xf32, #gpuir.gmem> {gpuir.extents = affine_map<(blocks) -> (blocks * 32, 1000)>, gpuir.align = 16}, %Y: memref<?x1000xf32, #gpuir.gmem> {gpuir.extents = affine_map<(blocks) -> (blocks * 32, 1000)>, gpuir.align = 16})
    attributes {gpuir.check_sizes = [{blocks = 3}, {blocks = 1}]} {
  gpuir.device_function blocks_per_sm(2) block(256) {
    gpuir.for %b = 0 to %blocks : cuda_tasks {
      // Per warp v and lane l: two stages of a row's values (then their
      // exponentials, then the results), 32 each; the lane's maximum and sum, what a
      // shuffle brings, the warp's sum and its reciprocal.
      %x = gpuir.alloc : memref<8x32x2x32xf32, #gpuir.rmem>
      %m = gpuir.alloc : memref<8x32xf32, #gpuir.rmem>
      %o = gpuir.alloc : memref<8x32xf32, #gpuir.rmem>
      %part = gpuir.alloc : memref<8x32xf32, #gpuir.rmem>
      %sum = gpuir.alloc : memref<8x32xf32, #gpuir.rmem>
      %inv = gpuir.alloc : memref<8x32xf32, #gpuir.rmem>
      gpuir.for %v = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
        // Row 0 into stage 0.
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %s = 0 to 8 : seq {
            gpuir.if %s * 32 + %l < 250 {
              %gX = gpuir.window %X[%b * 32 + %v * 4, %s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<?x1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
              %rX = gpuir.window %x[%v, %l, 0, %s * 4 : %s * 4 + 4] : memref<8x32x2x32xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
              gpuir.sm80.ld_global %rX, %gX : memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
            }
          }
        }
        %mw = gpuir.window %m[%v, 0 : 32] : memref<8x32xf32, #gpuir.rmem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
        %ow = gpuir.window %o[%v, 0 : 32] : memref<8x32xf32, #gpuir.rmem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
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
              %ninf = arith.constant 0xFF800000 : f32
              gpuir.write %ninf, %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              gpuir.for %i = 0 to 32 : seq {
                gpuir.if (%i floordiv 4) * 32 + %l < 250 {
                  %a = gpuir.read %x[%v, %l, %r mod 2, %i] : memref<8x32x2x32xf32, #gpuir.rmem>
                  %c = gpuir.read %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
                  %n = arith.maximumf %c, %a : f32
                  gpuir.write %n, %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
                }
              }
            }
            gpuir.sm80.shfl_bfly %ow, %mw, 16 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %c = gpuir.read %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              %d = gpuir.read %o[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              %n = arith.maximumf %c, %d : f32
              gpuir.write %n, %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
            }
            gpuir.sm80.shfl_bfly %ow, %mw, 8 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %c = gpuir.read %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              %d = gpuir.read %o[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              %n = arith.maximumf %c, %d : f32
              gpuir.write %n, %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
            }
            gpuir.sm80.shfl_bfly %ow, %mw, 4 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %c = gpuir.read %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              %d = gpuir.read %o[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              %n = arith.maximumf %c, %d : f32
              gpuir.write %n, %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
            }
            gpuir.sm80.shfl_bfly %ow, %mw, 2 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %c = gpuir.read %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              %d = gpuir.read %o[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              %n = arith.maximumf %c, %d : f32
              gpuir.write %n, %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
            }
            gpuir.sm80.shfl_bfly %ow, %mw, 1 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %c = gpuir.read %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              %d = gpuir.read %o[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              %n = arith.maximumf %c, %d : f32
              gpuir.write %n, %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
            }
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %zero = arith.constant 0.0 : f32
              gpuir.write %zero, %part[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              gpuir.for %i = 0 to 32 : seq {
                gpuir.if (%i floordiv 4) * 32 + %l < 250 {
                  %a = gpuir.read %x[%v, %l, %r mod 2, %i] : memref<8x32x2x32xf32, #gpuir.rmem>
                  %c = gpuir.read %m[%v, %l] : memref<8x32xf32, #gpuir.rmem>
                  %t = arith.subf %a, %c : f32
                  %e = math.exp %t : f32
                  gpuir.write %e, %x[%v, %l, %r mod 2, %i] : memref<8x32x2x32xf32, #gpuir.rmem>
                  gpuir.reduce %e, %part[%v, %l] : memref<8x32xf32, #gpuir.rmem>
                }
              }
            }
            gpuir.sm80.warp_sum %sw, %pw : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %s = gpuir.read %sum[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              %one = arith.constant 1.0 : f32
              %rc = arith.divf %one, %s : f32
              gpuir.write %rc, %inv[%v, %l] : memref<8x32xf32, #gpuir.rmem>
              gpuir.for %i = 0 to 32 : seq {
                gpuir.if (%i floordiv 4) * 32 + %l < 250 {
                  %e = gpuir.read %x[%v, %l, %r mod 2, %i] : memref<8x32x2x32xf32, #gpuir.rmem>
                  %k = gpuir.read %inv[%v, %l] : memref<8x32xf32, #gpuir.rmem>
                  %y = arith.mulf %e, %k : f32
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
