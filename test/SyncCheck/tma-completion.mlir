// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-check

// A TMA copy completes on its own trailing mbarrier and on no other:
// waiting on b1 does not wait for the copy into As, which completes on b0.
gpuir.proc @wrong_barrier(%A: memref<64x64xbf16, #gpuir.gmem>, %B: memref<64x64xbf16, #gpuir.gmem>, %C: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %As = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      %Bs = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      %b0 = gpuir.alloc : !gpuir.barrier<mbarrier>
      %b1 = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-note @+2 {{the earlier write of As[0:64, 0:64]}}
        // expected-note @+1 {{the earlier access completes on its trailing barrier b0, but thread 0 of task 0 does not await b0 before this access: add a gpuir.await on it whose second timeline covers cuda_in_order_ram}}
        gpuir.sm90a.tma_load %As, %A >> %b0 : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier>
        gpuir.sm90a.tma_load %Bs, %B >> %b1 : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
      gpuir.await %b1, cuda_in_order : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 32 : seq {
          // expected-error @+1 {{RAW hazard: thread 0 of task 0 read As[0, 0:32] on cuda_in_order_ram, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before}}
          %v = gpuir.read %As[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xbf16, #gpuir.smem>
          gpuir.write %v, %C[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xbf16, #gpuir.gmem>
        }
      }
      gpuir.await %b0, cuda_in_order : !gpuir.barrier<mbarrier>
    }
  }
}

// -----

// Waiting on both barriers orders both copies.
gpuir.proc @both_barriers(%A: memref<64x64xbf16, #gpuir.gmem>, %B: memref<64x64xbf16, #gpuir.gmem>, %C: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %As = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      %Bs = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      %b0 = gpuir.alloc : !gpuir.barrier<mbarrier>
      %b1 = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.sm90a.tma_load %As, %A >> %b0 : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier>
        gpuir.sm90a.tma_load %Bs, %B >> %b1 : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
      gpuir.await %b1, cuda_in_order : !gpuir.barrier<mbarrier>
      gpuir.await %b0, cuda_in_order : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 32 : seq {
          %v = gpuir.read %As[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xbf16, #gpuir.smem>
          gpuir.write %v, %C[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xbf16, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// A copy's trailing barrier names the thread's own CTA's mbarrier (or an
// interval of CTAs for a multicast): CTA 1 completing on CTA 0's would
// leave CTA 0's phase an arrival short on the device.
gpuir.proc @other_ctas_barrier(%n: index, %A: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function cluster(2) block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %s = gpuir.alloc : memref<2x64x64xbf16, #gpuir.smem>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %w = gpuir.window %s[%c, 0 : 64, 0 : 64] : memref<2x64x64xbf16, #gpuir.smem> -> memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem>
          // expected-error @+1 {{'gpuir.sm90a.tma_load' op accesses the mbarrier array (one copy per CTA), but dimension 0 comes before the dimensions that select a copy but is indexed by a constant}}
          gpuir.sm90a.tma_load %w, %A >> %bar[0] : memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier [2]>
        }
        gpuir.await %bar[%c], cuda_in_order : !gpuir.barrier<mbarrier [2]>
      }
    }
  }
}

// -----

// A multicast lands in the CTAs its mbarriers name: a copy into its own
// CTA's part completing on both CTAs' mbarriers would, on the device, land
// in both.
gpuir.proc @multicast_ctas_differ(%n: index, %A: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function cluster(2) block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %s = gpuir.alloc : memref<2x64x64xbf16, #gpuir.smem>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %w = gpuir.window %s[%c : %c + 1, 0 : 64, 0 : 64] : memref<2x64x64xbf16, #gpuir.smem> -> memref<1x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpuir.smem>
          // expected-error @+1 {{'gpuir.sm90a.tma_load' op multicasts: its destination must be a window whose leading coordinate is a constant interval of CTAs (%buf[0 : 2, ...]) and its trailing barrier the same interval of those CTAs' mbarriers (>> %bar[0 : 2, ...]), the only interval of the barrier}}
          gpuir.sm90a.tma_load %w, %A >> %bar[0 : 2] : memref<1x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier [2]>
        }
      }
    }
  }
}
