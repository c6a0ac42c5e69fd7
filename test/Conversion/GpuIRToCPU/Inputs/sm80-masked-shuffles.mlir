// The four shuffles over partial warps (`active(n)`, n = task - 2: -2 to
// 33): for the sequential-meaning test masked-shuffles.mlir, and
// test/GPU/sm80.mlir, which runs it on the GPU against the same meaning.
// Row t of X holds each lane's value; Y[t, i, l] is lane l's result of
// shuffle i (bfly 3, down 5, up 7, idx 9).
gpuir.proc @masked_shuffles(%X: memref<36x32xi32, #gpuir.gmem>, %Y: memref<36x4x32xi32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 36 : cuda_tasks {
      %v = gpuir.alloc : memref<32xi32, #gpuir.rmem>
      %r = gpuir.alloc : memref<32x4xi32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t, %l] : memref<36x32xi32, #gpuir.gmem>
        gpuir.write %x, %v[%l] : memref<32xi32, #gpuir.rmem>
      }
      %r0 = gpuir.window %r[0 : 32, 0] : memref<32x4xi32, #gpuir.rmem> -> memref<32xi32, strided<[4]>, #gpuir.rmem>
      gpuir.sm80.shfl_bfly %r0, %v, 3 active(%t - 2) : memref<32xi32, strided<[4]>, #gpuir.rmem>, memref<32xi32, #gpuir.rmem>
      %r1 = gpuir.window %r[0 : 32, 1] : memref<32x4xi32, #gpuir.rmem> -> memref<32xi32, strided<[4], offset: 1>, #gpuir.rmem>
      gpuir.sm80.shfl_down %r1, %v, 5 active(%t - 2) : memref<32xi32, strided<[4], offset: 1>, #gpuir.rmem>, memref<32xi32, #gpuir.rmem>
      %r2 = gpuir.window %r[0 : 32, 2] : memref<32x4xi32, #gpuir.rmem> -> memref<32xi32, strided<[4], offset: 2>, #gpuir.rmem>
      gpuir.sm80.shfl_up %r2, %v, 7 active(%t - 2) : memref<32xi32, strided<[4], offset: 2>, #gpuir.rmem>, memref<32xi32, #gpuir.rmem>
      %r3 = gpuir.window %r[0 : 32, 3] : memref<32x4xi32, #gpuir.rmem> -> memref<32xi32, strided<[4], offset: 3>, #gpuir.rmem>
      gpuir.sm80.shfl_idx %r3, %v, 9 active(%t - 2) : memref<32xi32, strided<[4], offset: 3>, #gpuir.rmem>, memref<32xi32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 4 : seq {
          %y = gpuir.read %r[%l, %i] : memref<32x4xi32, #gpuir.rmem>
          gpuir.write %y, %Y[%t, %i, %l] : memref<36x4x32xi32, #gpuir.gmem>
        }
      }
    }
  }
}
