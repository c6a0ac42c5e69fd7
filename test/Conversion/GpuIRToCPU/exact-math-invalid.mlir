// RUN: rake-opt %s -split-input-file -verify-diagnostics --convert-gpuir-to-cpu
// RUN: rake-opt %s -split-input-file -verify-diagnostics --convert-gpuir-to-nvvm

// Math ops without an exact lowering are refused by both lowerings, at the
// op, with what to write instead.
gpuir.proc @atan(%X: memref<128xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
    gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
      %x = gpuir.read %X[%t] : memref<128xf32, #gpuir.gmem>
      // expected-error @below {{'math.atan' op has no lowering that exact floating point allows (its library call or instruction is approximate); compute it on the host, or from arith operations and math.exp, math.exp2, math.log, math.tanh, math.erf, math.sqrt and math.fma}}
      %y = math.atan %x : f32
      gpuir.write %y, %X[%t] : memref<128xf32, #gpuir.gmem>
    }
    }
  }
}

// -----

gpuir.proc @sin(%X: memref<128xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
    gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
      %x = gpuir.read %X[%t] : memref<128xf32, #gpuir.gmem>
      // expected-error @below {{'math.sin' op has no lowering that exact floating point allows (its library call or instruction is approximate); compute it on the host, or from arith operations and math.exp, math.exp2, math.log, math.tanh, math.erf, math.sqrt and math.fma}}
      %y = math.sin %x : f32
      gpuir.write %y, %X[%t] : memref<128xf32, #gpuir.gmem>
    }
    }
  }
}

// -----

gpuir.proc @tanh_f64(%X: memref<128xf64, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
    gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
      %x = gpuir.read %X[%t] : memref<128xf64, #gpuir.gmem>
      // expected-error @below {{'math.tanh' op on 'f64' has no exact lowering here; it is lowered for f32: extend the operand with arith.extf (and round the result with arith.truncf)}}
      %y = math.tanh %x : f64
      gpuir.write %y, %X[%t] : memref<128xf64, #gpuir.gmem>
    }
    }
  }
}

// -----

gpuir.proc @powf(%X: memref<128xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
    gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
      %x = gpuir.read %X[%t] : memref<128xf32, #gpuir.gmem>
      // expected-error @below {{'math.powf' op has no lowering that exact floating point allows (its library call or instruction is approximate); write the product with arith.mulf, or math.exp2 of y times math.log2 of x computed with math.log}}
      %y = math.powf %x, %x : f32
      gpuir.write %y, %X[%t] : memref<128xf32, #gpuir.gmem>
    }
    }
  }
}

// -----

// Rake's exp is for f32; on f16 the operand is extended first.
gpuir.proc @exp_f16(%X: memref<128xf16, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
    gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
      %x = gpuir.read %X[%t] : memref<128xf16, #gpuir.gmem>
      // expected-error @below {{'math.exp' op on 'f16' has no exact lowering here; it is lowered for f32: extend the operand with arith.extf (and round the result with arith.truncf)}}
      %y = math.exp %x : f16
      gpuir.write %y, %X[%t] : memref<128xf16, #gpuir.gmem>
    }
    }
  }
}

// -----

gpuir.proc @sqrt_bf16(%X: memref<128xbf16, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
    gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
      %x = gpuir.read %X[%t] : memref<128xbf16, #gpuir.gmem>
      // expected-error @below {{'math.sqrt' op on 'bf16' has no exact lowering here; it is lowered for f32 and f64: extend the operand with arith.extf (and round the result with arith.truncf)}}
      %y = math.sqrt %x : bf16
      gpuir.write %y, %X[%t] : memref<128xbf16, #gpuir.gmem>
    }
    }
  }
}
