// The tensor-core rule's rejections (tensor-core-rule.mlir runs this file).

// A GEMM on the CUDA cores: one thread per element of C (rows %m, %t;
// columns %u), a sequential sum over %k, in f32 (which the tensor cores
// would round to tf32).
gpuir.proc @naive(%n: index, %A: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 64)>},
                  %B: memref<64x16xf32, #gpuir.gmem>,
                  %C: memref<?x16xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 16)>}) {
  gpuir.device_function block(256) {
    gpuir.for %m = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 16 : cuda_threads<#gpuir.unit<16 x thread>> {
        gpuir.for %u = 0 to 16 : cuda_threads<#gpuir.unit<thread>> {
          // expected-note @+1 {{the sum's loop}}
          gpuir.for %k = 0 to 64 : seq {
            %a = gpuir.read %A[%m * 16 + %t, %k] : memref<?x64xf32, #gpuir.gmem>
            %b = gpuir.read %B[%k, %u] : memref<64x16xf32, #gpuir.gmem>
            %p = arith.mulf %a, %b : f32
            // expected-error @+1 {{'gpuir.reduce' op is a matrix product of f32 (rows over %m and %t, columns over %u, the sum over %k); profile nvidia-ptx-sm90a has no tensor-core instruction for that format (its instructions take f16, bf16, f8E4M3FN and f8E5M2, i8 as s8 or u8, and tf32, f32 rounded by the instruction): declare the inputs in one of them, or mark a loop around it `slow` to run it on the CUDA cores}}
            gpuir.reduce %p, %C[%m * 16 + %t, %u] : memref<?x16xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}

// -----

// The same with bf16 inputs widened to f32 and the sum kept in a register
// (read, add, write back), B transposed.
gpuir.proc @register_sum(%n: index, %A: memref<?x64xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 32, 64)>},
                         %Bt: memref<32x64xbf16, #gpuir.gmem>,
                         %C: memref<?x32xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 32, 32)>}) {
  gpuir.device_function block(32) {
    gpuir.for %m = 0 to %n : cuda_tasks {
      %acc = gpuir.alloc : memref<32x32xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 32 : seq {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %acc[%t, %j] : memref<32x32xf32, #gpuir.rmem>
          // expected-note @+1 {{the sum's loop}}
          gpuir.for %k = 0 to 64 : seq {
            %a = gpuir.read %A[%m * 32 + %t, %k] : memref<?x64xbf16, #gpuir.gmem>
            %b = gpuir.read %Bt[%j, %k] : memref<32x64xbf16, #gpuir.gmem>
            %ae = arith.extf %a : bf16 to f32
            %be = arith.extf %b : bf16 to f32
            %p = arith.mulf %ae, %be : f32
            %c = gpuir.read %acc[%t, %j] : memref<32x32xf32, #gpuir.rmem>
            %s = arith.addf %c, %p : f32
            // expected-error @+1 {{'gpuir.write' op is a matrix product on the CUDA cores (rows over %m and %t, columns over %j, the sum over %k); profile nvidia-ptx-sm90a runs matrix products on tensor-core instructions: replace the nest by mma_sync or wgmma (transform.gpuir.replace), or mark a loop around it `slow` to run it on the CUDA cores}}
            gpuir.write %s, %acc[%t, %j] : memref<32x32xf32, #gpuir.rmem>
          }
          %v = gpuir.read %acc[%t, %j] : memref<32x32xf32, #gpuir.rmem>
          gpuir.write %v, %C[%m * 32 + %t, %j] : memref<?x32xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// A product in a format no tensor-core instruction of the profile takes.
gpuir.proc @f64(%n: index, %A: memref<?x64xf64, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 64)>},
                %B: memref<64x16xf64, #gpuir.gmem>,
                %C: memref<?x16xf64, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 16)>}) {
  gpuir.device_function block(256) {
    gpuir.for %m = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 16 : cuda_threads<#gpuir.unit<16 x thread>> {
        gpuir.for %u = 0 to 16 : cuda_threads<#gpuir.unit<thread>> {
          // expected-note @+1 {{the sum's loop}}
          gpuir.for %k = 0 to 64 : seq {
            %a = gpuir.read %A[%m * 16 + %t, %k] : memref<?x64xf64, #gpuir.gmem>
            %b = gpuir.read %B[%k, %u] : memref<64x16xf64, #gpuir.gmem>
            %p = arith.mulf %a, %b : f64
            // expected-error @+1 {{'gpuir.reduce' op is a matrix product of f64 (rows over %m and %t, columns over %u, the sum over %k); profile nvidia-ptx-sm90a has no tensor-core instruction for that format (its instructions take f16, bf16, f8E4M3FN and f8E5M2, i8 as s8 or u8, and tf32, f32 rounded by the instruction): declare the inputs in one of them, or mark a loop around it `slow` to run it on the CUDA cores}}
            gpuir.reduce %p, %C[%m * 16 + %t, %u] : memref<?x16xf64, #gpuir.gmem>
          }
        }
      }
    }
  }
}

