// The Sm80 GEMM of examples/gemm_sm80.mlir with a deeper pipeline: four
// shared-memory stages (76 KiB of dynamic shared memory), slices k + 1 ..
// k + 3 in flight while slice k is multiplied. Iteration k waits until at
// most two of its thread's commit groups are unfinished (so slice k's group
// is done), meets the CTA, and refills the stage slice k - 1 used. A commit
// group is made every iteration, empty near the end of K, so that the
// count of unfinished groups keeps its meaning.
//
//   build/bin/rake-opt bench/gemm_examples/gemm_sm80_4stage.mlir --rake-check
gpuir.proc @gemm_sm80_4stage(%Mt: index, %Nt: index, %Kt: index,
                      %A: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Mt * 128, Kt * 32)>},
                      %B: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Kt * 32, Nt * 128)>},
                      %C: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Mt * 128, Nt * 128)>})
    attributes {gpuir.check_sizes = [{Mt = 2, Nt = 1, Kt = 6}, {Mt = 1, Nt = 1, Kt = 2}]} {
  gpuir.device_function blocks_per_sm(2) block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %n = 0 to %Nt : cuda_tasks {
        %As = gpuir.alloc : memref<4x128x40xbf16, #gpuir.smem>
        %Bs = gpuir.alloc : memref<4x32x136xbf16, #gpuir.smem>
        // Per warp (wm, wn) and lane: the accumulators of 4 x 8 m16n8 tiles,
        // and the A and B fragments of one 16-wide step of K.
        %D = gpuir.alloc : memref<2x2x32x4x8x4xf32, #gpuir.rmem>
        %Af = gpuir.alloc : memref<2x2x32x4x8xbf16, #gpuir.rmem>
        %Bf = gpuir.alloc : memref<2x2x32x4x8xbf16, #gpuir.rmem>
        %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>

        gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<2 x warp>> {
          gpuir.for %wn = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %i = 0 to 4 : seq {
                gpuir.for %j = 0 to 8 : seq {
                  gpuir.for %r = 0 to 4 : seq {
                    %zero = arith.constant 0.0 : f32
                    gpuir.write %zero, %D[%wm, %wn, %l, %i, %j, %r] : memref<2x2x32x4x8x4xf32, #gpuir.rmem>
                  }
                }
              }
            }
          }
        }

        // Slices 0, 1 and 2 into stages 0, 1 and 2, one commit group each
        // (empty when K has fewer slices).
        gpuir.for %p = 0 to 3 : seq {
          gpuir.if %p < %Kt {
            gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %c = 0 to 4 : seq {
                %as = gpuir.window %As[%p, (%c * 128 + %t) floordiv 4, ((%c * 128 + %t) mod 4) * 8 : ((%c * 128 + %t) mod 4) * 8 + 8] : memref<4x128x40xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
                %ag = gpuir.window %A[%m * 128 + (%c * 128 + %t) floordiv 4, %p * 32 + ((%c * 128 + %t) mod 4) * 8 : %p * 32 + ((%c * 128 + %t) mod 4) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %as, %ag : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                %bs = gpuir.window %Bs[%p, (%c * 128 + %t) floordiv 16, ((%c * 128 + %t) mod 16) * 8 : ((%c * 128 + %t) mod 16) * 8 + 8] : memref<4x32x136xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
                %bg = gpuir.window %B[%p * 32 + (%c * 128 + %t) floordiv 16, %n * 128 + ((%c * 128 + %t) mod 16) * 8 : %n * 128 + ((%c * 128 + %t) mod 16) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %bs, %bg : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
              }
            }
          }
          gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
        }

        gpuir.for %k = 0 to %Kt : seq {
          gpuir.await %cg, cuda_in_order, outstanding(2) : !gpuir.barrier<cp_async_group>
          gpuir.fence cuda_in_order -> cuda_in_order

          // Slice k + 3 into the stage slice k - 1 used, while slice k is
          // multiplied.
          gpuir.if %k + 3 < %Kt {
            gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %c = 0 to 4 : seq {
                %as = gpuir.window %As[(%k + 3) mod 4, (%c * 128 + %t) floordiv 4, ((%c * 128 + %t) mod 4) * 8 : ((%c * 128 + %t) mod 4) * 8 + 8] : memref<4x128x40xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
                %ag = gpuir.window %A[%m * 128 + (%c * 128 + %t) floordiv 4, (%k + 3) * 32 + ((%c * 128 + %t) mod 4) * 8 : (%k + 3) * 32 + ((%c * 128 + %t) mod 4) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %as, %ag : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                %bs = gpuir.window %Bs[(%k + 3) mod 4, (%c * 128 + %t) floordiv 16, ((%c * 128 + %t) mod 16) * 8 : ((%c * 128 + %t) mod 16) * 8 + 8] : memref<4x32x136xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
                %bg = gpuir.window %B[(%k + 3) * 32 + (%c * 128 + %t) floordiv 16, %n * 128 + ((%c * 128 + %t) mod 16) * 8 : %n * 128 + ((%c * 128 + %t) mod 16) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
                gpuir.sm80.cp_async %bs, %bg : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
              }
            }
          }
          gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>

          gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<2 x warp>> {
            gpuir.for %wn = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
              gpuir.for %kk = 0 to 2 : seq {
                gpuir.for %i = 0 to 4 : seq {
                  %a = gpuir.window %Af[%wm, %wn, 0 : 32, %i, 0 : 8] : memref<2x2x32x4x8xbf16, #gpuir.rmem> -> memref<32x8xbf16, strided<[32, 1], offset: ?>, #gpuir.rmem>
                  %as = gpuir.window %As[%k mod 4, %wm * 64 + %i * 16 : %wm * 64 + %i * 16 + 16, %kk * 16 : %kk * 16 + 16] : memref<4x128x40xbf16, #gpuir.smem> -> memref<16x16xbf16, strided<[40, 1], offset: ?>, #gpuir.smem>
                  gpuir.sm80.ldmatrix %a, %as : memref<32x8xbf16, strided<[32, 1], offset: ?>, #gpuir.rmem>, memref<16x16xbf16, strided<[40, 1], offset: ?>, #gpuir.smem>
                }
                gpuir.for %jj = 0 to 4 : seq {
                  %b = gpuir.window %Bf[%wm, %wn, 0 : 32, %jj, 0 : 8] : memref<2x2x32x4x8xbf16, #gpuir.rmem> -> memref<32x8xbf16, strided<[32, 1], offset: ?>, #gpuir.rmem>
                  %bs = gpuir.window %Bs[%k mod 4, %kk * 16 : %kk * 16 + 16, %wn * 64 + %jj * 16 : %wn * 64 + %jj * 16 + 16] : memref<4x32x136xbf16, #gpuir.smem> -> memref<16x16xbf16, strided<[136, 1], offset: ?>, #gpuir.smem>
                  gpuir.sm80.ldmatrix %b, %bs trans : memref<32x8xbf16, strided<[32, 1], offset: ?>, #gpuir.rmem>, memref<16x16xbf16, strided<[136, 1], offset: ?>, #gpuir.smem>
                }
                gpuir.for %i = 0 to 4 : seq {
                  gpuir.for %j = 0 to 8 : seq {
                    %d = gpuir.window %D[%wm, %wn, 0 : 32, %i, %j, 0 : 4] : memref<2x2x32x4x8x4xf32, #gpuir.rmem> -> memref<32x4xf32, strided<[128, 1], offset: ?>, #gpuir.rmem>
                    %a = gpuir.window %Af[%wm, %wn, 0 : 32, %i, 0 : 8] : memref<2x2x32x4x8xbf16, #gpuir.rmem> -> memref<32x8xbf16, strided<[32, 1], offset: ?>, #gpuir.rmem>
                    %b = gpuir.window %Bf[%wm, %wn, 0 : 32, %j floordiv 2, (%j mod 2) * 4 : (%j mod 2) * 4 + 4] : memref<2x2x32x4x8xbf16, #gpuir.rmem> -> memref<32x4xbf16, strided<[32, 1], offset: ?>, #gpuir.rmem>
                    gpuir.sm80.mma_sync %d, %a, %b : memref<32x4xf32, strided<[128, 1], offset: ?>, #gpuir.rmem>, memref<32x8xbf16, strided<[32, 1], offset: ?>, #gpuir.rmem>, memref<32x4xbf16, strided<[32, 1], offset: ?>, #gpuir.rmem>
                  }
                }
              }
            }
          }
        }

        // Each lane writes its accumulators: register r of tile (i, j) is
        // row l / 4 + 8 (r / 2), column 2 (l mod 4) + r mod 2 of the tile.
        gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<2 x warp>> {
          gpuir.for %wn = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
            gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
              gpuir.for %i = 0 to 4 : seq {
                gpuir.for %j = 0 to 8 : seq {
                  gpuir.for %r = 0 to 4 : seq {
                    %v = gpuir.read %D[%wm, %wn, %l, %i, %j, %r] : memref<2x2x32x4x8x4xf32, #gpuir.rmem>
                    gpuir.write %v, %C[%m * 128 + %wm * 64 + %i * 16 + %l floordiv 4 + (%r floordiv 2) * 8, %n * 128 + %wn * 64 + %j * 8 + (%l mod 4) * 2 + %r mod 2] : memref<?x?xf32, #gpuir.gmem>
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
