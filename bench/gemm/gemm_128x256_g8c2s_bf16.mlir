// Written by bench/gemm/make_gemm.py gemm_128x256_g8c2s_bf16 --tile 128x256 --consumers 2 --stages 4 --group 8 --tiles 1 --out bf16 --cluster 2 --store tma.
// C = A Bt^T, bf16 in, f32 sums, bf16 out, in 128x256 tiles over 64-wide
// slices of K: a producer warpgroup (40 registers) fills 4 swizzled stages
// by TMA as 2 consumer warpgroups (232 registers, 64 rows each,
// wgmma.m64n256k16) release them, one slice behind.
// Tasks in groups of 8 down M (the innermost task loop).
// The epilogue stores C through shared memory with TMA: each consumer writes
// a quarter of its 64 x 256 part into one of its two staging buffers (boxes
// of 64 x 16, rows of 32 bytes), fences the generic-proxy writes to the async
// proxy, and its first thread stores the boxes and commits them as a bulk
// group; before a buffer is written again it waits until the group before
// last has read it (wait_group.read: the global writes may still be in flight).
// A task is a cluster of 2 CTAs, each a 128x256 tile down M of the same
// columns: each CTA's producer loads its A and 1/2 of the B slice, which it
// multicasts into the stage of every CTA (completing on each one's full
// mbarrier); consumers release a stage in every CTA (remote arrives); the
// cluster meets after the epilogue.
gpuir.proc @gemm_128x256_g8c2s_bf16(%Mg: index, %Nt: index, %Kt: index,
    %A: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mg, Nt, Kt) -> (Mg * 2048, Kt * 64)>},
    %Bt: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mg, Nt, Kt) -> (Nt * 256, Kt * 64)>},
    %C: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mg, Nt, Kt) -> (Mg * 2048, Nt * 256)>})
    attributes {gpuir.check_sizes = [{Mg = 1, Nt = 2, Kt = 7}, {Mg = 1, Nt = 1, Kt = 1}]} {
  gpuir.device_function cluster(2) blocks_per_sm(1) warps(producer = 4 dec(40), consumer = 8 inc(232)) {
    gpuir.for %mg = 0 to %Mg : cuda_tasks {
      gpuir.for %n = 0 to %Nt : cuda_tasks {
        gpuir.for %mi = 0 to 8 : cuda_tasks {
          %As = gpuir.alloc : memref<2x4x128x64xbf16, #gpuir.smem_swizzled<128>>
          %Bs = gpuir.alloc : memref<2x4x256x64xbf16, #gpuir.smem_swizzled<128>>
          %D = gpuir.alloc : memref<2x2x128x1x128xf32, #gpuir.rmem>
          %full = gpuir.alloc : !gpuir.barrier<mbarrier [2, 4]>
          %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2, 4]>
          %mma = gpuir.alloc : !gpuir.barrier<wgmma_group>
          %Cs = gpuir.alloc : memref<2x2x2x4x64x16xbf16, #gpuir.smem>
          %st = gpuir.alloc : !gpuir.barrier<tma_store_group>
          %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
          gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
            gpuir.warps "consumer" {
              gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
                gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.for %h = 0 to 1 : seq {
                    gpuir.for %r = 0 to 128 : seq {
                      %zero = arith.constant 0.0 : f32
                      gpuir.write %zero, %D[%c, %wm, %t, %h, %r] : memref<2x2x128x1x128xf32, #gpuir.rmem>
                    }
                  }
                }
              }
            }
          }
          gpuir.for %k = 0 to %Kt : seq {
            gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
              gpuir.warps "producer" {
                gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.await %empty[%c, %k mod 4], tma_to_smem_async : !gpuir.barrier<mbarrier_prearrive [2, 4]>
                  %sA = gpuir.window %As[%c, %k mod 4, 0 : 128, 0 : 64] : memref<2x4x128x64xbf16, #gpuir.smem_swizzled<128>>
                  %gA = gpuir.window %A[%mg * 2048 + %mi * 256 + %c * 128 : %mg * 2048 + %mi * 256 + %c * 128 + 128, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                  gpuir.sm90a.tma_load %sA, %gA >> %full[%c, %k mod 4] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [2, 4]>
                  // This CTA's 128 rows of the B slice, into the stage of every CTA.
                  %sBt = gpuir.window %Bs[0 : 2, %k mod 4, %c * 128 : %c * 128 + 128, 0 : 64] : memref<2x4x256x64xbf16, #gpuir.smem_swizzled<128>>
                  %gBt = gpuir.window %Bt[%n * 256 + %c * 128 : %n * 256 + %c * 128 + 128, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                  gpuir.sm90a.tma_load %sBt, %gBt >> %full[0 : 2, %k mod 4] : memref<2x128x64xbf16, strided<[65536, 64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [2, 4]>
                }
              }
            }
            gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
              gpuir.warps "consumer" {
                gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
                  gpuir.await %full[%c, %k mod 4], wgmma_async : !gpuir.barrier<mbarrier [2, 4]>
                  gpuir.fence wgmma_fence_1 -> wgmma_fence_2
                  gpuir.for %kk = 0 to 4 : seq {
                    %b = gpuir.window %Bs[%c, %k mod 4, 0 : 256, %kk * 16 : %kk * 16 + 16] : memref<2x4x256x64xbf16, #gpuir.smem_swizzled<128>>
                    gpuir.for %h = 0 to 1 : seq {
                      %d = gpuir.window %D[%c, %wm, 0 : 128, %h, 0 : 128] : memref<2x2x128x1x128xf32, #gpuir.rmem>
                      %a = gpuir.window %As[%c, %k mod 4, %wm * 64 + %h * 64 : %wm * 64 + %h * 64 + 64, %kk * 16 : %kk * 16 + 16] : memref<2x4x128x64xbf16, #gpuir.smem_swizzled<128>>
                      gpuir.sm90a.wgmma %d, %a, %b : memref<128x128xf32, strided<[128, 1], offset: ?>, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<256x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
                    }
                  }
                  gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
                  gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
                }
                // The previous slice's products are done: release its stage in every CTA.
                gpuir.if %k >= 1 {
                  gpuir.arrive cuda_in_order >> %empty[0 : 2, (%k + 3) mod 4] : !gpuir.barrier<mbarrier_prearrive [2, 4]>
                }
              }
            }
          }
          gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
            gpuir.warps "consumer" {
              gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
                gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
              }
              gpuir.if %Kt >= 1 {
                gpuir.arrive cuda_in_order >> %empty[0 : 2, (%Kt + 3) mod 4] : !gpuir.barrier<mbarrier_prearrive [2, 4]>
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
                        %v = gpuir.read %D[%c, %wm, %t, 0, (%q * 8 + %j) * 4 + %i] : memref<2x2x128x1x128xf32, #gpuir.rmem>
                        %cv = arith.truncf %v : f32 to bf16
                        gpuir.write %cv, %Cs[%c, %wm, %q mod 2, %j floordiv 2, (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, (%j mod 2) * 8 + (%t mod 4) * 2 + %i mod 2] : memref<2x2x2x4x64x16xbf16, #gpuir.smem>
                      }
                    }
                  }
                  gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
                  gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                    gpuir.for %x = 0 to 4 : seq {
                      %cst = gpuir.window %Cs[%c, %wm, %q mod 2, %x, 0 : 64, 0 : 16] : memref<2x2x2x4x64x16xbf16, #gpuir.smem>
                      %cg = gpuir.window %C[%mg * 2048 + %mi * 256 + %c * 128 + %wm * 64 : %mg * 2048 + %mi * 256 + %c * 128 + %wm * 64 + 64, %n * 256 + %q * 64 + %x * 16 : %n * 256 + %q * 64 + %x * 16 + 16] : memref<?x?xbf16, #gpuir.gmem>
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
          // No CTA's producer refills the stages of the next task while another
          // CTA's consumers may still read them.
          gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
          gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
        }
      }
    }
  }
}
