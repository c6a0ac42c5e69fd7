// C = A B^T with bf16 inputs and f32 accumulation on Hopper's warpgroup
// matrix multiply: each CTA of two warpgroups computes a 128x128 tile of C
// over 64-wide slices of K staged in a six-stage ring of shared memory by
// cp.async, in wgmma's core-matrix layout (8 rows x 16 bytes contiguous);
// each warpgroup multiplies its 64 rows with four wgmma.m64n128k16 per
// slice.
//
// A is M x K and Bt is N x K (B transposed, as a linear layer's weight),
// both row-major; C is M x N: M = 128 Mt, N = 128 Nt, K = 64 Kt.
//
// Iteration k waits for its thread's copies of slice k (those of the next
// three slices may stay in flight), makes every thread's copies visible to
// the async proxy and meets the CTA (fence.proxy.async + bar.sync: now the
// stage of slice k - 2 is free too, as each warpgroup waited for all but
// its newest group of wgmma), refills that stage with slice k + 4, then
// issues the products of slice k and waits for those of slice k - 1 only:
// the tensor cores keep working across iterations while four slices load.
//
//   build/bin/rake-opt examples/gemm_sm90a.mlir --rake-check
//   build/bin/rake-run --seq examples/gemm_sm90a.mlir --sizes=Mt=1,Nt=1,Kt=2 --shape=A=128x128,Bt=128x128,C=128x128
//   build/bin/rake-translate --gpuir-to-ptx examples/gemm_sm90a.mlir
gpuir.proc @gemm_sm90a(%Mt: index, %Nt: index, %Kt: index,
                       %A: memref<?x?xbf16, #gpuir.gmem>,
                       %Bt: memref<?x?xbf16, #gpuir.gmem>,
                       %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{Mt = 2, Nt = 1, Kt = 9}, {Mt = 1, Nt = 1, Kt = 3}]} {
  gpuir.device_function blocks_per_sm(1) block(256) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %n = 0 to %Nt : cuda_tasks {
        // Stage s of A: [s][row / 8][k / 8][row mod 8][k mod 8]; of Bt likewise.
        %As = gpuir.alloc : memref<6x16x8x8x8xbf16, #gpuir.smem>
        %Bs = gpuir.alloc : memref<6x16x8x8x8xbf16, #gpuir.smem>
        // Per warpgroup and thread: 64 accumulators (the m64n128 fragment).
        %D = gpuir.alloc : memref<2x128x64xf32, #gpuir.rmem>
        %copies = gpuir.alloc : !gpuir.barrier<cp_async_group>
        %mma = gpuir.alloc : !gpuir.barrier<wgmma_group>

        gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %r = 0 to 64 : seq {
              %zero = arith.constant 0.0 : f32
              gpuir.write %zero, %D[%wm, %t, %r] : memref<2x128x64xf32, #gpuir.rmem>
            }
          }
        }

        // Slices 0 to 3 into stages 0 to 3, one commit group each.
        gpuir.for %p = 0 to 4 : seq {
          gpuir.if %p < %Kt {
            gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %c = 0 to 4 : seq {
                // Chunk q = 256 c + t of each tile: row 8 (q / 64) + q mod 8, core-matrix
    // column (q / 8) mod 8, so that consecutive threads fill consecutive
    // 16-byte rows of a core matrix.
                %as = gpuir.window %As[%p, (%c * 256 + %t) floordiv 64, ((%c * 256 + %t) floordiv 8) mod 8, (%c * 256 + %t) mod 8, 0 : 8] : memref<6x16x8x8x8xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
                %ag = gpuir.window %A[%m * 128 + ((%c * 256 + %t) floordiv 64) * 8 + (%c * 256 + %t) mod 8, (%p) * 64 + (((%c * 256 + %t) floordiv 8) mod 8) * 8 : (%p) * 64 + (((%c * 256 + %t) floordiv 8) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %as, %ag : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                %bs = gpuir.window %Bs[%p, (%c * 256 + %t) floordiv 64, ((%c * 256 + %t) floordiv 8) mod 8, (%c * 256 + %t) mod 8, 0 : 8] : memref<6x16x8x8x8xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
                %bg = gpuir.window %Bt[%n * 128 + ((%c * 256 + %t) floordiv 64) * 8 + (%c * 256 + %t) mod 8, (%p) * 64 + (((%c * 256 + %t) floordiv 8) mod 8) * 8 : (%p) * 64 + (((%c * 256 + %t) floordiv 8) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %bs, %bg : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
              }
            }
          }
          gpuir.arrive Sm80_cp_async >> %copies : !gpuir.barrier<cp_async_group>
        }

        gpuir.for %k = 0 to %Kt : seq {
          gpuir.await %copies, cuda_in_order, outstanding(3) : !gpuir.barrier<cp_async_group>
          gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy

          gpuir.if %k + 4 < %Kt {
            gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %c = 0 to 4 : seq {
                // Chunk q = 256 c + t of each tile: row 8 (q / 64) + q mod 8, core-matrix
    // column (q / 8) mod 8, so that consecutive threads fill consecutive
    // 16-byte rows of a core matrix.
                %as = gpuir.window %As[(%k + 4) mod 6, (%c * 256 + %t) floordiv 64, ((%c * 256 + %t) floordiv 8) mod 8, (%c * 256 + %t) mod 8, 0 : 8] : memref<6x16x8x8x8xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
                %ag = gpuir.window %A[%m * 128 + ((%c * 256 + %t) floordiv 64) * 8 + (%c * 256 + %t) mod 8, (%k + 4) * 64 + (((%c * 256 + %t) floordiv 8) mod 8) * 8 : (%k + 4) * 64 + (((%c * 256 + %t) floordiv 8) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %as, %ag : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                %bs = gpuir.window %Bs[(%k + 4) mod 6, (%c * 256 + %t) floordiv 64, ((%c * 256 + %t) floordiv 8) mod 8, (%c * 256 + %t) mod 8, 0 : 8] : memref<6x16x8x8x8xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
                %bg = gpuir.window %Bt[%n * 128 + ((%c * 256 + %t) floordiv 64) * 8 + (%c * 256 + %t) mod 8, (%k + 4) * 64 + (((%c * 256 + %t) floordiv 8) mod 8) * 8 : (%k + 4) * 64 + (((%c * 256 + %t) floordiv 8) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %bs, %bg : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
              }
            }
          }
          gpuir.arrive Sm80_cp_async >> %copies : !gpuir.barrier<cp_async_group>

          gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %d = gpuir.window %D[%wm, 0 : 128, 0 : 64] : memref<2x128x64xf32, #gpuir.rmem> -> memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>
            gpuir.for %kk = 0 to 4 : seq {
              %a = gpuir.window %As[%k mod 6, %wm * 8 : %wm * 8 + 8, %kk * 2 : %kk * 2 + 2, 0 : 8, 0 : 8] : memref<6x16x8x8x8xbf16, #gpuir.smem> -> memref<8x2x8x8xbf16, strided<[512, 64, 8, 1], offset: ?>, #gpuir.smem>
              %b = gpuir.window %Bs[%k mod 6, 0 : 16, %kk * 2 : %kk * 2 + 2, 0 : 8, 0 : 8] : memref<6x16x8x8x8xbf16, #gpuir.smem> -> memref<16x2x8x8xbf16, strided<[512, 64, 8, 1], offset: ?>, #gpuir.smem>
              gpuir.sm90a.wgmma %d, %a, %b : memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>, memref<8x2x8x8xbf16, strided<[512, 64, 8, 1], offset: ?>, #gpuir.smem>, memref<16x2x8x8xbf16, strided<[512, 64, 8, 1], offset: ?>, #gpuir.smem>
            }
            gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
            // The previous slice's products are done: its stage is free
            // once the CTA meets again.
            gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
          }
        }
        gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
          gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
        }

        // Register 4 j + i of thread t holds row 16 (t / 32) + (t mod 32) / 4
        // + 8 (i / 2), column 8 j + 2 (t mod 4) + i mod 2 of the warpgroup's
        // 64 x 128 part.
        gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %j = 0 to 16 : seq {
              gpuir.for %i = 0 to 4 : seq {
                %v = gpuir.read %D[%wm, %t, %j * 4 + %i] : memref<2x128x64xf32, #gpuir.rmem>
                gpuir.write %v, %C[%m * 128 + %wm * 64 + (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, %n * 128 + %j * 8 + (%t mod 4) * 2 + %i mod 2] : memref<?x?xf32, #gpuir.gmem>
              }
            }
          }
        }
      }
    }
  }
}
