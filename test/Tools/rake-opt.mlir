// RUN: rake-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS
// RUN: rake-opt %s --canonicalize --cse --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: rake-opt %s --pass-pipeline='builtin.module(canonicalize)' --mlir-print-ir-before=canonicalize 2>&1 | FileCheck %s --check-prefix=BEFORE

// rake-opt knows the Rake dialects and the upstream ones Rake lowers
// through, and the upstream IR-printing flags work on GpuIR.

// DIALECTS: Available Dialects:
// DIALECTS-SAME: affine
// DIALECTS-SAME: amir
// DIALECTS-SAME: arith
// DIALECTS-SAME: func
// DIALECTS-SAME: gpu
// DIALECTS-SAME: gpuir
// DIALECTS-SAME: llvm
// DIALECTS-SAME: math
// DIALECTS-SAME: memref
// DIALECTS-SAME: nvgpu
// DIALECTS-SAME: nvvm
// DIALECTS-SAME: rtest
// DIALECTS-SAME: scf

// AFTER: // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// AFTER: gpuir.proc @copy
// AFTER: // -----// IR Dump After CSE (cse) //----- //
// AFTER: gpuir.read

// BEFORE: // -----// IR Dump Before Canonicalizer (canonicalize) //----- //
// BEFORE: gpuir.write
gpuir.proc @copy(%n: index, %A: memref<?xf32, #gpuir.gmem>, %B: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n ceildiv 128 : cuda_tasks {
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.if %task * 128 + %t < %n {
          %v = gpuir.read %A[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %B[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}