// -----

// The sum in one register per thread, written out to C afterwards.
gpuir.proc @acc_gemm(%n: index, %A: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 64)>},
                      %B: memref<64x16xf32, #gpuir.gmem>,
                      %C: memref<?x16xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 16)>}) {
  gpuir.device_function block(256) {
    gpuir.for %m = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 16 : cuda_threads<#gpuir.unit<16 x thread>> {
        gpuir.for %u = 0 to 16 : cuda_threads<#gpuir.unit<thread>> {
          %acc = gpuir.alloc : memref<f32, #gpuir.rmem>
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %acc[] : memref<f32, #gpuir.rmem>
          // expected-note @+1 {{the sum's loop}}
          gpuir.for %k = 0 to 64 : seq {
            %a = gpuir.read %A[%m * 16 + %t, %k] : memref<?x64xf32, #gpuir.gmem>
            %b = gpuir.read %B[%k, %u] : memref<64x16xf32, #gpuir.gmem>
            %p = arith.mulf %a, %b : f32
            // expected-error @+1 {{'gpuir.reduce' op is a matrix product of f32 (rows over %m and %t, columns over %u, the sum over %k); profile nvidia-ptx-sm90a has no tensor-core instruction for that format (its instructions take f16, bf16, f8E4M3FN and f8E5M2, i8 as s8 or u8, and tf32, f32 rounded by the instruction): declare the inputs in one of them, or mark a loop around it `slow` to run it on the CUDA cores}}
            gpuir.reduce %p, %acc[] : memref<f32, #gpuir.rmem>
          }
          %r = gpuir.read %acc[] : memref<f32, #gpuir.rmem>
          gpuir.write %r, %C[%m * 16 + %t, %u] : memref<?x16xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// An explicit fma into C.
gpuir.proc @fma_gemm(%n: index, %A: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 64)>},
                      %B: memref<64x16xf32, #gpuir.gmem>,
                      %C: memref<?x16xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 16)>}) {
  gpuir.device_function block(256) {
    gpuir.for %m = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 16 : cuda_threads<#gpuir.unit<16 x thread>> {
        gpuir.for %u = 0 to 16 : cuda_threads<#gpuir.unit<thread>> {
          // expected-note @+1 {{the sum's loop}}
          gpuir.for %k = 0 to 64 : seq {
            %a = gpuir.read %A[%m * 16 + %t, %k] : memref<?x64xf32, #gpuir.gmem>
            %b = gpuir.read %B[%k, %u] : memref<64x16xf32, #gpuir.gmem>
            %c = gpuir.read %C[%m * 16 + %t, %u] : memref<?x16xf32, #gpuir.gmem>
            %p = math.fma %a, %b, %c : f32
            // expected-error @+1 {{'gpuir.write' op is a matrix product of f32 (rows over %m and %t, columns over %u, the sum over %k); profile nvidia-ptx-sm90a has no tensor-core instruction for that format (its instructions take f16, bf16, f8E4M3FN and f8E5M2, i8 as s8 or u8, and tf32, f32 rounded by the instruction): declare the inputs in one of them, or mark a loop around it `slow` to run it on the CUDA cores}}
            gpuir.write %p, %C[%m * 16 + %t, %u] : memref<?x16xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}

// -----

// An 8-bit integer GEMM (s8 widened to i32, the sum kept in i32 by read,
// add, write back) on the CUDA cores: mma_sync and wgmma take s8 and u8.
gpuir.proc @int8(%n: index, %A: memref<?x64xi8, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 64)>},
                 %B: memref<64x16xi8, #gpuir.gmem>,
                 %C: memref<?x16xi32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 16)>}) {
  gpuir.device_function block(256) {
    gpuir.for %m = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 16 : cuda_threads<#gpuir.unit<16 x thread>> {
        gpuir.for %u = 0 to 16 : cuda_threads<#gpuir.unit<thread>> {
          // expected-note @+1 {{the sum's loop}}
          gpuir.for %k = 0 to 64 : seq {
            %a = gpuir.read %A[%m * 16 + %t, %k] : memref<?x64xi8, #gpuir.gmem>
            %b = gpuir.read %B[%k, %u] : memref<64x16xi8, #gpuir.gmem>
            %a32 = arith.extsi %a : i8 to i32
            %b32 = arith.extui %b : i8 to i32
            %p = arith.muli %a32, %b32 : i32
            %c = gpuir.read %C[%m * 16 + %t, %u] : memref<?x16xi32, #gpuir.gmem>
            %s = arith.addi %c, %p : i32
            // expected-error @+1 {{'gpuir.write' op is a matrix product on the CUDA cores (rows over %m and %t, columns over %u, the sum over %k); profile nvidia-ptx-sm90a runs matrix products on tensor-core instructions: replace the nest by mma_sync or wgmma (transform.gpuir.replace), or mark a loop around it `slow` to run it on the CUDA cores}}
            gpuir.write %s, %C[%m * 16 + %t, %u] : memref<?x16xi32, #gpuir.gmem>
          }
        }
      }
    }
  }
}

