// RUN: rake-opt %s -split-input-file --rake-check -verify-diagnostics > /dev/null

// The synchronization check on cp.async and its commit groups.

// Correct: each thread waits for its own copies, then the CTA meets, then
// threads read each other's copies.
gpuir.proc @waits_then_meets(%n: index, %A: memref<?x128xf32, #gpuir.gmem>, %B: memref<?x128xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<2x128xf32, #gpuir.smem>
      %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %d = gpuir.window %s[0, %t : %t + 1] : memref<2x128xf32, #gpuir.smem> -> memref<1xf32, strided<[1], offset: ?>, #gpuir.smem>
        %g = gpuir.window %A[%task, %t : %t + 1] : memref<?x128xf32, #gpuir.gmem> -> memref<1xf32, strided<[1], offset: ?>, #gpuir.gmem>
        gpuir.sm80.cp_async %d, %g : memref<1xf32, strided<[1], offset: ?>, #gpuir.smem>, memref<1xf32, strided<[1], offset: ?>, #gpuir.gmem>
      }
      gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
      gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<cp_async_group>
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %s[0, (%t + 1) mod 128] : memref<2x128xf32, #gpuir.smem>
        gpuir.write %v, %B[%task, %t] : memref<?x128xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// A thread's wait covers only its own copies: without the CTA fence, thread
// 0 reads the element thread 1 copied.
gpuir.proc @wait_without_fence(%n: index, %A: memref<?x128xf32, #gpuir.gmem>, %B: memref<?x128xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<2x128xf32, #gpuir.smem>
      %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %d = gpuir.window %s[0, %t : %t + 1] : memref<2x128xf32, #gpuir.smem> -> memref<1xf32, strided<[1], offset: ?>, #gpuir.smem>
        %g = gpuir.window %A[%task, %t : %t + 1] : memref<?x128xf32, #gpuir.gmem> -> memref<1xf32, strided<[1], offset: ?>, #gpuir.gmem>
        // expected-note @+1 {{the earlier write of s[0, 1]}}
        gpuir.sm80.cp_async %d, %g : memref<1xf32, strided<[1], offset: ?>, #gpuir.smem>, memref<1xf32, strided<[1], offset: ?>, #gpuir.gmem>
      }
      gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
      // expected-note @+1 {{this synchronization is too weak: it orders the earlier access for thread 1 of task 0 only, not for thread 0 of task 0; synchronize a collective that holds both (a fence of their common unit, or a barrier they both arrive on and await)}}
      gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<cp_async_group>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{RAW hazard: thread 0 of task 0 read s[0, 1] on cuda_in_order_ram, written by thread 1 of task 0 on Sm80_cp_async without synchronization that orders it before}}
        %v = gpuir.read %s[0, (%t + 1) mod 128] : memref<2x128xf32, #gpuir.smem>
        gpuir.write %v, %B[%task, %t] : memref<?x128xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// A fence does not wait for asynchronous copies: without the await, the
// copies may still be in flight.
gpuir.proc @fence_without_wait(%n: index, %A: memref<?x128xf32, #gpuir.gmem>, %B: memref<?x128xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<2x128xf32, #gpuir.smem>
      %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %d = gpuir.window %s[0, %t : %t + 1] : memref<2x128xf32, #gpuir.smem> -> memref<1xf32, strided<[1], offset: ?>, #gpuir.smem>
        %g = gpuir.window %A[%task, %t : %t + 1] : memref<?x128xf32, #gpuir.gmem> -> memref<1xf32, strided<[1], offset: ?>, #gpuir.gmem>
        // expected-note @+1 {{the earlier write of s[0, 1]}}
        gpuir.sm80.cp_async %d, %g : memref<1xf32, strided<[1], offset: ?>, #gpuir.smem>, memref<1xf32, strided<[1], offset: ?>, #gpuir.gmem>
      }
      gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
      // expected-note @+1 {{this synchronization by threads 0..127 of task 0 does not include Sm80_cp_async in its first timeline, so it does not order the earlier access}}
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{RAW hazard: thread 0 of task 0 read s[0, 1] on cuda_in_order_ram, written by thread 1 of task 0 on Sm80_cp_async without synchronization that orders it before}}
        %v = gpuir.read %s[0, (%t + 1) mod 128] : memref<2x128xf32, #gpuir.smem>
        gpuir.write %v, %B[%task, %t] : memref<?x128xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// outstanding(1) leaves the newest group unfinished: stage 1's copies, which
// are the ones read.
gpuir.proc @newest_group_pending(%n: index, %A: memref<?x128xf32, #gpuir.gmem>, %B: memref<?x128xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<2x128xf32, #gpuir.smem>
      %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %d = gpuir.window %s[0, %t : %t + 1] : memref<2x128xf32, #gpuir.smem> -> memref<1xf32, strided<[1], offset: ?>, #gpuir.smem>
        %g = gpuir.window %A[%task, %t : %t + 1] : memref<?x128xf32, #gpuir.gmem> -> memref<1xf32, strided<[1], offset: ?>, #gpuir.gmem>
        gpuir.sm80.cp_async %d, %g : memref<1xf32, strided<[1], offset: ?>, #gpuir.smem>, memref<1xf32, strided<[1], offset: ?>, #gpuir.gmem>
      }
      gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %d = gpuir.window %s[1, %t : %t + 1] : memref<2x128xf32, #gpuir.smem> -> memref<1xf32, strided<[1], offset: ?>, #gpuir.smem>
        %g = gpuir.window %A[%task, %t : %t + 1] : memref<?x128xf32, #gpuir.gmem> -> memref<1xf32, strided<[1], offset: ?>, #gpuir.gmem>
        // expected-note @+1 {{the earlier write of s[1, 1]}}
        gpuir.sm80.cp_async %d, %g : memref<1xf32, strided<[1], offset: ?>, #gpuir.smem>, memref<1xf32, strided<[1], offset: ?>, #gpuir.gmem>
      }
      gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
      gpuir.await %cg, cuda_in_order, outstanding(1) : !gpuir.barrier<cp_async_group>
      // expected-note @+1 {{this synchronization by threads 0..127 of task 0 does not include Sm80_cp_async in its first timeline, so it does not order the earlier access}}
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %s[0, (%t + 1) mod 128] : memref<2x128xf32, #gpuir.smem>
        gpuir.write %v, %B[%task, %t] : memref<?x128xf32, #gpuir.gmem>
      }
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{RAW hazard: thread 0 of task 0 read s[1, 1] on cuda_in_order_ram, written by thread 1 of task 0 on Sm80_cp_async without synchronization that orders it before}}
        %v = gpuir.read %s[1, (%t + 1) mod 128] : memref<2x128xf32, #gpuir.smem>
        gpuir.write %v, %B[%task, %t] : memref<?x128xf32, #gpuir.gmem>
      }
    }
  }
}
