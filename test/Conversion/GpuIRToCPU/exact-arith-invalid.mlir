// RUN: rake-opt %s -split-input-file -verify-diagnostics --convert-gpuir-to-cpu
// RUN: rake-opt %s -split-input-file -verify-diagnostics --convert-gpuir-to-nvvm

// The arith ops that the host and the GPU would compute differently, and
// that have no exact rewrite, are refused by both lowerings at the op, with
// what to write instead (found by an adversarial review: each was accepted
// and gave other bits, or crashed the sequential run).

// -----

gpuir.proc @contract(%X: memref<32xf32, #gpuir.gmem>, %Y: memref<32xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<32xf32, #gpuir.gmem>
        // expected-error @below {{'arith.mulf' op has fast-math flags (#arith.fastmath<contract>), which let the host and the GPU compute different results (a fused multiply-add on one side only, an approximate division); remove them, and write math.fma where a fused multiply-add is meant}}
        %p = arith.mulf %x, %x fastmath<contract> : f32
        gpuir.write %p, %Y[%t] : memref<32xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @fast_div(%X: memref<32xf32, #gpuir.gmem>, %Y: memref<32xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<32xf32, #gpuir.gmem>
        // expected-error @below {{'arith.divf' op has fast-math flags (#arith.fastmath<fast>), which let the host and the GPU compute different results (a fused multiply-add on one side only, an approximate division); remove them, and write math.fma where a fused multiply-add is meant}}
        %p = arith.divf %x, %x fastmath<fast> : f32
        gpuir.write %p, %Y[%t] : memref<32xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @sitofp_bf16(%X: memref<32xi32, #gpuir.gmem>, %Y: memref<32xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<32xi32, #gpuir.gmem>
        // expected-error @below {{'arith.sitofp' op to bf16 rounds twice on the host (through f32) and once on the GPU; convert to f32 (arith.sitofp) and round to bf16 with arith.truncf, which rounds the same on both}}
        %p = arith.sitofp %x : i32 to bf16
        gpuir.write %p, %Y[%t] : memref<32xbf16, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @uitofp_bf16(%X: memref<32xi64, #gpuir.gmem>, %Y: memref<32xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<32xi64, #gpuir.gmem>
        // expected-error @below {{'arith.uitofp' op to bf16 rounds twice on the host (through f32) and once on the GPU; convert to f32 (arith.uitofp) and round to bf16 with arith.truncf, which rounds the same on both}}
        %p = arith.uitofp %x : i64 to bf16
        gpuir.write %p, %Y[%t] : memref<32xbf16, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @f64_bf16(%X: memref<32xf64, #gpuir.gmem>, %Y: memref<32xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<32xf64, #gpuir.gmem>
        // expected-error @below {{'arith.truncf' op from f64 to bf16 has no exact lowering on the host; truncate to f32 first (two roundings, written out)}}
        %p = arith.truncf %x : f64 to bf16
        gpuir.write %p, %Y[%t] : memref<32xbf16, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @upward(%X: memref<32xf64, #gpuir.gmem>, %Y: memref<32xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<32xf64, #gpuir.gmem>
        // expected-error @below {{'arith.truncf' op rounds upward, which neither lowering implements (both round to nearest even); round to nearest even}}
        %p = arith.truncf %x upward : f64 to f32
        gpuir.write %p, %Y[%t] : memref<32xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @fp8(%X: memref<32xf8E4M3FN, #gpuir.gmem>, %Y: memref<32xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<32xf8E4M3FN, #gpuir.gmem>
        // expected-error @below {{'arith.extf' op on 'f8E4M3FN' has no exact lowering on both the host and the GPU: arithmetic is on f16, bf16, f32 and f64 (the 8-, 6- and 4-bit formats are inputs of the tensor-core instructions, whose sequential behaviors decode them)}}
        %p = arith.extf %x : f8E4M3FN to f32
        gpuir.write %p, %Y[%t] : memref<32xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @f128(%X: memref<32xf128, #gpuir.gmem>, %Y: memref<32xf128, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<32xf128, #gpuir.gmem>
        // expected-error @below {{'arith.addf' op on 'f128' has no exact lowering on both the host and the GPU: arithmetic is on f16, bf16, f32 and f64 (the 8-, 6- and 4-bit formats are inputs of the tensor-core instructions, whose sequential behaviors decode them)}}
        %p = arith.addf %x, %x : f128
        gpuir.write %p, %Y[%t] : memref<32xf128, #gpuir.gmem>
      }
    }
  }
}

// -----

// LLVM's NVPTX backend expands frem as x - trunc(x / y) * y with a rounded
// division; the host's fmod is exact.
gpuir.proc @remf(%X: memref<32xf32, #gpuir.gmem>, %Y: memref<32xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<32xf32, #gpuir.gmem>
        %c = arith.constant 3.0e-7 : f32
        // expected-error @below {{'arith.remf' op has no exact lowering on the GPU: LLVM's NVPTX backend computes x - trunc(x / y) * y with a rounded division, not the exact remainder the host's fmod gives; compute the remainder on the host, or write out the arithmetic that is meant (arith.divf, math.trunc, math.fma)}}
        %p = arith.remf %x, %c : f32
        gpuir.write %p, %Y[%t] : memref<32xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// Vector arithmetic: the host's lowering has none, and the GPU's would skip
// the rules above.
gpuir.proc @vector(%X: memref<32xf32, #gpuir.gmem>, %Y: memref<32xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<32xf32, #gpuir.gmem>
        // expected-error @below {{'vector.broadcast' op computes on 'vector<4xf32>' values; GpuIR's lowerings compute on scalars (the sequential meaning has no vector operations, and the GPU's would differ from it): write the elements out as scalars (gpuir.sm80.ld_global and st_global move runs of elements as one access)}}
        %v = vector.broadcast %x : f32 to vector<4xf32>
        // expected-error @below {{'vector.extract' op computes on 'vector<4xf32>' values}}
        %e = vector.extract %v[0] : f32 from vector<4xf32>
        gpuir.write %e, %Y[%t] : memref<32xf32, #gpuir.gmem>
      }
    }
  }
}
