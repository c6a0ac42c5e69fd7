// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-sync-check
// RUN: not rake-opt %s --rake-sync-check="sizes=n=x" 2>&1 | FileCheck %s --check-prefix=BAD

// The sizes the synchronization check runs at, and what it says about bad
// ones.

// BAD: expected name=integer in sizes, found 'n=x'

// Several size sets: the race shows only when n > 1 (the second task's
// thread reads the first task's write of the same element).
gpuir.proc @two_sets(%n: index, %A: memref<?xf32, #gpuir.gmem>, %B: memref<32xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 1}, {n = 2}]} {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %B[%t] : memref<32xf32, #gpuir.gmem>
        // expected-note @+2 {{the earlier write of A[0]}}
        // expected-error @+1 {{WAW hazard: thread 0 of task 1 write A[0] on cuda_in_order_ram, written by thread 0 of task 0 on cuda_in_order_ram without synchronization that orders it before}}
        gpuir.write %v, %A[%t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// expected-error @+1 {{gpuir.check_sizes is a list of dictionaries of control parameter values}}
gpuir.proc @not_dicts(%n: index) attributes {gpuir.check_sizes = [1]} {
}

// -----

// expected-error @+1 {{gpuir.check_sizes: the value of 'n' is not an integer}}
gpuir.proc @not_integer(%n: index) attributes {gpuir.check_sizes = [{n = "big"}]} {
}

// -----

// expected-error @+1 {{the synchronization check needs a value for the control parameter 'n'; give it with --rake-sync-check="sizes=n=..." or the procedure's gpuir.check_sizes}}
gpuir.proc @missing(%n: index) attributes {gpuir.check_sizes = [{m = 4}]} {
}

// -----

// expected-error @+1 {{the synchronization check got n = -2; control parameters are sizes and indices, which are not negative}}
gpuir.proc @negative(%n: index, %A: memref<?xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = -2}]} {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
    }
  }
}

// -----

// At n = 0 no task runs: the check passes, and says that it proved nothing.
// expected-warning @+1 {{the synchronization check at n = 0 runs no device task, so it proves nothing about the kernel; check at sizes that launch at least one task}}
gpuir.proc @no_task(%n: index, %A: memref<?xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 0}, {n = 1}]} {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %A[%task * 32 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
