// RUN: rake-opt %s -split-input-file -verify-diagnostics --convert-gpuir-to-cpu

gpuir.proc @instruction(%n: index, %x: memref<4xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'rtest.in_order_op' op has no sequential behavior yet; instructions' behaviors come with their instruction sets}}
        rtest.in_order_op %x unit <thread> : memref<4xf32, #gpuir.gmem>
      }
    }
  }
}
