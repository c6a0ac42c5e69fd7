// The integer operations LLVM leaves undefined, on edge values: shifts by
// the bit width or more, float-to-integer conversions out of range and of
// NaN, division and remainder by zero and of the signed minimum by -1. For
// defined-integer.mlir (the sequential meaning against an independent
// reference) and test/GPU/sm80.mlir (the GPU against the sequential meaning).
// Lane l of task t takes X[t, l], S[t, l] and F[t, l]; Y[t, i, l] is result i.
gpuir.proc @defined_integer(%X: memref<2x32xi32, #gpuir.gmem>, %S: memref<2x32xi32, #gpuir.gmem>, %F: memref<2x32xf32, #gpuir.gmem>, %Y: memref<2x11x32xi32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 2 : cuda_tasks {
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t, %l] : memref<2x32xi32, #gpuir.gmem>
        %s = gpuir.read %S[%t, %l] : memref<2x32xi32, #gpuir.gmem>
        %f = gpuir.read %F[%t, %l] : memref<2x32xf32, #gpuir.gmem>
        %r0 = arith.shli %x, %s : i32
        gpuir.write %r0, %Y[%t, 0, %l] : memref<2x11x32xi32, #gpuir.gmem>
        %r1 = arith.shrui %x, %s : i32
        gpuir.write %r1, %Y[%t, 1, %l] : memref<2x11x32xi32, #gpuir.gmem>
        %r2 = arith.shrsi %x, %s : i32
        gpuir.write %r2, %Y[%t, 2, %l] : memref<2x11x32xi32, #gpuir.gmem>
        %r3 = arith.fptosi %f : f32 to i32
        gpuir.write %r3, %Y[%t, 3, %l] : memref<2x11x32xi32, #gpuir.gmem>
        %r4 = arith.fptoui %f : f32 to i32
        gpuir.write %r4, %Y[%t, 4, %l] : memref<2x11x32xi32, #gpuir.gmem>
        %r5 = arith.divsi %x, %s : i32
        gpuir.write %r5, %Y[%t, 5, %l] : memref<2x11x32xi32, #gpuir.gmem>
        %r6 = arith.remsi %x, %s : i32
        gpuir.write %r6, %Y[%t, 6, %l] : memref<2x11x32xi32, #gpuir.gmem>
        %r7 = arith.divui %x, %s : i32
        gpuir.write %r7, %Y[%t, 7, %l] : memref<2x11x32xi32, #gpuir.gmem>
        %r8 = arith.remui %x, %s : i32
        gpuir.write %r8, %Y[%t, 8, %l] : memref<2x11x32xi32, #gpuir.gmem>
        %r9 = arith.floordivsi %x, %s : i32
        gpuir.write %r9, %Y[%t, 9, %l] : memref<2x11x32xi32, #gpuir.gmem>
        %r10 = arith.ceildivsi %x, %s : i32
        gpuir.write %r10, %Y[%t, 10, %l] : memref<2x11x32xi32, #gpuir.gmem>
      }
    }
  }
}
