// C = A Bt^T with bf16 inputs and f32 accumulation on Hopper's warpgroup
// matrix multiply: each CTA of four warpgroups computes a 256x128 tile of C
// over 64-wide slices of K, staged by cp.async in a four-stage ring of
// shared memory in the 128-byte swizzle (rows of 128 bytes, each row's
// 16-byte chunks spread over the banks); each warpgroup multiplies its 64
// rows with four wgmma.m64n128k16 per slice, reading the swizzled stages
// through swizzled matrix descriptors.
//
// A is M x K and Bt is N x K (B transposed, as a linear layer's weight),
// both row-major; C is M x N: M = 256 Mt, N = 128 Nt, K = 64 Kt.
//
// Iteration k waits for its thread's copies of slice k (the next slice's
// may stay in flight), makes every thread's copies visible to the async
// proxy and meets the CTA (fence.proxy.async + bar.sync: now the stage of
// slice k - 2 is free too, as each warpgroup waited for all but its newest
// group of wgmma), refills that stage with slice k + 2, then issues the
// products of slice k and waits for those of slice k - 1 only: the tensor
// cores keep working across iterations.
//
// (Written by bench/gemm_examples/make_gemm_sm90a.py --swizzle gemm_sm90a 4 4 2.)
//
//   build/bin/rake-opt examples/gemm_sm90a.mlir --rake-check
//   build/bin/rake-run --seq examples/gemm_sm90a.mlir --sizes=Mt=1,Nt=1,Kt=2 --shape=A=256x128,Bt=128x128,C=256x128
//   build/bin/rake-translate --gpuir-to-ptx examples/gemm_sm90a.mlir
gpuir.proc @gemm_sm90a(%Mt: index, %Nt: index, %Kt: index,
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
                %s = gpuir.window %As[%p, (%c * 512 + %t) floordiv 8, ((%c * 512 + %t) mod 8) * 8 : ((%c * 512 + %t) mod 8) * 8 + 8] : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>
                %g = gpuir.window %A[%m * 256 + (%c * 512 + %t) floordiv 8, (%p) * 64 + ((%c * 512 + %t) mod 8) * 8 : (%p) * 64 + ((%c * 512 + %t) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %s, %g : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
              }
              gpuir.for %c = 0 to 2 : seq {
                %s = gpuir.window %Bs[%p, (%c * 512 + %t) floordiv 8, ((%c * 512 + %t) mod 8) * 8 : ((%c * 512 + %t) mod 8) * 8 + 8] : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>
                %g = gpuir.window %Bt[%n * 128 + (%c * 512 + %t) floordiv 8, (%p) * 64 + ((%c * 512 + %t) mod 8) * 8 : (%p) * 64 + ((%c * 512 + %t) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %s, %g : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
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
                %s = gpuir.window %As[(%k + 2) mod 4, (%c * 512 + %t) floordiv 8, ((%c * 512 + %t) mod 8) * 8 : ((%c * 512 + %t) mod 8) * 8 + 8] : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>
                %g = gpuir.window %A[%m * 256 + (%c * 512 + %t) floordiv 8, (%k + 2) * 64 + ((%c * 512 + %t) mod 8) * 8 : (%k + 2) * 64 + ((%c * 512 + %t) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %s, %g : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
              }
              gpuir.for %c = 0 to 2 : seq {
                %s = gpuir.window %Bs[(%k + 2) mod 4, (%c * 512 + %t) floordiv 8, ((%c * 512 + %t) mod 8) * 8 : ((%c * 512 + %t) mod 8) * 8 + 8] : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>
                %g = gpuir.window %Bt[%n * 128 + (%c * 512 + %t) floordiv 8, (%k + 2) * 64 + ((%c * 512 + %t) mod 8) * 8 : (%k + 2) * 64 + ((%c * 512 + %t) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %s, %g : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
              }
            }
          }
          gpuir.arrive Sm80_cp_async >> %copies : !gpuir.barrier<cp_async_group>

          gpuir.for %wm = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %d = gpuir.window %D[%wm, 0 : 128, 0 : 64] : memref<4x128x64xf32, #gpuir.rmem> -> memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
            gpuir.for %kk = 0 to 4 : seq {
              %a = gpuir.window %As[%k mod 4, %wm * 64 : %wm * 64 + 64, %kk * 16 : %kk * 16 + 16] : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>> -> memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
              %b = gpuir.window %Bs[%k mod 4, 0 : 128, %kk * 16 : %kk * 16 + 16] : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>> -> memref<128x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
              gpuir.sm90a.wgmma %d, %a, %b : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
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
                gpuir.write %v, %C[%m * 256 + %wm * 64, %n * 128] fragment(wgmma_d %t, %j, %i) : memref<?x?xf32, #gpuir.gmem>
              }
            }
          }
        }
      }
    }
  }
}
