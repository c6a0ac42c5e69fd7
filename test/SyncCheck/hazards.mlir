// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-sync-check

// One minimal kernel for each hazard the synchronization check reports,
// each followed by its corrected twin, which passes.

// RAW: the reverse of a tile reads elements that other threads wrote.
gpuir.proc @raw(%A: memref<256xf32, #gpuir.gmem>, %B: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %tile = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%t] : memref<256xf32, #gpuir.gmem>
        // expected-note @+1 {{the earlier write of tile[255]}}
        gpuir.write %v, %tile[%t] : memref<256xf32, #gpuir.smem>
      }
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{RAW hazard: thread 0 of task 0 read tile[255] on cuda_in_order_ram, written by thread 255 of task 0 on cuda_in_order_ram without synchronization that orders it before}}
        %v = gpuir.read %tile[255 - %t] : memref<256xf32, #gpuir.smem>
        gpuir.write %v, %B[%t] : memref<256xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @raw_fixed(%A: memref<256xf32, #gpuir.gmem>, %B: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %tile = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%t] : memref<256xf32, #gpuir.gmem>
        gpuir.write %v, %tile[%t] : memref<256xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tile[255 - %t] : memref<256xf32, #gpuir.smem>
        gpuir.write %v, %B[%t] : memref<256xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// WAR: threads overwrite elements that other threads read.
gpuir.proc @war(%A: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %tile = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        // expected-note @+1 {{the earlier read of tile[0]}}
        %v = gpuir.read %tile[(%t + 1) mod 256] : memref<256xf32, #gpuir.smem>
        gpuir.write %v, %A[%t] : memref<256xf32, #gpuir.gmem>
      }
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%t] : memref<256xf32, #gpuir.gmem>
        // expected-error @+1 {{WAR hazard: thread 0 of task 0 write tile[0] on cuda_in_order_ram, read by thread 255 of task 0 on cuda_in_order_ram without synchronization that orders it before}}
        gpuir.write %v, %tile[%t] : memref<256xf32, #gpuir.smem>
      }
    }
  }
}

// -----

gpuir.proc @war_fixed(%A: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %tile = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tile[(%t + 1) mod 256] : memref<256xf32, #gpuir.smem>
        gpuir.write %v, %A[%t] : memref<256xf32, #gpuir.gmem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%t] : memref<256xf32, #gpuir.gmem>
        gpuir.write %v, %tile[%t] : memref<256xf32, #gpuir.smem>
      }
    }
  }
}

// -----

// WAW: two warps write the same elements; a warp-level fence orders only
// each warp's own accesses.
gpuir.proc @waw(%A: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %tile = gpuir.alloc : memref<32xf32, #gpuir.smem>
      gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%w * 32 + %l] : memref<64xf32, #gpuir.gmem>
          // expected-note @+2 {{the earlier write of tile[0]}}
          // expected-error @+1 {{WAW hazard: thread 32 of task 0 write tile[0] on cuda_in_order_ram, written by thread 0 of task 0 on cuda_in_order_ram without synchronization that orders it before}}
          gpuir.write %v, %tile[%l] : memref<32xf32, #gpuir.smem>
        }
        // expected-note @+1 {{this synchronization is too weak: it orders the earlier access for threads 0..31 of task 0 only, not for thread 32 of task 0; synchronize a collective that holds both (a fence of their common unit, or a barrier they both arrive on and await)}}
        gpuir.fence cuda_in_order -> cuda_in_order
      }
    }
  }
}

// -----

gpuir.proc @waw_fixed(%A: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %tile = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%w * 32 + %l] : memref<64xf32, #gpuir.gmem>
          gpuir.write %v, %tile[%w * 32 + %l] : memref<64xf32, #gpuir.smem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
      }
    }
  }
}

// -----

// Use after free.
gpuir.proc @use_after_free(%A: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %tile = gpuir.alloc : memref<256xf32, #gpuir.smem>
      // expected-note @+1 {{freed here}}
      gpuir.free %tile : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{use after free: thread 0 of task 0 use tile after it was freed}}
        %v = gpuir.read %tile[%t] : memref<256xf32, #gpuir.smem>
        gpuir.write %v, %A[%t] : memref<256xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @use_before_free(%A: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %tile = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%t] : memref<256xf32, #gpuir.gmem>
        gpuir.write %v, %tile[%t] : memref<256xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.free %tile : memref<256xf32, #gpuir.smem>
    }
  }
}

// -----

// Free without arrive: the asynchronous wgmma still writes its accumulator
// when the registers are freed, and nothing waits for it.
gpuir.proc @free_without_arrive() {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %A = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      %D = gpuir.alloc : memref<128x64xf32, #gpuir.rmem>
      gpuir.for %g = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
        // expected-note @+1 {{the access}}
        rtest.example_wgmma %D, %A, %A : memref<128x64xf32, #gpuir.rmem>, memref<64x64xf16, #gpuir.smem>, memref<64x64xf16, #gpuir.smem>
      }
      // expected-error @+1 {{free without arrive: D is freed while a write of D[0:128, 0:64] by threads 0..127 of task 0 on wgmma_async_rmem_d may still be in flight (nothing waits for it)}}
      gpuir.free %D : memref<128x64xf32, #gpuir.rmem>
    }
  }
}

// -----

// Free without sync: the wgmma is committed but never waited for.
gpuir.proc @free_without_sync() {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %A = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      %D = gpuir.alloc : memref<128x64xf32, #gpuir.rmem>
      %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
      gpuir.for %g = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
        // expected-note @+1 {{the access}}
        rtest.example_wgmma %D, %A, %A : memref<128x64xf32, #gpuir.rmem>, memref<64x64xf16, #gpuir.smem>, memref<64x64xf16, #gpuir.smem>
        gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
      }
      // expected-error @+1 {{free without sync: D is freed while a write of D[0:128, 0:64] by threads 0..127 of task 0 on wgmma_async_rmem_d may still be unordered with the threads that free it}}
      gpuir.free %D : memref<128x64xf32, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @free_after_wait() {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %A = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      %D = gpuir.alloc : memref<128x64xf32, #gpuir.rmem>
      %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
      gpuir.for %g = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
        rtest.example_wgmma %D, %A, %A : memref<128x64xf32, #gpuir.rmem>, memref<64x64xf16, #gpuir.smem>, memref<64x64xf16, #gpuir.smem>
        gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
        gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
      }
      gpuir.free %D : memref<128x64xf32, #gpuir.rmem>
    }
  }
}

// -----

// Await without matching arrive: the await comes before any arrive.
gpuir.proc @await_before_arrive(%A: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      // expected-error @+1 {{await without matching arrive: threads 0..255 of task 0 await phase 0 of bar, but only 0 arrives happened on it before}}
      gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
      gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
    }
  }
}

// -----

gpuir.proc @await_after_arrive(%A: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
      gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
    }
  }
}

// -----

// Arrive count mismatch: both warpgroups arrive in the first round, only
// one in the second.
gpuir.proc @arrive_count(%n: index) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %k = 0 to %n : seq {
        gpuir.for %g = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
          gpuir.if %g + %k < 2 {
            // expected-note @+1 {{the arrive}}
            gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
          }
        }
        // expected-error @+1 {{arrive count mismatch: phase 1 of bar completes with 1 arrives, phase 0 with 2}}
        gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
      }
    }
  }
}

// -----

gpuir.proc @arrive_count_fixed(%n: index) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %k = 0 to %n : seq {
        gpuir.for %g = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
          gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
        }
        gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
      }
    }
  }
}
