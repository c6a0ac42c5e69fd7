// Variant of bench/fused/variants/softmax_w8.mlir with 7 warps (rows) a task instead of 8,
// taking the number of rows (%rows) and guarding the last task's rows: with
// 2 CTAs an SM, 32768 rows are 17.73 rows a warp on 132 SMs
// (8 warps: 15.52, whose last round is half empty).
//
// A fused softmax, one warp per row: Y[r, j] = e^(X[r, j] - m) * (1 / s)
// with m the row's maximum and s = sum_j e^(X[r, j] - m), for rows of 1000
// floats, 7 rows (7 warps) per CTA. A row is 250 runs of 4 floats; lane l
// holds runs 32 s + l (s < 8), loaded and stored with one 16-byte access
// each (gpuir.sm80.ld_global, st_global: the buffers are declared 16-byte
// aligned and a row of 1000 floats keeps every run aligned), register
// 4 s + e holding column 128 s + 4 l + e. 250 is not a multiple of 32, so
// in the last step only lanes 0..25 have a run (the tail: the other lanes
// read and write nothing and supply the neutral operands, -inf to the
// maximum and 0 to the sum). The warp's maximum is five butterfly shuffles (gpuir.sm80.shfl_bfly
// 16, 8, 4, 2, 1, each followed by arith.maximumf), its sum
// gpuir.sm80.warp_sum; math.exp is Rake's exp (within 1 ulp, from correctly
// rounded operations: docs/GpuIR.md, "Math"), and each lane multiplies its
// exponentials by the correctly rounded reciprocal of the sum.
//
// The arithmetic between the loads and the stores is a gpuir.fused region
// (its values stay in registers: no device memory inside, which GpuIR
// checks, and no device or local memory traffic, calls or loops in its
// machine code, which rake-verify checks from the cubin). The GPU computes
// the same bits as the sequential meaning.
//
//   build/bin/rake-opt bench/fused/variants/softmax_w7.mlir --rake-check
//   build/bin/rake-run --seq bench/fused/variants/softmax_w7.mlir --sizes=rows=7 --print=Y
//   build/bin/rake-translate --gpuir-to-ptx bench/fused/variants/softmax_w7.mlir
gpuir.proc @fused_softmax_w7(%rows: index, %X: memref<?x1000xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 1000)>, gpuir.align = 16}, %Y: memref<?x1000xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 1000)>, gpuir.align = 16})
    attributes {gpuir.check_sizes = [{rows = 17}, {rows = 7}, {rows = 5}]} {
  gpuir.device_function blocks_per_sm(2) block(224) {
    gpuir.for %b = 0 to %rows ceildiv 7 : cuda_tasks {
      // Per warp v and lane l: the row's values (then their exponentials,
      // then the results), 32 of them; the lane's maximum and sum, what a
      // shuffle brings, the warp's sum and its reciprocal.
      %x = gpuir.alloc : memref<7x32x32xf32, #gpuir.rmem>
      %m = gpuir.alloc : memref<7x32xf32, #gpuir.rmem>
      %o = gpuir.alloc : memref<7x32xf32, #gpuir.rmem>
      %part = gpuir.alloc : memref<7x32xf32, #gpuir.rmem>
      %sum = gpuir.alloc : memref<7x32xf32, #gpuir.rmem>
      %inv = gpuir.alloc : memref<7x32xf32, #gpuir.rmem>
      gpuir.for %v = 0 to 7 : cuda_threads<#gpuir.unit<warp>> {
        // The last task's warps past the last row do nothing.
        gpuir.if %b * 7 + %v < %rows {
          gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %s = 0 to 8 : seq {
              gpuir.if %s * 32 + %l < 250 {
                %gX = gpuir.window %X[%b * 7 + %v, %s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<?x1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
                %rX = gpuir.window %x[%v, %l, %s * 4 : %s * 4 + 4] : memref<7x32x32xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
                gpuir.sm80.ld_global %rX, %gX : memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
              }
            }
          }
          %mw = gpuir.window %m[%v, 0 : 32] : memref<7x32xf32, #gpuir.rmem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
          %ow = gpuir.window %o[%v, 0 : 32] : memref<7x32xf32, #gpuir.rmem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
          %pw = gpuir.window %part[%v, 0 : 32] : memref<7x32xf32, #gpuir.rmem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
          %sw = gpuir.window %sum[%v, 0 : 32] : memref<7x32xf32, #gpuir.rmem> -> memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
          gpuir.fused {
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %ninf = arith.constant 0xFF800000 : f32
              gpuir.write %ninf, %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              gpuir.for %i = 0 to 32 : seq {
                gpuir.if (%i floordiv 4) * 32 + %l < 250 {
                  %a = gpuir.read %x[%v, %l, %i] : memref<7x32x32xf32, #gpuir.rmem>
                  %c = gpuir.read %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
                  %n = arith.maximumf %c, %a : f32
                  gpuir.write %n, %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
                }
              }
            }
            gpuir.sm80.shfl_bfly %ow, %mw, 16 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %c = gpuir.read %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              %d = gpuir.read %o[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              %n = arith.maximumf %c, %d : f32
              gpuir.write %n, %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
            }
            gpuir.sm80.shfl_bfly %ow, %mw, 8 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %c = gpuir.read %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              %d = gpuir.read %o[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              %n = arith.maximumf %c, %d : f32
              gpuir.write %n, %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
            }
            gpuir.sm80.shfl_bfly %ow, %mw, 4 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %c = gpuir.read %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              %d = gpuir.read %o[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              %n = arith.maximumf %c, %d : f32
              gpuir.write %n, %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
            }
            gpuir.sm80.shfl_bfly %ow, %mw, 2 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %c = gpuir.read %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              %d = gpuir.read %o[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              %n = arith.maximumf %c, %d : f32
              gpuir.write %n, %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
            }
            gpuir.sm80.shfl_bfly %ow, %mw, 1 : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %c = gpuir.read %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              %d = gpuir.read %o[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              %n = arith.maximumf %c, %d : f32
              gpuir.write %n, %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
            }
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %zero = arith.constant 0.0 : f32
              gpuir.write %zero, %part[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              gpuir.for %i = 0 to 32 : seq {
                gpuir.if (%i floordiv 4) * 32 + %l < 250 {
                  %a = gpuir.read %x[%v, %l, %i] : memref<7x32x32xf32, #gpuir.rmem>
                  %c = gpuir.read %m[%v, %l] : memref<7x32xf32, #gpuir.rmem>
                  %t = arith.subf %a, %c : f32
                  %e = math.exp %t : f32
                  gpuir.write %e, %x[%v, %l, %i] : memref<7x32x32xf32, #gpuir.rmem>
                  gpuir.reduce %e, %part[%v, %l] : memref<7x32xf32, #gpuir.rmem>
                }
              }
            }
            gpuir.sm80.warp_sum %sw, %pw : memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xf32, strided<[1], offset: ?>, #gpuir.rmem>
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              %s = gpuir.read %sum[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              %one = arith.constant 1.0 : f32
              %r = arith.divf %one, %s : f32
              gpuir.write %r, %inv[%v, %l] : memref<7x32xf32, #gpuir.rmem>
              gpuir.for %i = 0 to 32 : seq {
                gpuir.if (%i floordiv 4) * 32 + %l < 250 {
                  %e = gpuir.read %x[%v, %l, %i] : memref<7x32x32xf32, #gpuir.rmem>
                  %k = gpuir.read %inv[%v, %l] : memref<7x32xf32, #gpuir.rmem>
                  %y = arith.mulf %e, %k : f32
                  gpuir.write %y, %x[%v, %l, %i] : memref<7x32x32xf32, #gpuir.rmem>
                }
              }
            }
          }
          gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %s = 0 to 8 : seq {
              gpuir.if %s * 32 + %l < 250 {
                %gY = gpuir.window %Y[%b * 7 + %v, %s * 128 + %l * 4 : %s * 128 + %l * 4 + 4] : memref<?x1000xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
                %rY = gpuir.window %x[%v, %l, %s * 4 : %s * 4 + 4] : memref<7x32x32xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
                gpuir.sm80.st_global %gY, %rY : memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
              }
            }
          }
        }
      }
    }
  }
}
