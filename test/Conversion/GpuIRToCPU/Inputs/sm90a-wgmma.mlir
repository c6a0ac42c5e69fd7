// One Sm90a instruction kernel for the sequential-meaning tests
// (test/Conversion/GpuIRToCPU/sm90a-behaviors.mlir) and the GPU tests
// (test/GPU/sm90a.mlir, which compare the sequential meaning with the
// hardware on random inputs).
//
// C = A B for one m64n64k16 tile of bf16 by one warpgroup: A (64 x 16) and
// B (16 x 64) staged into shared memory in wgmma's core-matrix layout, made
// visible to the async proxy, multiplied by wgmma into the warpgroup's
// accumulators, waited for, and written out by the PTX ISA's layout of D.
gpuir.proc @wgmma_tile(%A: memref<64x16xbf16, #gpuir.gmem>, %B: memref<16x64xbf16, #gpuir.gmem>, %C: memref<64x64xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %As = gpuir.alloc : memref<8x2x8x8xbf16, #gpuir.smem>
      %Bs = gpuir.alloc : memref<8x2x8x8xbf16, #gpuir.smem>
      %D = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %e = 0 to 8 : seq {
          // A[m][k] with m = (8 t + e) / 16, k = (8 t + e) mod 16.
          %a = gpuir.read %A[(%t * 8 + %e) floordiv 16, (%t * 8 + %e) mod 16] : memref<64x16xbf16, #gpuir.gmem>
          gpuir.write %a, %As[(%t * 8 + %e) floordiv 128, ((%t * 8 + %e) mod 16) floordiv 8, ((%t * 8 + %e) floordiv 16) mod 8, (%t * 8 + %e) mod 8] : memref<8x2x8x8xbf16, #gpuir.smem>
          // B[k][n] with k = (8 t + e) / 64, n = (8 t + e) mod 64.
          %b = gpuir.read %B[(%t * 8 + %e) floordiv 64, (%t * 8 + %e) mod 64] : memref<16x64xbf16, #gpuir.gmem>
          gpuir.write %b, %Bs[((%t * 8 + %e) mod 64) floordiv 8, (%t * 8 + %e) floordiv 512, (%t * 8 + %e) mod 8, ((%t * 8 + %e) floordiv 64) mod 8] : memref<8x2x8x8xbf16, #gpuir.smem>
        }
        gpuir.for %r = 0 to 32 : seq {
          %zero = arith.constant 0.0 : f32
          gpuir.write %zero, %D[%t, %r] : memref<128x32xf32, #gpuir.rmem>
        }
      }
      gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
      gpuir.fence wgmma_fence_1 -> wgmma_fence_2
      gpuir.sm90a.wgmma %D, %As, %Bs : memref<128x32xf32, #gpuir.rmem>, memref<8x2x8x8xbf16, #gpuir.smem>, memref<8x2x8x8xbf16, #gpuir.smem>
      gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
      gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 8 : seq {
          gpuir.for %i = 0 to 4 : seq {
            %v = gpuir.read %D[%t, %j * 4 + %i] : memref<128x32xf32, #gpuir.rmem>
            gpuir.write %v, %C[(%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, %j * 8 + (%t mod 4) * 2 + %i mod 2] : memref<64x64xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}
