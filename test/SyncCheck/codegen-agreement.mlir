// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-check

// What the check accepts is what code generation lowers: the constructs code
// generation refuses are refused by the check with the same message.

gpuir.proc @lagged_await(%n: index) attributes {gpuir.check_sizes = [{n = 1}]} {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      gpuir.for %k = 0 to 4 : seq {
        gpuir.arrive cuda_in_order >> %bar[%k mod 2] : !gpuir.barrier<mbarrier [2]>
        // expected-error @+1 {{'gpuir.await' op awaits with lag(1); only lag 0 (and mbarrier_prearrive's first phase) is lowered yet}}
        gpuir.await %bar[%k mod 2], cuda_in_order, lag(1) : !gpuir.barrier<mbarrier [2]>
      }
    }
  }
}

// -----

gpuir.proc @two_kernels(%n: index, %A: memref<?xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 1}]} {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %A[%t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
  // expected-error @+1 {{'gpuir.device_function' op is a second device function in the procedure; code generation lowers one device function per procedure to a kernel: write each kernel as a procedure of its own}}
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 1.0 : f32
        gpuir.write %z, %A[%t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