// -----

// A 32-bit integer GEMM: no tensor-core instruction takes i32 inputs.
gpuir.proc @int32(%n: index, %A: memref<?x64xi32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 64)>},
                  %B: memref<64x16xi32, #gpuir.gmem>,
                  %C: memref<?x16xi32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 16)>}) {
  gpuir.device_function block(256) {
    gpuir.for %m = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 16 : cuda_threads<#gpuir.unit<16 x thread>> {
        gpuir.for %u = 0 to 16 : cuda_threads<#gpuir.unit<thread>> {
          // expected-note @+1 {{the sum's loop}}
          gpuir.for %k = 0 to 64 : seq {
            %a = gpuir.read %A[%m * 16 + %t, %k] : memref<?x64xi32, #gpuir.gmem>
            %b = gpuir.read %B[%k, %u] : memref<64x16xi32, #gpuir.gmem>
            %p = arith.muli %a, %b : i32
            // expected-error @+1 {{'gpuir.reduce' op is a matrix product of i32 (rows over %m and %t, columns over %u, the sum over %k); profile nvidia-ptx-sm90a has no tensor-core instruction for that format (its instructions take f16, bf16, f8E4M3FN and f8E5M2, i8 as s8 or u8, and tf32, f32 rounded by the instruction): declare the inputs in one of them, or mark a loop around it `slow` to run it on the CUDA cores}}
            gpuir.reduce %p, %C[%m * 16 + %t, %u] : memref<?x16xi32, #gpuir.gmem>
          }
        }
      }
    }
  }
}
