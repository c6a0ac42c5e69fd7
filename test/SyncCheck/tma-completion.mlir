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
