// Written by bench/gemm/make_gemm.py gemm_128x192_g8s_bf16 --tile 128x192 --consumers 2 --stages 5 --group 8 --tiles 1 --out bf16 --store tma.
// C = A Bt^T, bf16 in, f32 sums, bf16 out, in 128x192 tiles over 64-wide
// slices of K: a producer warpgroup (40 registers) fills 5 swizzled stages
// by TMA as 2 consumer warpgroups (232 registers, 64 rows each,
// wgmma.m64n192k16) release them, one slice behind.
// Tasks in groups of 8 down M (the innermost task loop).
// The epilogue stores C through shared memory with TMA: each consumer writes
// a quarter of its 64 x 192 part into one of its two staging buffers (boxes
// of 64 x 16, rows of 32 bytes), fences the generic-proxy writes to the async
// proxy, and its first thread stores the boxes and commits them as a bulk
// group; before a buffer is written again it waits until the group before
// last has read it (wait_group.read: the global writes may still be in flight).
gpuir.proc @gemm_128x192_g8s_bf16(%Mg: index, %Nt: index, %Kt: index,
    %A: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mg, Nt, Kt) -> (Mg * 1024, Kt * 64)>},
    %Bt: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mg, Nt, Kt) -> (Nt * 192, Kt * 64)>},
    %C: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mg, Nt, Kt) -> (Mg * 1024, Nt * 192)>})
    attributes {gpuir.check_sizes = [{Mg = 1, Nt = 2, Kt = 7}, {Mg = 1, Nt = 1, Kt = 1}]} {
  gpuir.device_function blocks_per_sm(1) warps(producer = 4 dec(40), consumer = 8 inc(232)) {
    gpuir.for %mg = 0 to %Mg : cuda_tasks {
      gpuir.for %n = 0 to %Nt : cuda_tasks {
        gpuir.for %mi = 0 to 8 : cuda_tasks {
          %As = gpuir.alloc : memref<5x128x64xbf16, #gpuir.smem_swizzled<128>>
          %Bs = gpuir.alloc : memref<5x192x64xbf16, #gpuir.smem_swizzled<128>>
          %D = gpuir.alloc : memref<2x128x1x96xf32, #gpuir.rmem>
          %full = gpuir.alloc : !gpuir.barrier<mbarrier [5]>
          %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [5]>
          %mma = gpuir.alloc : !gpuir.barrier<wgmma_group>
          %Cs = gpuir.alloc : memref<2x2x3x64x16xbf16, #gpuir.smem>
          %st = gpuir.alloc : !gpuir.barrier<tma_store_group>
          gpuir.warps "consumer" {
            gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
              gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.for %h = 0 to 1 : seq {
                  gpuir.for %r = 0 to 96 : seq {
                    %zero = arith.constant 0.0 : f32
                    gpuir.write %zero, %D[%wm, %t, %h, %r] : memref<2x128x1x96xf32, #gpuir.rmem>
                  }
                }
              }
            }
          }
          gpuir.for %k = 0 to %Kt : seq {
            gpuir.warps "producer" {
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %empty[%k mod 5], tma_to_smem_async : !gpuir.barrier<mbarrier_prearrive [5]>
                %sA = gpuir.window %As[%k mod 5, 0 : 128, 0 : 64] : memref<5x128x64xbf16, #gpuir.smem_swizzled<128>>
                %gA = gpuir.window %A[%mg * 1024 + %mi * 128 : %mg * 1024 + %mi * 128 + 128, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                gpuir.sm90a.tma_load %sA, %gA >> %full[%k mod 5] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [5]>
                %sBt = gpuir.window %Bs[%k mod 5, 0 : 192, 0 : 64] : memref<5x192x64xbf16, #gpuir.smem_swizzled<128>>
                %gBt = gpuir.window %Bt[%n * 192 : %n * 192 + 192, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                gpuir.sm90a.tma_load %sBt, %gBt >> %full[%k mod 5] : memref<192x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<192x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [5]>
              }
            }
            gpuir.warps "consumer" {
              gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
                gpuir.await %full[%k mod 5], wgmma_async : !gpuir.barrier<mbarrier [5]>
                gpuir.fence wgmma_fence_1 -> wgmma_fence_2
                gpuir.for %kk = 0 to 4 : seq {
                  %b = gpuir.window %Bs[%k mod 5, 0 : 192, %kk * 16 : %kk * 16 + 16] : memref<5x192x64xbf16, #gpuir.smem_swizzled<128>>
                  gpuir.for %h = 0 to 1 : seq {
                    %d = gpuir.window %D[%wm, 0 : 128, %h, 0 : 96] : memref<2x128x1x96xf32, #gpuir.rmem>
                    %a = gpuir.window %As[%k mod 5, %wm * 64 + %h * 64 : %wm * 64 + %h * 64 + 64, %kk * 16 : %kk * 16 + 16] : memref<5x128x64xbf16, #gpuir.smem_swizzled<128>>
                    gpuir.sm90a.wgmma %d, %a, %b : memref<128x96xf32, strided<[96, 1], offset: ?>, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<192x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
                  }
                }
                gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
                gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
              }
              // The previous slice's products are done: release its stage.
              gpuir.if %k >= 1 {
                gpuir.arrive cuda_in_order >> %empty[(%k + 4) mod 5] : !gpuir.barrier<mbarrier_prearrive [5]>
              }
            }
          }
          gpuir.warps "consumer" {
            gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
              gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
            }
            gpuir.if %Kt >= 1 {
              gpuir.arrive cuda_in_order >> %empty[(%Kt + 4) mod 5] : !gpuir.barrier<mbarrier_prearrive [5]>
            }
            // Register 4 j + i of thread t holds row 16 (t / 32) + (t mod 32) / 4
            // + 8 (i / 2), column 8 j + 2 (t mod 4) + i mod 2 of a 64 x 192 part.
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
                  gpuir.for %j = 0 to 6 : seq {
                    gpuir.for %i = 0 to 4 : seq {
                      %v = gpuir.read %D[%wm, %t, 0, (%q * 6 + %j) * 4 + %i] : memref<2x128x1x96xf32, #gpuir.rmem>
                      %cv = arith.truncf %v : f32 to bf16
                      gpuir.write %cv, %Cs[%wm, %q mod 2, %j floordiv 2, (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, (%j mod 2) * 8 + (%t mod 4) * 2 + %i mod 2] : memref<2x2x3x64x16xbf16, #gpuir.smem>
                    }
                  }
                }
                gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
                gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.for %x = 0 to 3 : seq {
                    %cst = gpuir.window %Cs[%wm, %q mod 2, %x, 0 : 64, 0 : 16] : memref<2x2x3x64x16xbf16, #gpuir.smem>
                    %cg = gpuir.window %C[%mg * 1024 + %mi * 128 + %wm * 64 : %mg * 1024 + %mi * 128 + %wm * 64 + 64, %n * 192 + %q * 48 + %x * 16 : %n * 192 + %q * 48 + %x * 16 + 16] : memref<?x?xbf16, #gpuir.gmem>
                    gpuir.sm90a.tma_store %cg, %cst : memref<64x16xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x16xbf16, strided<[16, 1], offset: ?>, #gpuir.smem>
                  }
                  gpuir.arrive tma_to_gmem_async >> %st : !gpuir.barrier<tma_store_group>
                }
              }
              // Every group has read its buffer before the task ends (its buffers are freed).
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %st, cuda_in_order, outstanding(0), read : !gpuir.barrier<tma_store_group>
              }
            }
          }
        }
      }
    }
  }
}
