// The second pass of the split-K GEMM (make_gemm.py --split 2): C = P0 + P1
// rounded to bf16, where P holds the two f32 partial planes one after the
// other (2 n floats: plane 0, then plane 1) and C the n results, n = 4 q.
// Each thread takes a run of 4 elements of each plane with one 16-byte
// ld.global.v4 (gpuir.sm80.ld_global), adds them in f32, rounds each sum
// to bf16 once, and stores the 4 results with one 8-byte st.global.v2.
// The planes and C are row-major M x N matrices seen as vectors; the caller
// passes q = M N / 4.
//
//   build/bin/rake-opt bench/gemm/splitk_sum2_bf16.mlir --rake-check
//   build/bin/rake-run --seq bench/gemm/splitk_sum2_bf16.mlir --sizes=q=300 --shape=P=2400,C=1200
gpuir.proc @splitk_sum2_bf16(%q: index,
    %P: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(q) -> (q * 8)>, gpuir.align = 16},
    %C: memref<?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(q) -> (q * 4)>, gpuir.align = 8})
    attributes {gpuir.check_sizes = [{q = 1024}, {q = 300}]} {
  gpuir.device_function blocks_per_sm(8) block(256) {
    gpuir.for %task = 0 to %q ceildiv 256 : cuda_tasks {
      %a = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      %b = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      %c = gpuir.alloc : memref<256x4xbf16, #gpuir.rmem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.if %task * 256 + %t < %q {
          %g0 = gpuir.window %P[%task * 1024 + %t * 4 : %task * 1024 + %t * 4 + 4] : memref<?xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
          %g1 = gpuir.window %P[%q * 4 + %task * 1024 + %t * 4 : %q * 4 + %task * 1024 + %t * 4 + 4] : memref<?xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
          %gc = gpuir.window %C[%task * 1024 + %t * 4 : %task * 1024 + %t * 4 + 4] : memref<?xbf16, #gpuir.gmem> -> memref<4xbf16, strided<[1], offset: ?>, #gpuir.gmem>
          %ra = gpuir.window %a[%t, 0 : 4] : memref<256x4xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
          %rb = gpuir.window %b[%t, 0 : 4] : memref<256x4xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
          %rc = gpuir.window %c[%t, 0 : 4] : memref<256x4xbf16, #gpuir.rmem> -> memref<4xbf16, strided<[1], offset: ?>, #gpuir.rmem>
          gpuir.sm80.ld_global %ra, %g0 : memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
          gpuir.sm80.ld_global %rb, %g1 : memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
          gpuir.for %j = 0 to 4 : seq {
            %x = gpuir.read %a[%t, %j] : memref<256x4xf32, #gpuir.rmem>
            %y = gpuir.read %b[%t, %j] : memref<256x4xf32, #gpuir.rmem>
            %s = arith.addf %x, %y : f32
            %h = arith.truncf %s : f32 to bf16
            gpuir.write %h, %c[%t, %j] : memref<256x4xbf16, #gpuir.rmem>
          }
          gpuir.sm80.st_global %gc, %rc : memref<4xbf16, strided<[1], offset: ?>, #gpuir.gmem>, memref<4xbf16, strided<[1], offset: ?>, #gpuir.rmem>
        }
      }
    }
  }
}
