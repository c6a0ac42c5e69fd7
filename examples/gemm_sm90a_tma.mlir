// C = A Bt^T with bf16 inputs and f32 accumulation on Hopper's warpgroup
// matrix multiply, its shared stages filled by TMA: each CTA of four
// warpgroups computes a 256x128 tile of C over 64-wide slices of K in a
// four-stage ring of shared memory in the 128-byte swizzle. One thread copies
// each slice of A (256 x 64) and Bt (128 x 64) with two TMA copies that
// complete on the stage's mbarrier (expect_tx of their 48 KiB); the
// warpgroups wait on it and multiply their 64 rows with four
// wgmma.m64n128k16 per slice.
//
// A is M x K and Bt is N x K (B transposed), both row-major; C is M x N:
// M = 256 Mt, N = 128 Nt, K = 64 Kt.
//
// Iteration k meets the CTA (now the stage of slice k - 4 is free: each
// warpgroup waited for all but its newest group of wgmma, that of slice
// k - 3), fills stage k mod 4 with slice k, then multiplies slice k - 2
// once its mbarrier completes.
//
//   build/bin/rake-opt examples/gemm_sm90a_tma.mlir --rake-check
//   build/bin/rake-run --seq examples/gemm_sm90a_tma.mlir --sizes=Mt=1,Nt=1,Kt=2 --shape=A=256x128,Bt=128x128,C=256x128
//   build/bin/rake-translate --gpuir-to-ptx examples/gemm_sm90a_tma.mlir
gpuir.proc @gemm_sm90a_tma(%Mt: index, %Nt: index, %Kt: index,
                       %A: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Mt * 256, Kt * 64)>},
                       %Bt: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Nt * 128, Kt * 64)>},
                       %C: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Mt * 256, Nt * 128)>})
    attributes {gpuir.check_sizes = [{Mt = 2, Nt = 1, Kt = 7}, {Mt = 1, Nt = 1, Kt = 1}]} {
  gpuir.device_function blocks_per_sm(1) block(512) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %n = 0 to %Nt : cuda_tasks {
        // Stage s of A: [s][row][k], rows of 128 bytes swizzled; of Bt likewise.
        %As = gpuir.alloc : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>>
        %Bs = gpuir.alloc : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>>
        // Per warpgroup and thread: 64 accumulators (the m64n128 fragment).
        %D = gpuir.alloc : memref<4x128x64xf32, #gpuir.rmem>
        %full = gpuir.alloc : !gpuir.barrier<mbarrier [4]>
        %mma = gpuir.alloc : !gpuir.barrier<wgmma_group>

        gpuir.for %wm = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %r = 0 to 64 : seq {
              %zero = arith.constant 0.0 : f32
              gpuir.write %zero, %D[%wm, %t, %r] : memref<4x128x64xf32, #gpuir.rmem>
            }
          }
        }

        gpuir.for %k = 0 to %Kt + 2 : seq {
          gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
          gpuir.if %k < %Kt {
            gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
              %sa = gpuir.window %As[%k mod 4, 0 : 256, 0 : 64] : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>>
              %ga = gpuir.window %A[%m * 256 : %m * 256 + 256, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
              gpuir.sm90a.tma_load %sa, %ga >> %full[%k mod 4] : memref<256x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<256x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [4]>
              %sb = gpuir.window %Bs[%k mod 4, 0 : 128, 0 : 64] : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>>
              %gb = gpuir.window %Bt[%n * 128 : %n * 128 + 128, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
              gpuir.sm90a.tma_load %sb, %gb >> %full[%k mod 4] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [4]>
            }
          }
          gpuir.if %k >= 2 {
            gpuir.for %wm = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
              gpuir.await %full[(%k + 2) mod 4], wgmma_async : !gpuir.barrier<mbarrier [4]>
              gpuir.fence wgmma_fence_1 -> wgmma_fence_2
              %d = gpuir.window %D[%wm, 0 : 128, 0 : 64] : memref<4x128x64xf32, #gpuir.rmem>
              gpuir.for %kk = 0 to 4 : seq {
                %a = gpuir.window %As[(%k + 2) mod 4, %wm * 64 : %wm * 64 + 64, %kk * 16 : %kk * 16 + 16] : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>>
                %b = gpuir.window %Bs[(%k + 2) mod 4, 0 : 128, %kk * 16 : %kk * 16 + 16] : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>>
                gpuir.sm90a.wgmma %d, %a, %b : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
              }
              gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
              gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
            }
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
                gpuir.write %v, %C[%m * 256 + %wm * 64, %n * 128] fragment(wgmma_d %t, %j, %i) : memref<?x?xf32, #gpuir.gmem>
              }
            }
          }
        }
      }
    }
  }
}
