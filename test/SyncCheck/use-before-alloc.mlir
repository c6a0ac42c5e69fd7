// RUN: rake-opt %s -split-input-file -verify-diagnostics

// Use before allocation: every variable is the SSA value of its allocation,
// so an access before it is rejected when the IR is read, in GpuIR and in
// AMIR alike. The corrected twins (allocation first) are every other test.

gpuir.proc @gpuir_use_before_alloc(%x: memref<4xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %x[0] : memref<4xf32, #gpuir.gmem>
        // expected-error @+1 {{operand #1 does not dominate this use}}
        gpuir.write %v, %tile[0] : memref<4xf32, #gpuir.smem>
      }
      // expected-note @+1 {{operand defined here (op in a parent region)}}
      %tile = gpuir.alloc : memref<4xf32, #gpuir.smem>
    }
  }
}

// -----

amir.proc @amir_use_before_alloc() {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  amir.record_read %x[0 : 4] on cuda_in_order_ram : !amir.data
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %x = amir.alloc "x" [4] : !amir.data
}
