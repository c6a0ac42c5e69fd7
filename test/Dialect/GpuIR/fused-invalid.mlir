// RUN: rake-opt %s -split-input-file -verify-diagnostics

// Every rejection of gpuir.fused, with its exact message: a fused region's
// values stay in registers and shared memory, and its machine code has no
// loops and no calls.

gpuir.proc @outside_kernel(%X: memref<4xf32, #gpuir.gmem>) {
  // expected-error @+1 {{'gpuir.fused' op marks code that a kernel runs and must be inside a gpuir.device_function}}
  gpuir.fused {
  }
}

// -----

gpuir.proc @global_read(%X: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      // expected-note @+1 {{in this fused region}}
      gpuir.fused {
        gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
          // expected-error @+1 {{'gpuir.read' op accesses device memory inside a fused region, whose values stay in registers and shared memory; read the region's inputs before the gpuir.fused and write its outputs after it}}
          %x = gpuir.read %X[%t] : memref<256xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

gpuir.proc @global_write(%X: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      // expected-note @+1 {{in this fused region}}
      gpuir.fused {
        gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 0.0 : f32
          // expected-error @+1 {{'gpuir.write' op accesses device memory inside a fused region, whose values stay in registers and shared memory; read the region's inputs before the gpuir.fused and write its outputs after it}}
          gpuir.write %z, %X[%t] : memref<256xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

gpuir.proc @global_instr(%X: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<256xf32, #gpuir.smem>
      // expected-note @+1 {{in this fused region}}
      gpuir.fused {
        gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %src = gpuir.window %X[%t * 8 : %t * 8 + 4] : memref<256xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
          %dst = gpuir.window %s[%t * 8 : %t * 8 + 4] : memref<256xf32, #gpuir.smem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.smem>
          // expected-error @+1 {{'gpuir.sm80.cp_async' op accesses device memory inside a fused region, whose values stay in registers and shared memory; read the region's inputs before the gpuir.fused and write its outputs after it}}
          gpuir.sm80.cp_async %dst, %src : memref<4xf32, strided<[1], offset: ?>, #gpuir.smem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

gpuir.proc @param_bound(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      %r = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      // expected-note @+1 {{in this fused region}}
      gpuir.fused {
        gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          // expected-error @+1 {{'gpuir.for' op has a bound that is not a constant inside a fused region (code generation unrolls a fused region's loops, so that its machine code has none); give the loop constant bounds or move it out of the gpuir.fused}}
          gpuir.for %i = 0 to %n : seq {
            %z = arith.constant 0.0 : f32
            gpuir.write %z, %r[%t] : memref<32xf32, #gpuir.rmem>
          }
        }
      }
    }
  }
}

// -----

gpuir.proc @nested() {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      // expected-note @+1 {{in this fused region}}
      gpuir.fused {
        // expected-error @+1 {{'gpuir.fused' op is a fused region inside another fused region; remove the inner gpuir.fused}}
        gpuir.fused {
        }
      }
    }
  }
}

// -----

gpuir.proc @helper() {
}
gpuir.proc @calls() {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      // expected-note @+1 {{in this fused region}}
      gpuir.fused {
        // expected-error @+1 {{'gpuir.call' op calls a procedure inside a fused region, which forbids calls; inline it (transform.gpuir.inline) first}}
        gpuir.call @helper() : () -> ()
      }
    }
  }
}

// -----

gpuir.proc @awaits() {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [1]>
      gpuir.arrive cuda_in_order >> %bar[0] : !gpuir.barrier<mbarrier [1]>
      // expected-note @+1 {{in this fused region}}
      gpuir.fused {
        // expected-error @+1 {{'gpuir.await' op waits or signals a barrier inside a fused region (an await is a loop in the machine code, which a fused region forbids); move it before or after the gpuir.fused}}
        gpuir.await %bar[0], cuda_in_order : !gpuir.barrier<mbarrier [1]>
      }
    }
  }
}

// -----

gpuir.proc @tasks(%n: index) {
  gpuir.device_function block(32) {
    // expected-note @+1 {{in this fused region}}
    gpuir.fused {
      // expected-error @+1 {{'gpuir.for' op is a cuda_tasks loop inside a fused region; a fused region is part of one task}}
      gpuir.for %b = 0 to %n : cuda_tasks {
      }
    }
  }
}
