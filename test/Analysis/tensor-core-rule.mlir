// RUN: rake-opt %s -split-input-file --rake-tensor-core-rule | FileCheck %s
// RUN: rake-opt %s -split-input-file --rake-tensor-core-rule -o /dev/null
// RUN: rake-opt %S/Inputs/tensor-core-rule-invalid.mlir -split-input-file --rake-tensor-core-rule -verify-diagnostics
// Every example and benchmark kernel keeps its matrix products on the
// tensor cores:
// RUN: for f in %examples/*.mlir %rake_src/bench/gemm/*.mlir %rake_src/bench/gemm_examples/*.mlir; do rake-opt $f --rake-tensor-core-rule -o /dev/null || exit 1; done
// The formats are the profile's: f4E2M1FN has tensor-core instructions on
// sm_120a (so its product on the CUDA cores breaks the rule as any other),
// none on sm_90a.
// RUN: not rake-opt %S/Inputs/tensor-core-rule-fp4.mlir --rake-tensor-core-rule 2>&1 | FileCheck %s --check-prefix=FP4-SM90
// FP4-SM90: tensor-core-rule-fp4.mlir:17:13: error: 'gpuir.reduce' op is a matrix product of f4E2M1FN (rows over %m and %t, columns over %u, the sum over %k); profile nvidia-ptx-sm90a has no tensor-core instruction for that format (its instructions take f16, bf16, f8E4M3FN and f8E5M2, i8 as s8 or u8, and tf32, f32 rounded by the instruction): declare the inputs in one of them, or mark a loop around it `slow` to run it on the CUDA cores
// RUN: not rake-opt %S/Inputs/tensor-core-rule-fp4.mlir --rake-tensor-core-rule=profile=nvidia-ptx-sm120a 2>&1 | FileCheck %s --check-prefix=FP4-SM120
// FP4-SM120: tensor-core-rule-fp4.mlir:17:13: error: 'gpuir.reduce' op is a matrix product on the CUDA cores (rows over %m and %t, columns over %u, the sum over %k); profile nvidia-ptx-sm120a runs matrix products on tensor-core instructions: replace the nest by mma_sync or mma_block_scale (transform.gpuir.replace), or mark a loop around it `slow` to run it on the CUDA cores
// The same kernel's f64 twin on sm_120a names that profile's formats:
// RUN: sed -e 's/f4E2M1FN/f64/g; s/arith.extf %\(.\) : f64 to f32/arith.truncf %\1 : f64 to f32/' %S/Inputs/tensor-core-rule-fp4.mlir > %t.f64.mlir
// RUN: not rake-opt %t.f64.mlir --rake-tensor-core-rule=profile=nvidia-ptx-sm120a 2>&1 | FileCheck %s --check-prefix=F64-SM120
// F64-SM120: error: 'gpuir.reduce' op is a matrix product of f64 (rows over %m and %t, columns over %u, the sum over %k); profile nvidia-ptx-sm120a has no tensor-core instruction for that format (its instructions take f16, bf16, f8E4M3FN, f8E5M2, f6E3M2FN, f6E2M3FN and f4E2M1FN, i8 as s8 or u8, and tf32, f32 rounded by the instruction)
// Code generation applies the rule: a GEMM on the CUDA cores does not compile.
// RUN: not rake-translate --gpuir-to-ptx %S/Inputs/tensor-core-rule-naive.mlir 2>&1 | FileCheck %s --check-prefix=PTX
// Marked slow, the same kernel compiles, and --rake-check proves it:
// RUN: sed 's/: seq {/: seq slow {/' %S/Inputs/tensor-core-rule-naive.mlir > %t.slow.mlir
// RUN: rake-translate --gpuir-to-ptx %t.slow.mlir | FileCheck %s --check-prefix=SLOW
// RUN: rake-opt %t.slow.mlir --rake-check -o /dev/null
// SLOW: mul.rn.f32
// SLOW: add.rn.f32
// RUN: not rake-opt %S/Inputs/tensor-core-rule-naive.mlir --rake-check -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTX
// PTX: error: 'gpuir.reduce' op is a matrix product of f32 (rows over %m and %t, columns over %u, the sum over %k)

// The profile's tensor-core rule. Accepted: a matrix product in a `slow`
// loop (printed with the keyword), a dot product and a matrix-vector
// product (no rows and columns both), and a product too small for a tensor
// core (4 rows).

// CHECK-LABEL: gpuir.proc @slow_gemm
// CHECK:       gpuir.for %k = 0 to 64 : seq slow {
gpuir.proc @slow_gemm(%n: index, %A: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 64)>},
                      %B: memref<64x16xf32, #gpuir.gmem>,
                      %C: memref<?x16xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 16)>}) {
  gpuir.device_function block(256) {
    gpuir.for %m = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 16 : cuda_threads<#gpuir.unit<16 x thread>> {
        gpuir.for %u = 0 to 16 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %k = 0 to 64 : seq slow {
            %a = gpuir.read %A[%m * 16 + %t, %k] : memref<?x64xf32, #gpuir.gmem>
            %b = gpuir.read %B[%k, %u] : memref<64x16xf32, #gpuir.gmem>
            %p = arith.mulf %a, %b : f32
            gpuir.reduce %p, %C[%m * 16 + %t, %u] : memref<?x16xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}

// -----

// CHECK-LABEL: gpuir.proc @matvec
gpuir.proc @matvec(%n: index, %A: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 32, 64)>},
                   %x: memref<64xf32, #gpuir.gmem>,
                   %y: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 32)>},
                   %d: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>}) {
  gpuir.device_function block(32) {
    gpuir.for %m = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %k = 0 to 64 : seq {
          %a = gpuir.read %A[%m * 32 + %t, %k] : memref<?x64xf32, #gpuir.gmem>
          %b = gpuir.read %x[%k] : memref<64xf32, #gpuir.gmem>
          %p = arith.mulf %a, %b : f32
          gpuir.reduce %p, %y[%m * 32 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// A batch of 4 x 32 products: each has 4 rows, too few for a tensor core
// (the batch index is in every operand, so it is no role).
// CHECK-LABEL: gpuir.proc @small
gpuir.proc @small(%n: index, %A: memref<?x4x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 4, 64)>},
                  %B: memref<?x64x32xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64, 32)>},
                  %C: memref<?x4x32xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 4, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %b = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 4 : cuda_threads<#gpuir.unit<32 x thread>> {
        gpuir.for %u = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %k = 0 to 64 : seq {
            %x = gpuir.read %A[%b, %t, %k] : memref<?x4x64xf32, #gpuir.gmem>
            %y = gpuir.read %B[%b, %k, %u] : memref<?x64x32xf32, #gpuir.gmem>
            %p = arith.mulf %x, %y : f32
            gpuir.reduce %p, %C[%b, %t, %u] : memref<?x4x32xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}
