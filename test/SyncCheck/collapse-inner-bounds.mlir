// The check runs a sequential loop nest whose accesses cover intervals in
// one pass (at its first value); an inner loop whose bound uses the outer
// variable (a triangle, j < i) runs no iteration at i = 0, so its reads were
// neither checked nor recorded. Thread 0 reads s[100..106] that threads
// 100..106 wrote without a barrier: the race must be found (found by an
// adversarial review). Such nests are now interpreted iteration by
// iteration.
// RUN: not rake-opt %s --rake-check 2>&1 | FileCheck %s
// CHECK: error: RAW hazard: thread 0 of task 0 read s[100] on cuda_in_order_ram, written by thread 100 of task 0 on cuda_in_order_ram without synchronization that orders it before
// With the CTA's barrier between the writes and the reads it passes.
// RUN: sed 's|^      gpuir.for %%t = 0 to 1 : cuda_threads|      gpuir.fence cuda_in_order -> cuda_in_order\n&|' %s | rake-opt --rake-check > /dev/null
gpuir.proc @triangle(%A: memref<128xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<128xf32, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%t] : memref<128xf32, #gpuir.gmem>
        gpuir.write %v, %s[%t] : memref<128xf32, #gpuir.smem>
      }
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 8 : seq {
          gpuir.for %j = 0 to %i : seq {
            %x = gpuir.read %s[%j + 100] : memref<128xf32, #gpuir.smem>
            gpuir.write %x, %A[%t] : memref<128xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}
