// RUN: rake-opt %s --rake-sync-check="sizes=n=1" 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not rake-opt %s --rake-sync-check="sizes=n=2" 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not rake-opt %s --rake-sync-check="sizes=n=2 max-errors=0" 2>&1 | FileCheck %s --check-prefix=ALL

// A program that passes is printed unchanged (no abstract machine ops are
// left behind); max-errors caps the hazards reported (default 1, 0 for all).

// PASS-NOT: error
// PASS-NOT: amir.
// PASS: gpuir.proc @two_tasks
// PASS: gpuir.write %{{.*}}, %A[%t]

// ONE: error: WAW hazard: thread 0 of task 1
// ONE-NOT: error:

// ALL: error: WAW hazard: thread 0 of task 1
// ALL: error: WAW hazard: thread 1 of task 1
// ALL: error: WAW hazard: thread 31 of task 1
gpuir.proc @two_tasks(%n: index, %A: memref<32xf32, #gpuir.gmem>, %B: memref<32xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %B[%t] : memref<32xf32, #gpuir.gmem>
        gpuir.write %v, %A[%t] : memref<32xf32, #gpuir.gmem>
      }
    }
  }
}
