// Written by bench/gemm/make_gemm.py gemm_128x128p_g8_bf16 --tile 128x128 --consumers 2 --stages 3 --group 8 --tiles 2 --out bf16 --store tma --schedule pingpong.
// C = A Bt^T, bf16 in, f32 sums, bf16 out, ping-pong: each consumer warpgroup
// (a warp group of its own, 232 registers) owns whole 128x128 tiles (two wgmma.m64n128k16 a step)
// and the two take turns; a task is 4 tiles side by side in N, tile j for
// warpgroup j mod 2. A producer warpgroup (40 registers) fills each
// warpgroup's ring of 3 swizzled stages with its tiles' slices, the tiles
// in order; each warpgroup releases its slices, one behind, and stores its
// tile through shared memory with TMA while the other multiplies
// (bench/gemm/pingpong.py).
// Tasks in groups of 8 down M (the innermost task loop).
gpuir.proc @gemm_128x128p_g8_bf16(%Mg: index, %Nt: index, %Kt: index,
    %A: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mg, Nt, Kt) -> (Mg * 1024, Kt * 64)>},
    %Bt: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mg, Nt, Kt) -> (Nt * 512, Kt * 64)>},
    %C: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mg, Nt, Kt) -> (Mg * 1024, Nt * 512)>})
    attributes {gpuir.check_sizes = [{Mg = 1, Nt = 2, Kt = 7}, {Mg = 1, Nt = 1, Kt = 1}, {Mg = 1, Nt = 1, Kt = 2}]} {
  gpuir.device_function blocks_per_sm(1) warps(producer = 4 dec(40), consumer0 = 4 inc(232), consumer1 = 4 inc(232)) {
    gpuir.for %mg = 0 to %Mg : cuda_tasks {
      gpuir.for %n = 0 to %Nt : cuda_tasks {
        gpuir.for %mi = 0 to 8 : cuda_tasks {
          %As0 = gpuir.alloc : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
          %Bs0 = gpuir.alloc : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
          %full0 = gpuir.alloc : !gpuir.barrier<mbarrier [3]>
          %empty0 = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [3]>
          %As1 = gpuir.alloc : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
          %Bs1 = gpuir.alloc : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
          %full1 = gpuir.alloc : !gpuir.barrier<mbarrier [3]>
          %empty1 = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [3]>
          %D = gpuir.alloc : memref<256x2x64xf32, #gpuir.rmem>
          %mma = gpuir.alloc : !gpuir.barrier<wgmma_group>
          %Cs = gpuir.alloc : memref<2x2x4x64x16xbf16, #gpuir.smem>
          %st = gpuir.alloc : !gpuir.barrier<tma_store_group>
          // Tile 0: columns 0 to 128 of the task's, warpgroup 0.
          gpuir.warps "consumer0" {
            gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
              gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.for %h = 0 to 2 : seq {
                  gpuir.for %r = 0 to 64 : seq {
                    %zero = arith.constant 0.0 : f32
                    gpuir.write %zero, %D[0 + %t, %h, %r] : memref<256x2x64xf32, #gpuir.rmem>
                  }
                }
              }
            }
          }
          gpuir.for %k = 0 to %Kt : seq {
            gpuir.warps "producer" {
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %empty0[(%k) mod 3], tma_to_smem_async : !gpuir.barrier<mbarrier_prearrive [3]>
                %sA = gpuir.window %As0[(%k) mod 3, 0 : 128, 0 : 64] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                %gA = gpuir.window %A[%mg * 1024 + %mi * 128 : %mg * 1024 + %mi * 128 + 128, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                gpuir.sm90a.tma_load %sA, %gA >> %full0[(%k) mod 3] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [3]>
                %sBt = gpuir.window %Bs0[(%k) mod 3, 0 : 128, 0 : 64] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                %gBt = gpuir.window %Bt[%n * 512 : %n * 512 + 128, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                gpuir.sm90a.tma_load %sBt, %gBt >> %full0[(%k) mod 3] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [3]>
              }
            }
            gpuir.warps "consumer0" {
              gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
                gpuir.await %full0[(%k) mod 3], wgmma_async : !gpuir.barrier<mbarrier [3]>
                gpuir.fence wgmma_fence_1 -> wgmma_fence_2
                gpuir.for %kk = 0 to 4 : seq {
                  %b = gpuir.window %Bs0[(%k) mod 3, 0 : 128, %kk * 16 : %kk * 16 + 16] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                  gpuir.for %h = 0 to 2 : seq {
                    %d = gpuir.window %D[0 : 128, %h, 0 : 64] : memref<256x2x64xf32, #gpuir.rmem>
                    %a = gpuir.window %As0[(%k) mod 3, %h * 64 : %h * 64 + 64, %kk * 16 : %kk * 16 + 16] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                    gpuir.sm90a.wgmma %d, %a, %b : memref<128x64xf32, strided<[128, 1], offset: ?>, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
                  }
                }
                gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
                gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
                // The previous slice's products are done: release its stage.
                gpuir.if %k >= 1 {
                  gpuir.arrive cuda_in_order >> %empty0[(%k + 2) mod 3] : !gpuir.barrier<mbarrier_prearrive [3]>
                }
              }
            }
          }
          gpuir.warps "consumer0" {
            gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
              gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
              gpuir.if %Kt >= 1 {
                gpuir.arrive cuda_in_order >> %empty0[(%Kt + 2) mod 3] : !gpuir.barrier<mbarrier_prearrive [3]>
              }
              // Quarter q: rows 64 (q / 2), columns 64 (q mod 2) of the tile. Register
              // 4 j + i of wgmma half h holds row 16 (t / 32) + (t mod 32) / 4 + 8 (i / 2),
              // column 8 j + 2 (t mod 4) + i mod 2 of its 64 rows.
              gpuir.for %q = 0 to 4 : seq {
                // Buffer q mod 2 is free again once the group of quarter q - 2 has read it.
                gpuir.if %q >= 2 {
                  gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                    gpuir.await %st, cuda_in_order, outstanding(1), read : !gpuir.barrier<tma_store_group>
                  }
                  gpuir.fence cuda_in_order -> cuda_in_order
                }
                gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.for %j = 0 to 8 : seq {
                    gpuir.for %i = 0 to 4 : seq {
                      %v = gpuir.read %D[0 + %t, %q floordiv 2, ((%q mod 2) * 8 + %j) * 4 + %i] : memref<256x2x64xf32, #gpuir.rmem>
                      %cv = arith.truncf %v : f32 to bf16
                      gpuir.write %cv, %Cs[0, %q mod 2, %j floordiv 2, (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, (%j mod 2) * 8 + (%t mod 4) * 2 + %i mod 2] : memref<2x2x4x64x16xbf16, #gpuir.smem>
                    }
                  }
                }
                gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
                gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.for %x = 0 to 4 : seq {
                    %cst = gpuir.window %Cs[0, %q mod 2, %x, 0 : 64, 0 : 16] : memref<2x2x4x64x16xbf16, #gpuir.smem>
                    %cg = gpuir.window %C[%mg * 1024 + %mi * 128 + (%q floordiv 2) * 64 : %mg * 1024 + %mi * 128 + (%q floordiv 2) * 64 + 64, %n * 512 + (%q mod 2) * 64 + %x * 16 : %n * 512 + (%q mod 2) * 64 + %x * 16 + 16] : memref<?x?xbf16, #gpuir.gmem>
                    gpuir.sm90a.tma_store %cg, %cst : memref<64x16xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x16xbf16, strided<[16, 1], offset: ?>, #gpuir.smem>
                  }
                  gpuir.arrive tma_to_gmem_async >> %st : !gpuir.barrier<tma_store_group>
                }
              }
              // Every group has read its buffer before the buffers are written again.
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %st, cuda_in_order, outstanding(0), read : !gpuir.barrier<tma_store_group>
              }
              gpuir.fence cuda_in_order -> cuda_in_order
            }
          }
          // Tile 1: columns 128 to 256 of the task's, warpgroup 1.
          gpuir.warps "consumer1" {
            gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
              gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.for %h = 0 to 2 : seq {
                  gpuir.for %r = 0 to 64 : seq {
                    %zero = arith.constant 0.0 : f32
                    gpuir.write %zero, %D[128 + %t, %h, %r] : memref<256x2x64xf32, #gpuir.rmem>
                  }
                }
              }
            }
          }
          gpuir.for %k = 0 to %Kt : seq {
            gpuir.warps "producer" {
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %empty1[(%k) mod 3], tma_to_smem_async : !gpuir.barrier<mbarrier_prearrive [3]>
                %sA = gpuir.window %As1[(%k) mod 3, 0 : 128, 0 : 64] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                %gA = gpuir.window %A[%mg * 1024 + %mi * 128 : %mg * 1024 + %mi * 128 + 128, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                gpuir.sm90a.tma_load %sA, %gA >> %full1[(%k) mod 3] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [3]>
                %sBt = gpuir.window %Bs1[(%k) mod 3, 0 : 128, 0 : 64] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                %gBt = gpuir.window %Bt[%n * 512 + 128 : %n * 512 + 256, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                gpuir.sm90a.tma_load %sBt, %gBt >> %full1[(%k) mod 3] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [3]>
              }
            }
            gpuir.warps "consumer1" {
              gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
                gpuir.await %full1[(%k) mod 3], wgmma_async : !gpuir.barrier<mbarrier [3]>
                gpuir.fence wgmma_fence_1 -> wgmma_fence_2
                gpuir.for %kk = 0 to 4 : seq {
                  %b = gpuir.window %Bs1[(%k) mod 3, 0 : 128, %kk * 16 : %kk * 16 + 16] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                  gpuir.for %h = 0 to 2 : seq {
                    %d = gpuir.window %D[128 : 256, %h, 0 : 64] : memref<256x2x64xf32, #gpuir.rmem>
                    %a = gpuir.window %As1[(%k) mod 3, %h * 64 : %h * 64 + 64, %kk * 16 : %kk * 16 + 16] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                    gpuir.sm90a.wgmma %d, %a, %b : memref<128x64xf32, strided<[128, 1], offset: ?>, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
                  }
                }
                gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
                gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
                // The previous slice's products are done: release its stage.
                gpuir.if %k >= 1 {
                  gpuir.arrive cuda_in_order >> %empty1[(%k + 2) mod 3] : !gpuir.barrier<mbarrier_prearrive [3]>
                }
              }
            }
          }
          gpuir.warps "consumer1" {
            gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
              gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
              gpuir.if %Kt >= 1 {
                gpuir.arrive cuda_in_order >> %empty1[(%Kt + 2) mod 3] : !gpuir.barrier<mbarrier_prearrive [3]>
              }
              // Quarter q: rows 64 (q / 2), columns 64 (q mod 2) of the tile. Register
              // 4 j + i of wgmma half h holds row 16 (t / 32) + (t mod 32) / 4 + 8 (i / 2),
              // column 8 j + 2 (t mod 4) + i mod 2 of its 64 rows.
              gpuir.for %q = 0 to 4 : seq {
                // Buffer q mod 2 is free again once the group of quarter q - 2 has read it.
                gpuir.if %q >= 2 {
                  gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                    gpuir.await %st, cuda_in_order, outstanding(1), read : !gpuir.barrier<tma_store_group>
                  }
                  gpuir.fence cuda_in_order -> cuda_in_order
                }
                gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.for %j = 0 to 8 : seq {
                    gpuir.for %i = 0 to 4 : seq {
                      %v = gpuir.read %D[128 + %t, %q floordiv 2, ((%q mod 2) * 8 + %j) * 4 + %i] : memref<256x2x64xf32, #gpuir.rmem>
                      %cv = arith.truncf %v : f32 to bf16
                      gpuir.write %cv, %Cs[1, %q mod 2, %j floordiv 2, (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, (%j mod 2) * 8 + (%t mod 4) * 2 + %i mod 2] : memref<2x2x4x64x16xbf16, #gpuir.smem>
                    }
                  }
                }
                gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
                gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.for %x = 0 to 4 : seq {
                    %cst = gpuir.window %Cs[1, %q mod 2, %x, 0 : 64, 0 : 16] : memref<2x2x4x64x16xbf16, #gpuir.smem>
                    %cg = gpuir.window %C[%mg * 1024 + %mi * 128 + (%q floordiv 2) * 64 : %mg * 1024 + %mi * 128 + (%q floordiv 2) * 64 + 64, %n * 512 + 128 + (%q mod 2) * 64 + %x * 16 : %n * 512 + 128 + (%q mod 2) * 64 + %x * 16 + 16] : memref<?x?xbf16, #gpuir.gmem>
                    gpuir.sm90a.tma_store %cg, %cst : memref<64x16xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x16xbf16, strided<[16, 1], offset: ?>, #gpuir.smem>
                  }
                  gpuir.arrive tma_to_gmem_async >> %st : !gpuir.barrier<tma_store_group>
                }
              }
              // Every group has read its buffer before the buffers are written again.
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %st, cuda_in_order, outstanding(0), read : !gpuir.barrier<tma_store_group>
              }
              gpuir.fence cuda_in_order -> cuda_in_order
            }
          }
          // Tile 2: columns 256 to 384 of the task's, warpgroup 0.
          gpuir.warps "consumer0" {
            gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
              gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.for %h = 0 to 2 : seq {
                  gpuir.for %r = 0 to 64 : seq {
                    %zero = arith.constant 0.0 : f32
                    gpuir.write %zero, %D[0 + %t, %h, %r] : memref<256x2x64xf32, #gpuir.rmem>
                  }
                }
              }
            }
          }
          gpuir.for %k = 0 to %Kt : seq {
            gpuir.warps "producer" {
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %empty0[(%Kt * 1 + %k) mod 3], tma_to_smem_async : !gpuir.barrier<mbarrier_prearrive [3]>
                %sA = gpuir.window %As0[(%Kt * 1 + %k) mod 3, 0 : 128, 0 : 64] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                %gA = gpuir.window %A[%mg * 1024 + %mi * 128 : %mg * 1024 + %mi * 128 + 128, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                gpuir.sm90a.tma_load %sA, %gA >> %full0[(%Kt * 1 + %k) mod 3] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [3]>
                %sBt = gpuir.window %Bs0[(%Kt * 1 + %k) mod 3, 0 : 128, 0 : 64] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                %gBt = gpuir.window %Bt[%n * 512 + 256 : %n * 512 + 384, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                gpuir.sm90a.tma_load %sBt, %gBt >> %full0[(%Kt * 1 + %k) mod 3] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [3]>
              }
            }
            gpuir.warps "consumer0" {
              gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
                gpuir.await %full0[(%Kt * 1 + %k) mod 3], wgmma_async : !gpuir.barrier<mbarrier [3]>
                gpuir.fence wgmma_fence_1 -> wgmma_fence_2
                gpuir.for %kk = 0 to 4 : seq {
                  %b = gpuir.window %Bs0[(%Kt * 1 + %k) mod 3, 0 : 128, %kk * 16 : %kk * 16 + 16] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                  gpuir.for %h = 0 to 2 : seq {
                    %d = gpuir.window %D[0 : 128, %h, 0 : 64] : memref<256x2x64xf32, #gpuir.rmem>
                    %a = gpuir.window %As0[(%Kt * 1 + %k) mod 3, %h * 64 : %h * 64 + 64, %kk * 16 : %kk * 16 + 16] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                    gpuir.sm90a.wgmma %d, %a, %b : memref<128x64xf32, strided<[128, 1], offset: ?>, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
                  }
                }
                gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
                gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
                // The previous slice's products are done: release its stage.
                gpuir.if %k >= 1 {
                  gpuir.arrive cuda_in_order >> %empty0[(%Kt * 1 + %k + 2) mod 3] : !gpuir.barrier<mbarrier_prearrive [3]>
                }
              }
            }
          }
          gpuir.warps "consumer0" {
            gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
              gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
              gpuir.if %Kt >= 1 {
                gpuir.arrive cuda_in_order >> %empty0[(%Kt * 2 + 2) mod 3] : !gpuir.barrier<mbarrier_prearrive [3]>
              }
              // Quarter q: rows 64 (q / 2), columns 64 (q mod 2) of the tile. Register
              // 4 j + i of wgmma half h holds row 16 (t / 32) + (t mod 32) / 4 + 8 (i / 2),
              // column 8 j + 2 (t mod 4) + i mod 2 of its 64 rows.
              gpuir.for %q = 0 to 4 : seq {
                // Buffer q mod 2 is free again once the group of quarter q - 2 has read it.
                gpuir.if %q >= 2 {
                  gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                    gpuir.await %st, cuda_in_order, outstanding(1), read : !gpuir.barrier<tma_store_group>
                  }
                  gpuir.fence cuda_in_order -> cuda_in_order
                }
                gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.for %j = 0 to 8 : seq {
                    gpuir.for %i = 0 to 4 : seq {
                      %v = gpuir.read %D[0 + %t, %q floordiv 2, ((%q mod 2) * 8 + %j) * 4 + %i] : memref<256x2x64xf32, #gpuir.rmem>
                      %cv = arith.truncf %v : f32 to bf16
                      gpuir.write %cv, %Cs[0, %q mod 2, %j floordiv 2, (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, (%j mod 2) * 8 + (%t mod 4) * 2 + %i mod 2] : memref<2x2x4x64x16xbf16, #gpuir.smem>
                    }
                  }
                }
                gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
                gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.for %x = 0 to 4 : seq {
                    %cst = gpuir.window %Cs[0, %q mod 2, %x, 0 : 64, 0 : 16] : memref<2x2x4x64x16xbf16, #gpuir.smem>
                    %cg = gpuir.window %C[%mg * 1024 + %mi * 128 + (%q floordiv 2) * 64 : %mg * 1024 + %mi * 128 + (%q floordiv 2) * 64 + 64, %n * 512 + 256 + (%q mod 2) * 64 + %x * 16 : %n * 512 + 256 + (%q mod 2) * 64 + %x * 16 + 16] : memref<?x?xbf16, #gpuir.gmem>
                    gpuir.sm90a.tma_store %cg, %cst : memref<64x16xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x16xbf16, strided<[16, 1], offset: ?>, #gpuir.smem>
                  }
                  gpuir.arrive tma_to_gmem_async >> %st : !gpuir.barrier<tma_store_group>
                }
              }
              // Every group has read its buffer before the buffers are written again.
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %st, cuda_in_order, outstanding(0), read : !gpuir.barrier<tma_store_group>
              }
              gpuir.fence cuda_in_order -> cuda_in_order
            }
          }
          // Tile 3: columns 384 to 512 of the task's, warpgroup 1.
          gpuir.warps "consumer1" {
            gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
              gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.for %h = 0 to 2 : seq {
                  gpuir.for %r = 0 to 64 : seq {
                    %zero = arith.constant 0.0 : f32
                    gpuir.write %zero, %D[128 + %t, %h, %r] : memref<256x2x64xf32, #gpuir.rmem>
                  }
                }
              }
            }
          }
          gpuir.for %k = 0 to %Kt : seq {
            gpuir.warps "producer" {
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %empty1[(%Kt * 1 + %k) mod 3], tma_to_smem_async : !gpuir.barrier<mbarrier_prearrive [3]>
                %sA = gpuir.window %As1[(%Kt * 1 + %k) mod 3, 0 : 128, 0 : 64] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                %gA = gpuir.window %A[%mg * 1024 + %mi * 128 : %mg * 1024 + %mi * 128 + 128, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                gpuir.sm90a.tma_load %sA, %gA >> %full1[(%Kt * 1 + %k) mod 3] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [3]>
                %sBt = gpuir.window %Bs1[(%Kt * 1 + %k) mod 3, 0 : 128, 0 : 64] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                %gBt = gpuir.window %Bt[%n * 512 + 384 : %n * 512 + 512, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem>
                gpuir.sm90a.tma_load %sBt, %gBt >> %full1[(%Kt * 1 + %k) mod 3] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [3]>
              }
            }
            gpuir.warps "consumer1" {
              gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
                gpuir.await %full1[(%Kt * 1 + %k) mod 3], wgmma_async : !gpuir.barrier<mbarrier [3]>
                gpuir.fence wgmma_fence_1 -> wgmma_fence_2
                gpuir.for %kk = 0 to 4 : seq {
                  %b = gpuir.window %Bs1[(%Kt * 1 + %k) mod 3, 0 : 128, %kk * 16 : %kk * 16 + 16] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                  gpuir.for %h = 0 to 2 : seq {
                    %d = gpuir.window %D[128 : 256, %h, 0 : 64] : memref<256x2x64xf32, #gpuir.rmem>
                    %a = gpuir.window %As1[(%Kt * 1 + %k) mod 3, %h * 64 : %h * 64 + 64, %kk * 16 : %kk * 16 + 16] : memref<3x128x64xbf16, #gpuir.smem_swizzled<128>>
                    gpuir.sm90a.wgmma %d, %a, %b : memref<128x64xf32, strided<[128, 1], offset: ?>, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
                  }
                }
                gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
                gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
                // The previous slice's products are done: release its stage.
                gpuir.if %k >= 1 {
                  gpuir.arrive cuda_in_order >> %empty1[(%Kt * 1 + %k + 2) mod 3] : !gpuir.barrier<mbarrier_prearrive [3]>
                }
              }
            }
          }
          gpuir.warps "consumer1" {
            gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
              gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
              gpuir.if %Kt >= 1 {
                gpuir.arrive cuda_in_order >> %empty1[(%Kt * 2 + 2) mod 3] : !gpuir.barrier<mbarrier_prearrive [3]>
              }
              // Quarter q: rows 64 (q / 2), columns 64 (q mod 2) of the tile. Register
              // 4 j + i of wgmma half h holds row 16 (t / 32) + (t mod 32) / 4 + 8 (i / 2),
              // column 8 j + 2 (t mod 4) + i mod 2 of its 64 rows.
              gpuir.for %q = 0 to 4 : seq {
                // Buffer q mod 2 is free again once the group of quarter q - 2 has read it.
                gpuir.if %q >= 2 {
                  gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                    gpuir.await %st, cuda_in_order, outstanding(1), read : !gpuir.barrier<tma_store_group>
                  }
                  gpuir.fence cuda_in_order -> cuda_in_order
                }
                gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.for %j = 0 to 8 : seq {
                    gpuir.for %i = 0 to 4 : seq {
                      %v = gpuir.read %D[128 + %t, %q floordiv 2, ((%q mod 2) * 8 + %j) * 4 + %i] : memref<256x2x64xf32, #gpuir.rmem>
                      %cv = arith.truncf %v : f32 to bf16
                      gpuir.write %cv, %Cs[1, %q mod 2, %j floordiv 2, (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, (%j mod 2) * 8 + (%t mod 4) * 2 + %i mod 2] : memref<2x2x4x64x16xbf16, #gpuir.smem>
                    }
                  }
                }
                gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
                gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                  gpuir.for %x = 0 to 4 : seq {
                    %cst = gpuir.window %Cs[1, %q mod 2, %x, 0 : 64, 0 : 16] : memref<2x2x4x64x16xbf16, #gpuir.smem>
                    %cg = gpuir.window %C[%mg * 1024 + %mi * 128 + (%q floordiv 2) * 64 : %mg * 1024 + %mi * 128 + (%q floordiv 2) * 64 + 64, %n * 512 + 384 + (%q mod 2) * 64 + %x * 16 : %n * 512 + 384 + (%q mod 2) * 64 + %x * 16 + 16] : memref<?x?xbf16, #gpuir.gmem>
                    gpuir.sm90a.tma_store %cg, %cst : memref<64x16xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x16xbf16, strided<[16, 1], offset: ?>, #gpuir.smem>
                  }
                  gpuir.arrive tma_to_gmem_async >> %st : !gpuir.barrier<tma_store_group>
                }
              }
              // Every group has read its buffer before the buffers are written again.
              gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
                gpuir.await %st, cuda_in_order, outstanding(0), read : !gpuir.barrier<tma_store_group>
              }
              gpuir.fence cuda_in_order -> cuda_in_order
            }
          }
        }
      }
    }
  }
}
