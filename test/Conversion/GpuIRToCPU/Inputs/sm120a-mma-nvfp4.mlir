// One Sm120a block-scaled instruction kernel for the sequential-meaning
// tests (test/Conversion/GpuIRToCPU/sm120a-behaviors.mlir) and the sm_120a
// code generation and verification tests (test/Conversion/GpuIRToNVVM/
// sm120a.mlir, test/Verifier/sm120a.test).
//
// NVFP4: D = C + (A SF_A) (B SF_B) for one m16n8k64 tile of f4E2M1FN, a
// ue4m3 scale (f8E4M3FN) for each 16 elements of a row of A or a column of
// B; fragments read from global memory by the PTX ISA's layouts (A: row
// g + 8 ((i / 8) mod 2), column 8 t + i mod 8 + 32 (i / 16); B: row
// 8 t + i mod 8 + 32 (i / 8), column g; C and D: row g + 8 (i / 2), column
// 2 t + i mod 2; SF_A[r][j] in byte j of lanes 4 (r mod 8) + r / 8 + 2 s for
// s = 0, 1 (thread_id_a = 1 reads the second pair); SF_B[j][c] in byte j of
// lanes 4 c to 4 c + 3).
gpuir.proc @mma_nvfp4(%A: memref<16x64xf4E2M1FN, #gpuir.gmem>, %B: memref<64x8xf4E2M1FN, #gpuir.gmem>, %SFA: memref<16x4xf8E4M3FN, #gpuir.gmem>, %SFB: memref<4x8xf8E4M3FN, #gpuir.gmem>, %C: memref<16x8xf32, #gpuir.gmem>, %D: memref<16x8xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<32x32xf4E2M1FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x16xf4E2M1FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E4M3FN, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E4M3FN, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 32 : seq {
          %x = gpuir.read %A[%l floordiv 4 + ((%i floordiv 8) mod 2) * 8, (%l mod 4) * 8 + %i mod 8 + (%i floordiv 16) * 32] : memref<16x64xf4E2M1FN, #gpuir.gmem>
          gpuir.write %x, %a[%l, %i] : memref<32x32xf4E2M1FN, #gpuir.rmem>
        }
        gpuir.for %i = 0 to 16 : seq {
          %y = gpuir.read %B[(%l mod 4) * 8 + %i mod 8 + (%i floordiv 8) * 32, %l floordiv 4] : memref<64x8xf4E2M1FN, #gpuir.gmem>
          gpuir.write %y, %b[%l, %i] : memref<32x16xf4E2M1FN, #gpuir.rmem>
        }
        gpuir.for %j = 0 to 4 : seq {
          %s = gpuir.read %SFA[%l floordiv 4 + (%l mod 2) * 8, %j] : memref<16x4xf8E4M3FN, #gpuir.gmem>
          gpuir.write %s, %sfa[%l, %j] : memref<32x4xf8E4M3FN, #gpuir.rmem>
          %t = gpuir.read %SFB[%j, %l floordiv 4] : memref<4x8xf8E4M3FN, #gpuir.gmem>
          gpuir.write %t, %sfb[%l, %j] : memref<32x4xf8E4M3FN, #gpuir.rmem>
        }
        gpuir.for %i = 0 to 4 : seq {
          %c = gpuir.read %C[%l floordiv 4 + (%i floordiv 2) * 8, (%l mod 4) * 2 + %i mod 2] : memref<16x8xf32, #gpuir.gmem>
          gpuir.write %c, %d[%l, %i] : memref<32x4xf32, #gpuir.rmem>
        }
      }
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) {thread_id_a = 1, thread_id_b = 2} : memref<32x4xf32, #gpuir.rmem>, memref<32x32xf4E2M1FN, #gpuir.rmem>, memref<32x16xf4E2M1FN, #gpuir.rmem>, memref<32x4xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E4M3FN, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 4 : seq {
          %v = gpuir.read %d[%l, %i] : memref<32x4xf32, #gpuir.rmem>
          gpuir.write %v, %D[%l floordiv 4 + (%i floordiv 2) * 8, (%l mod 4) * 2 + %i mod 2] : memref<16x8xf32, #gpuir.gmem>
        }
      }
    }
  }
}
