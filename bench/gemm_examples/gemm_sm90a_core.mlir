// The wgmma GEMM of examples/gemm_sm90a.mlir with its stages in the
// no-swizzle layout of 8x8 core matrices instead of the 128-byte swizzle.
// Its copies either read 16 bytes of eight rows per warp row (as here) or
// store eight 16-byte chunks 128 bytes apart (one bank group): either way a
// third of the swizzled kernel's speed on the H200 (bench/gemm_examples). Kept to
// measure that.
//
// (Written by bench/gemm_examples/make_gemm_sm90a.py gemm_sm90a_core 4 4 2.)
gpuir.proc @gemm_sm90a_core(%Mt: index, %Nt: index, %Kt: index,
                       %A: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Mt * 256, Kt * 64)>},
                       %Bt: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Nt * 128, Kt * 64)>},
                       %C: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Mt * 256, Nt * 128)>})
    attributes {gpuir.check_sizes = [{Mt = 2, Nt = 1, Kt = 7}, {Mt = 1, Nt = 1, Kt = 1}]} {
  gpuir.device_function blocks_per_sm(1) block(512) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %n = 0 to %Nt : cuda_tasks {
        // Stage s of A: [s][row / 8][k / 8][row mod 8][k mod 8]; of Bt likewise.
        %As = gpuir.alloc : memref<4x32x8x8x8xbf16, #gpuir.smem>
        %Bs = gpuir.alloc : memref<4x16x8x8x8xbf16, #gpuir.smem>
        // Per warpgroup and thread: 64 accumulators (the m64n128 fragment).
        %D = gpuir.alloc : memref<4x128x64xf32, #gpuir.rmem>
        %copies = gpuir.alloc : !gpuir.barrier<cp_async_group>
        %mma = gpuir.alloc : !gpuir.barrier<wgmma_group>

        gpuir.for %wm = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %r = 0 to 64 : seq {
              %zero = arith.constant 0.0 : f32
              gpuir.write %zero, %D[%wm, %t, %r] : memref<4x128x64xf32, #gpuir.rmem>
            }
          }
        }

        // Slices 0 to 1 into their stages, one commit group each.
        // Chunk q of a slice (16 bytes: 8 elements of K) is row
        // 8 (q / 64) + q mod 8, core-matrix column (q / 8) mod 8, so that
        // consecutive threads fill consecutive rows of a core matrix.
        gpuir.for %p = 0 to 2 : seq {
          gpuir.if %p < %Kt {
            gpuir.for %t = 0 to 512 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %c = 0 to 4 : seq {
                %s = gpuir.window %As[%p, (%c * 512 + %t) floordiv 64, ((%c * 512 + %t) floordiv 8) mod 8, (%c * 512 + %t) mod 8, 0 : 8] : memref<4x32x8x8x8xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
                %g = gpuir.window %A[%m * 256 + ((%c * 512 + %t) floordiv 64) * 8 + (%c * 512 + %t) mod 8, (%p) * 64 + (((%c * 512 + %t) floordiv 8) mod 8) * 8 : (%p) * 64 + (((%c * 512 + %t) floordiv 8) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %s, %g : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
              }
              gpuir.for %c = 0 to 2 : seq {
                %s = gpuir.window %Bs[%p, (%c * 512 + %t) floordiv 64, ((%c * 512 + %t) floordiv 8) mod 8, (%c * 512 + %t) mod 8, 0 : 8] : memref<4x16x8x8x8xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
                %g = gpuir.window %Bt[%n * 128 + ((%c * 512 + %t) floordiv 64) * 8 + (%c * 512 + %t) mod 8, (%p) * 64 + (((%c * 512 + %t) floordiv 8) mod 8) * 8 : (%p) * 64 + (((%c * 512 + %t) floordiv 8) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %s, %g : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
              }
            }
          }
          gpuir.arrive Sm80_cp_async >> %copies : !gpuir.barrier<cp_async_group>
        }

        gpuir.for %k = 0 to %Kt : seq {
          gpuir.await %copies, cuda_in_order, outstanding(1) : !gpuir.barrier<cp_async_group>
          gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy

          gpuir.if %k + 2 < %Kt {
            gpuir.for %t = 0 to 512 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %c = 0 to 4 : seq {
                %s = gpuir.window %As[(%k + 2) mod 4, (%c * 512 + %t) floordiv 64, ((%c * 512 + %t) floordiv 8) mod 8, (%c * 512 + %t) mod 8, 0 : 8] : memref<4x32x8x8x8xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
                %g = gpuir.window %A[%m * 256 + ((%c * 512 + %t) floordiv 64) * 8 + (%c * 512 + %t) mod 8, (%k + 2) * 64 + (((%c * 512 + %t) floordiv 8) mod 8) * 8 : (%k + 2) * 64 + (((%c * 512 + %t) floordiv 8) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %s, %g : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
              }
              gpuir.for %c = 0 to 2 : seq {
                %s = gpuir.window %Bs[(%k + 2) mod 4, (%c * 512 + %t) floordiv 64, ((%c * 512 + %t) floordiv 8) mod 8, (%c * 512 + %t) mod 8, 0 : 8] : memref<4x16x8x8x8xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
                %g = gpuir.window %Bt[%n * 128 + ((%c * 512 + %t) floordiv 64) * 8 + (%c * 512 + %t) mod 8, (%k + 2) * 64 + (((%c * 512 + %t) floordiv 8) mod 8) * 8 : (%k + 2) * 64 + (((%c * 512 + %t) floordiv 8) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %s, %g : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
              }
            }
          }
          gpuir.arrive Sm80_cp_async >> %copies : !gpuir.barrier<cp_async_group>

          gpuir.for %wm = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %d = gpuir.window %D[%wm, 0 : 128, 0 : 64] : memref<4x128x64xf32, #gpuir.rmem> -> memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
            gpuir.for %kk = 0 to 4 : seq {
              %a = gpuir.window %As[%k mod 4, %wm * 8 : %wm * 8 + 8, %kk * 2 : %kk * 2 + 2, 0 : 8, 0 : 8] : memref<4x32x8x8x8xbf16, #gpuir.smem> -> memref<8x2x8x8xbf16, strided<[512, 64, 8, 1], offset: ?>, #gpuir.smem>
              %b = gpuir.window %Bs[%k mod 4, 0 : 16, %kk * 2 : %kk * 2 + 2, 0 : 8, 0 : 8] : memref<4x16x8x8x8xbf16, #gpuir.smem> -> memref<16x2x8x8xbf16, strided<[512, 64, 8, 1], offset: ?>, #gpuir.smem>
              gpuir.sm90a.wgmma %d, %a, %b : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>, memref<8x2x8x8xbf16, strided<[512, 64, 8, 1], offset: ?>, #gpuir.smem>, memref<16x2x8x8xbf16, strided<[512, 64, 8, 1], offset: ?>, #gpuir.smem>
            }
            gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
            // The previous slice's products are done: its stage is free
            // once the CTA meets again.
            gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
          }
        }
        gpuir.for %wm = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
          gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
        }

        // Register 4 j + i of thread t holds row 16 (t / 32) + (t mod 32) / 4
        // + 8 (i / 2), column 8 j + 2 (t mod 4) + i mod 2 of the warpgroup's
        // 64 x 128 part.
        gpuir.for %wm = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %j = 0 to 16 : seq {
              gpuir.for %i = 0 to 4 : seq {
                %v = gpuir.read %D[%wm, %t, %j * 4 + %i] : memref<4x128x64xf32, #gpuir.rmem>
                gpuir.write %v, %C[%m * 256 + %wm * 64 + (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, %n * 128 + %j * 8 + (%t mod 4) * 2 + %i mod 2] : memref<?x?xf32, #gpuir.gmem>
              }
            }
          }
        }
      }
    }
  }
}
