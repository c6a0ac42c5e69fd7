// RUN: rake-opt %s -split-input-file --rake-distributed-memory | FileCheck %s

// Distributed memory analysis attaches to each device allocation its
// sharding: the thread pitch of each leading dimension that selects a copy.

// Registers indexed by the thread: one copy per thread, pitch 1. A scalar
// register buffer allocated inside the thread loop has one copy per thread
// already and no distributed dimension.
// CHECK-LABEL: gpuir.proc @per_thread
// CHECK: gpuir.alloc {gpuir.sharding = #gpuir.sharding<owner = d0>} : memref<256x4xf32, #gpuir.rmem>
// CHECK: gpuir.alloc {gpuir.sharding = #gpuir.sharding<whole>} : memref<f32, #gpuir.rmem>
gpuir.proc @per_thread(%n: index, %A: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %acc = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
        gpuir.write %v, %acc[%t, 0] : memref<256x4xf32, #gpuir.rmem>
        %tmp = gpuir.alloc : memref<f32, #gpuir.rmem>
        gpuir.write %v, %tmp[] : memref<f32, #gpuir.rmem>
      }
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %acc[%t, 0] : memref<256x4xf32, #gpuir.rmem>
        gpuir.write %v, %A[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// Through warps and their threads: the row index w * 32 + l has pitch 1,
// like t above, so both loops agree.
// CHECK-LABEL: gpuir.proc @warps_then_threads
// CHECK: gpuir.alloc {gpuir.sharding = #gpuir.sharding<owner = d0>} : memref<128xf32, #gpuir.rmem>
gpuir.proc @warps_then_threads(%n: index, %A: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %r = gpuir.alloc : memref<128xf32, #gpuir.rmem>
      gpuir.for %w = 0 to 4 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%w * 32 + %l] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %r[%w * 32 + %l] : memref<128xf32, #gpuir.rmem>
        }
      }
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %r[%t] : memref<128xf32, #gpuir.rmem>
        gpuir.write %v, %A[%t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// A cluster of 2 CTAs: shared memory has one copy per CTA (pitch 256, the
// CTA size); registers are indexed by CTA and thread (pitches 256 and 1);
// an mbarrier array has one barrier per CTA.
// CHECK-LABEL: gpuir.proc @per_cta
// CHECK: gpuir.alloc {gpuir.sharding = #gpuir.sharding<owner = d0 * 256>} : memref<2x256xf32, #gpuir.smem>
// CHECK: gpuir.alloc {gpuir.sharding = #gpuir.sharding<owner = d0 * 256 + d1>} : memref<2x256xf32, #gpuir.rmem>
// CHECK: gpuir.alloc {gpuir.sharding = #gpuir.sharding<owner = d0 * 256>} : !gpuir.barrier<mbarrier [2]>
gpuir.proc @per_cta(%n: index, %A: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function cluster(2) block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<2x256xf32, #gpuir.smem>
      %r = gpuir.alloc : memref<2x256xf32, #gpuir.rmem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %s[%c, %t] : memref<2x256xf32, #gpuir.smem>
          gpuir.write %v, %r[%c, %t] : memref<2x256xf32, #gpuir.rmem>
        }
        gpuir.arrive cuda_in_order >> %bar[%c] : !gpuir.barrier<mbarrier [2]>
        gpuir.await %bar[%c], cuda_in_order : !gpuir.barrier<mbarrier [2]>
        gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %s[%c, 255 - %t] : memref<2x256xf32, #gpuir.smem>
          gpuir.reduce %v, %r[%c, %t] : memref<2x256xf32, #gpuir.rmem>
        }
      }
    }
  }
}

// -----

// An instruction's parameter distributed over threads: the warpgroup
// instruction reads a 128-row register fragment, one row per thread, so the
// row dimension of the window is indexed by a loop over the warpgroup's
// threads. Both warpgroups' windows agree with the thread loop that reads
// the rows back.
// CHECK-LABEL: gpuir.proc @fragment
// CHECK: gpuir.alloc {gpuir.sharding = #gpuir.sharding<owner = d0>} : memref<256x32xf32, #gpuir.rmem>
gpuir.proc @fragment(%n: index) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %D = gpuir.alloc : memref<256x32xf32, #gpuir.rmem>
      gpuir.for %wg = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
        %Dw = gpuir.window %D[%wg * 128 : %wg * 128 + 128, 0 : 32] : memref<256x32xf32, #gpuir.rmem> -> memref<128x32xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>
        rtest.in_order_op %Dw unit <warpgroup> over <thread> : memref<128x32xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>
      }
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %D[%t, 0] : memref<256x32xf32, #gpuir.rmem>
        gpuir.write %v, %D[%t, 1] : memref<256x32xf32, #gpuir.rmem>
      }
    }
  }
}

// -----

// Warp specialization: the consumer warps (warps 4 to 7) index their
// registers from 0; the sharding is the same at both uses.
// CHECK-LABEL: gpuir.proc @specialized
// CHECK: gpuir.alloc {gpuir.sharding = #gpuir.sharding<owner = d0>} : memref<128xf32, #gpuir.rmem>
gpuir.proc @specialized(%n: index, %A: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function warps(producer = 4, consumer = 4) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %r = gpuir.alloc : memref<128xf32, #gpuir.rmem>
      gpuir.warps "consumer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %r[%t] : memref<128xf32, #gpuir.rmem>
        }
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %r[%t] : memref<128xf32, #gpuir.rmem>
          gpuir.write %v, %A[%t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// Uniform registers have one copy per warp.
// CHECK-LABEL: gpuir.proc @per_warp
// CHECK: gpuir.alloc {gpuir.sharding = #gpuir.sharding<owner = d0 * 32>} : memref<4xi32, #gpuir.urmem>
gpuir.proc @per_warp(%n: index, %A: memref<?xi32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %u = gpuir.alloc : memref<4xi32, #gpuir.urmem>
      gpuir.for %w = 0 to 4 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%w] : memref<?xi32, #gpuir.gmem>
          gpuir.write %v, %u[%w] : memref<4xi32, #gpuir.urmem>
        }
      }
    }
  }
}
