// C = A + B over n floats with 16-byte vector accesses: each thread adds a
// run of 4 neighbouring floats, 1024 per CTA. A whole run is loaded with
// gpuir.sm80.ld_global (one ld.global.v4.f32) and stored with
// gpuir.sm80.st_global; the buffers declare their first element 16-byte
// aligned (gpuir.align = 16: the runtime refuses a launch that does not
// meet it), and code generation proves each run starts at a multiple of 4
// elements. The tail (the runs that n cuts) is added one float at a time
// under a guard.
//
//   build/bin/rake-opt examples/vector_add_v4.mlir --rake-check
//   build/bin/rake-run --seq examples/vector_add_v4.mlir --sizes=n=1001 --shape=A=1001,B=1001,C=1001
//   build/bin/rake-translate --gpuir-to-ptx examples/vector_add_v4.mlir
gpuir.proc @vector_add_v4(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>, gpuir.align = 16}, %B: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>, gpuir.align = 16}, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>, gpuir.align = 16})
    attributes {gpuir.check_sizes = [{n = 4096}, {n = 1001}]} {
  gpuir.device_function blocks_per_sm(8) block(256) {
    gpuir.for %task = 0 to %n ceildiv 1024 : cuda_tasks {
      %a = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      %b = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.if %task * 1024 + %t * 4 + 4 <= %n {
          %ga = gpuir.window %A[%task * 1024 + %t * 4 : %task * 1024 + %t * 4 + 4] : memref<?xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
          %gb = gpuir.window %B[%task * 1024 + %t * 4 : %task * 1024 + %t * 4 + 4] : memref<?xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
          %gc = gpuir.window %C[%task * 1024 + %t * 4 : %task * 1024 + %t * 4 + 4] : memref<?xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
          %ra = gpuir.window %a[%t, 0 : 4] : memref<256x4xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
          %rb = gpuir.window %b[%t, 0 : 4] : memref<256x4xf32, #gpuir.rmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
          gpuir.sm80.ld_global %ra, %ga : memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
          gpuir.sm80.ld_global %rb, %gb : memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
          gpuir.for %j = 0 to 4 : seq {
            %x = gpuir.read %a[%t, %j] : memref<256x4xf32, #gpuir.rmem>
            %y = gpuir.read %b[%t, %j] : memref<256x4xf32, #gpuir.rmem>
            %s = arith.addf %x, %y : f32
            gpuir.write %s, %a[%t, %j] : memref<256x4xf32, #gpuir.rmem>
          }
          gpuir.sm80.st_global %gc, %ra : memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>
        } else {
          gpuir.for %j = 0 to 4 : seq {
            gpuir.if %task * 1024 + %t * 4 + %j < %n {
              %x = gpuir.read %A[%task * 1024 + %t * 4 + %j] : memref<?xf32, #gpuir.gmem>
              %y = gpuir.read %B[%task * 1024 + %t * 4 + %j] : memref<?xf32, #gpuir.gmem>
              %s = arith.addf %x, %y : f32
              gpuir.write %s, %C[%task * 1024 + %t * 4 + %j] : memref<?xf32, #gpuir.gmem>
            }
          }
        }
      }
    }
  }
}
