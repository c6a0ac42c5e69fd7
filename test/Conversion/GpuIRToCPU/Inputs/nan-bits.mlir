// Where a NaN's sign or payload would show in a number: its bits read as an
// integer (arith.bitcast) and its sign given to another value
// (math.copysign), and index arithmetic that LLVM leaves undefined. For
// nan-bits.mlir (the sequential meaning against an independent reference)
// and test/GPU/sm80.mlir (the GPU against the sequential meaning).
// Lane l takes X[l] and S[l]; Y[i, l] is result i.
gpuir.proc @nan_bits(%X: memref<32xf32, #gpuir.gmem>, %S: memref<32xi32, #gpuir.gmem>, %Y: memref<6x32xi32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%l] : memref<32xf32, #gpuir.gmem>
        %s = gpuir.read %S[%l] : memref<32xi32, #gpuir.gmem>
        %b0 = arith.bitcast %x : f32 to i32
        gpuir.write %b0, %Y[0, %l] : memref<6x32xi32, #gpuir.gmem>
        // The host's x86 arithmetic passes the NaN operand on (its sign and
        // payload), the GPU's makes the canonical NaN.
        %one = arith.constant 1.0 : f32
        %m = arith.mulf %x, %one : f32
        %b1 = arith.bitcast %m : f32 to i32
        gpuir.write %b1, %Y[1, %l] : memref<6x32xi32, #gpuir.gmem>
        %c = math.copysign %one, %m : f32
        %b2 = arith.bitcast %c : f32 to i32
        gpuir.write %b2, %Y[2, %l] : memref<6x32xi32, #gpuir.gmem>
        %h = arith.truncf %x : f32 to f16
        %b3 = arith.bitcast %h : f16 to i16
        %b3w = arith.extsi %b3 : i16 to i32
        gpuir.write %b3w, %Y[3, %l] : memref<6x32xi32, #gpuir.gmem>
        // index is 64 bits wide on both sides; its division by zero has the
        // integers' meaning (0, and the dividend for the remainder).
        %i = arith.index_cast %s : i32 to index
        %z = arith.subi %i, %i : index
        %q = arith.divsi %i, %z : index
        %q32 = arith.index_cast %q : index to i32
        gpuir.write %q32, %Y[4, %l] : memref<6x32xi32, #gpuir.gmem>
        %r = arith.remsi %i, %z : index
        %r32 = arith.index_cast %r : index to i32
        gpuir.write %r32, %Y[5, %l] : memref<6x32xi32, #gpuir.gmem>
      }
    }
  }
}
