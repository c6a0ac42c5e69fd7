// Written by bench/gemm/make_gemm.py gemm_128x256_t4g2s_bf16 --tile 128x256 --consumers 2 --stages 4 --group 2 --tiles 4 --out bf16 --store tma.
// C = A Bt^T, bf16 in, f32 sums, bf16 out, in 128x256 tiles over 64-wide
// slices of K: a producer warpgroup (40 registers) fills 4 swizzled stages
// by TMA as 2 consumer warpgroups (232 registers, 64 rows each,
// wgmma.m64n256k16) release them, one slice behind.
// Tasks in groups of 2 down M (the innermost task loop).
// Each task computes 4 tiles down M in turn: the producer runs ahead
// into the next tile's slices while the consumers store the last one's.
// The epilogue stores C through shared memory with TMA: each consumer writes
// a quarter of its 64 x 256 part into one of its two staging buffers (boxes
// of 64 x 16, rows of 32 bytes), fences the generic-proxy writes to the async
// proxy, and its first thread stores the boxes and commits them as a bulk
// group; before a buffer is written again it waits until the group before
// last has read it (wait_group.read: the global writes may still be in flight).
gpuir.proc @gemm_128x256_t4g2s_bf16(%Mg: index, %Nt: index, %Kt: index,
    %A: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mg, Nt, Kt) -> (Mg * 1024, Kt * 64)>},
    %Bt: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mg, Nt, Kt) -> (Nt * 256, Kt * 64)>},
    %C: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mg, Nt, Kt) -> (Mg * 1024, Nt * 256)>})
    attributes {gpuir.check_sizes = [{Mg = 1, Nt = 2, Kt = 7}, {Mg = 1, Nt = 1, Kt = 1}]} {
  gpuir.device_function blocks_per_sm(1) warps(producer = 4 dec(40), consumer = 8 inc(232)) {
    gpuir.for %mg = 0 to %Mg : cuda_tasks {
      gpuir.for %n = 0 to %Nt : cuda_tasks {
        gpuir.for %mi = 0 to 2 : cuda_tasks {
          %As = gpuir.alloc : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>>
          %Bs = gpuir.alloc : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>>
          %D = gpuir.alloc : memref<2x128x1x128xf32, #gpuir.rmem>
          %full = gpuir.alloc : !gpuir.barrier<mbarrier [4]>
          %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [4]>
          %mma = gpuir.alloc : !gpuir.barrier<wgmma_group>
          %Cs = gpuir.alloc : memref<2x2x4x64x16xbf16, #gpuir.smem>
          %st = gpuir.alloc : !gpuir.barrier<tma_store_group>
          gpuir.for %s = 0 to 4 : seq {
            gpuir.warps "consumer" {
              gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
                gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.for %h = 0 to 1 : seq {
                    gpuir.for %r = 0 to 128 : seq {
                      %zero = arith.constant 0.0 : f32
                      gpuir.write %zero, %D[%wm, %t, %h, %r] : memref<2x128x1x128xf32, #gpuir.rmem>
                    }
                  }
                }
              }
            }
            gpuir.for %k = 0 to %Kt : seq {
              gpuir.warps "producer" {
                gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.await %empty[%k mod 4], tma_to_smem_async : !gpuir.barrier<mbarrier_prearrive [4]>
                  %sA = gpuir.window %As[%k mod 4, 0 : 128, 0 : 64] : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>>
                  %gA = gpuir.window %A[%mg * 1024 + %mi * 512 + %s * 128 : %mg * 1024 + %mi * 512 + %s * 128 + 128, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                  gpuir.sm90a.tma_load %sA, %gA >> %full[%k mod 4] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [4]>
                  %sBt = gpuir.window %Bs[%k mod 4, 0 : 256, 0 : 64] : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>>
                  %gBt = gpuir.window %Bt[%n * 256 : %n * 256 + 256, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                  gpuir.sm90a.tma_load %sBt, %gBt >> %full[%k mod 4] : memref<256x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<256x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [4]>
                }
              }
              gpuir.warps "consumer" {
                gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
                  gpuir.await %full[%k mod 4], wgmma_async : !gpuir.barrier<mbarrier [4]>
                  gpuir.fence wgmma_fence_1 -> wgmma_fence_2
                  gpuir.for %kk = 0 to 4 : seq {
                    %b = gpuir.window %Bs[%k mod 4, 0 : 256, %kk * 16 : %kk * 16 + 16] : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>>
                    gpuir.for %h = 0 to 1 : seq {
                      %d = gpuir.window %D[%wm, 0 : 128, %h, 0 : 128] : memref<2x128x1x128xf32, #gpuir.rmem>
                      %a = gpuir.window %As[%k mod 4, %wm * 64 + %h * 64 : %wm * 64 + %h * 64 + 64, %kk * 16 : %kk * 16 + 16] : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>>
                      gpuir.sm90a.wgmma %d, %a, %b : memref<128x128xf32, strided<[128, 1], offset: ?>, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<256x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
                    }
                  }
                  gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
                  gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
                }
                // The previous slice's products are done: release its stage.
                gpuir.if %k >= 1 {
                  gpuir.arrive cuda_in_order >> %empty[(%k + 3) mod 4] : !gpuir.barrier<mbarrier_prearrive [4]>
                }
              }
            }
            gpuir.warps "consumer" {
              gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
                gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
              }
              gpuir.if %Kt >= 1 {
                gpuir.arrive cuda_in_order >> %empty[(%Kt + 3) mod 4] : !gpuir.barrier<mbarrier_prearrive [4]>
              }
              // Register 4 j + i of thread t holds row 16 (t / 32) + (t mod 32) / 4
              // + 8 (i / 2), column 8 j + 2 (t mod 4) + i mod 2 of a 64 x 256 part.
              gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
                gpuir.for %q = 0 to 4 : seq {
                  // Buffer q mod 2 is free again once the group of quarter q - 2 is done.
                  gpuir.if %q >= 2 {
                    gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                      gpuir.await %st, cuda_in_order, outstanding(1), read : !gpuir.barrier<tma_store_group>
                    }
                    gpuir.fence cuda_in_order -> cuda_in_order
                  }
                  gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
                    gpuir.for %j = 0 to 8 : seq {
                      gpuir.for %i = 0 to 4 : seq {
                        %v = gpuir.read %D[%wm, %t, 0, (%q * 8 + %j) * 4 + %i] : memref<2x128x1x128xf32, #gpuir.rmem>
                        %cv = arith.truncf %v : f32 to bf16
                        gpuir.write %cv, %Cs[%wm, %q mod 2, %j floordiv 2, (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, (%j mod 2) * 8 + (%t mod 4) * 2 + %i mod 2] : memref<2x2x4x64x16xbf16, #gpuir.smem>
                      }
                    }
                  }
                  gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
                  gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                    gpuir.for %x = 0 to 4 : seq {
                      %cst = gpuir.window %Cs[%wm, %q mod 2, %x, 0 : 64, 0 : 16] : memref<2x2x4x64x16xbf16, #gpuir.smem>
                      %cg = gpuir.window %C[%mg * 1024 + %mi * 512 + %s * 128 + %wm * 64 : %mg * 1024 + %mi * 512 + %s * 128 + %wm * 64 + 64, %n * 256 + %q * 64 + %x * 16 : %n * 256 + %q * 64 + %x * 16 + 16] : memref<?x?xbf16, #gpuir.gmem>
                      gpuir.sm90a.tma_store %cg, %cst : memref<64x16xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x16xbf16, strided<[16, 1], offset: ?>, #gpuir.smem>
                    }
                    gpuir.arrive tma_to_gmem_async >> %st : !gpuir.barrier<tma_store_group>
                  }
                }
                // Every group has read its buffer before the task ends (its buffers are freed).
                gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.await %st, cuda_in_order, outstanding(0), read : !gpuir.barrier<tma_store_group>
                }
                // The next tile's stores write the buffers again.
                gpuir.fence cuda_in_order -> cuda_in_order
              }
            }
          }
        }
      }
    }
  }
}
