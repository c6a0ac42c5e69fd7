// Written by bench/gemm_examples/make_gemm_sm90a_ws.py gemm_sm90a_ws 4 64 wait0.
// The TMA GEMM (examples/gemm_sm90a_tma.mlir) warp-specialized: one
// producer warpgroup (40 registers) filling four swizzled stages by TMA as
// the consumers release them (empty mbarriers); 4 consumer warpgroups
// (104 registers, 64 rows of the 256x128 tile each) waiting for each
// stage (full mbarriers) and multiplying it with wgmma; release: wait0.
// No CTA barrier inside the K loop.
gpuir.proc @gemm_sm90a_ws(%Mt: index, %Nt: index, %Kt: index,
                       %A: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Mt * 256, Kt * 64)>},
                       %Bt: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Nt * 128, Kt * 64)>},
                       %C: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Mt * 256, Nt * 128)>})
    attributes {gpuir.check_sizes = [{Mt = 2, Nt = 1, Kt = 7}, {Mt = 1, Nt = 1, Kt = 1}]} {
  gpuir.device_function blocks_per_sm(1) warps(producer = 4 dec(40), consumer = 16 inc(104)) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %n = 0 to %Nt : cuda_tasks {
        %As = gpuir.alloc : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>>
        %Bs = gpuir.alloc : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>>
        %D = gpuir.alloc : memref<4x128x1x64xf32, #gpuir.rmem>
        %full = gpuir.alloc : !gpuir.barrier<mbarrier [4]>
        %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [4]>
        %mma = gpuir.alloc : !gpuir.barrier<wgmma_group>
        gpuir.warps "consumer" {
          gpuir.for %wm = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
            gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %h = 0 to 1 : seq {
                gpuir.for %r = 0 to 64 : seq {
                  %zero = arith.constant 0.0 : f32
                  gpuir.write %zero, %D[%wm, %t, %h, %r] : memref<4x128x1x64xf32, #gpuir.rmem>
                }
              }
            }
          }
        }
        gpuir.for %k = 0 to %Kt : seq {
          gpuir.warps "producer" {
            gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.await %empty[%k mod 4], tma_to_smem_async : !gpuir.barrier<mbarrier_prearrive [4]>
              %sA = gpuir.window %As[%k mod 4, 0 : 256, 0 : 64] : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>> -> memref<256x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
              %gA = gpuir.window %A[%m * 256 : %m * 256 + 256, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem> -> memref<256x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>
              gpuir.sm90a.tma_load %sA, %gA >> %full[%k mod 4] : memref<256x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<256x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [4]>
              %sBt = gpuir.window %Bs[%k mod 4, 0 : 128, 0 : 64] : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>> -> memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
              %gBt = gpuir.window %Bt[%n * 128 : %n * 128 + 128, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem> -> memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>
              gpuir.sm90a.tma_load %sBt, %gBt >> %full[%k mod 4] : memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [4]>
            }
          }
          gpuir.warps "consumer" {
            gpuir.for %wm = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
              gpuir.await %full[%k mod 4], wgmma_async : !gpuir.barrier<mbarrier [4]>
              gpuir.fence wgmma_fence_1 -> wgmma_fence_2
              gpuir.for %kk = 0 to 4 : seq {
                %b = gpuir.window %Bs[%k mod 4, 0 : 128, %kk * 16 : %kk * 16 + 16] : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>> -> memref<128x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
                gpuir.for %h = 0 to 1 : seq {
                  %d = gpuir.window %D[%wm, 0 : 128, %h, 0 : 64] : memref<4x128x1x64xf32, #gpuir.rmem> -> memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
                  %a = gpuir.window %As[%k mod 4, %wm * 64 + %h * 64 : %wm * 64 + %h * 64 + 64, %kk * 16 : %kk * 16 + 16] : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>> -> memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
                  gpuir.sm90a.wgmma %d, %a, %b : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
                }
              }
              gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
              gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
            }
            gpuir.arrive cuda_in_order >> %empty[%k mod 4] : !gpuir.barrier<mbarrier_prearrive [4]>
          }
        }
        gpuir.warps "consumer" {
          // Register 4 j + i of thread t holds row 16 (t / 32) + (t mod 32) / 4
          // + 8 (i / 2), column 8 j + 2 (t mod 4) + i mod 2 of a 64 x 128 part.
          gpuir.for %wm = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
            gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %h = 0 to 1 : seq {
                gpuir.for %j = 0 to 16 : seq {
                  gpuir.for %i = 0 to 4 : seq {
                    %v = gpuir.read %D[%wm, %t, %h, %j * 4 + %i] : memref<4x128x1x64xf32, #gpuir.rmem>
                    gpuir.write %v, %C[%m * 256 + %wm * 64 + %h * 64 + (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, %n * 128 + %j * 8 + (%t mod 4) * 2 + %i mod 2] : memref<?x?xf32, #gpuir.gmem>
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}
