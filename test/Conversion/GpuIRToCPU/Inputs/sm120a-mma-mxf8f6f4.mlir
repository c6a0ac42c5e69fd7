// One Sm120a block-scaled instruction kernel for the sequential-meaning
// tests (test/Conversion/GpuIRToCPU/sm120a-behaviors.mlir) and the sm_120a
// code generation and verification tests.
//
// kind::mxf8f6f4 with a mixed pair: D = C + (A SF_A) (B SF_B) for one
// m16n8k32 tile, A f4E2M1FN, B f6E3M2FN, one ue8m0 scale (f8E8M0FNU) per row
// of A and column of B. SFA and SFB hold four candidate scales per row
// (column), as four MMAs' scales share a register: the instruction takes
// byte 2 of A's (byte_id_a) and byte 1 of B's (byte_id_b). Fragments by
// the PTX ISA's layouts (A: row g + 8 ((i / 4) mod 2), column
// 4 t + i mod 4 + 16 (i / 8); B: row 4 t + i mod 4 + 16 (i / 4), column g;
// SF_A[r] in lanes 4 (r mod 8) + r / 8 (+ 2 for thread_id_a = 1); SF_B[c]
// in lanes 4 c to 4 c + 3, thread_id_b = 3 reading the last).
gpuir.proc @mma_mxf8f6f4(%A: memref<16x32xf4E2M1FN, #gpuir.gmem>, %B: memref<32x8xf6E3M2FN, #gpuir.gmem>, %SFA: memref<16x4xf8E8M0FNU, #gpuir.gmem>, %SFB: memref<4x8xf8E8M0FNU, #gpuir.gmem>, %C: memref<16x8xf32, #gpuir.gmem>, %D: memref<16x8xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<32x16xf4E2M1FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x8xf6E3M2FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 16 : seq {
          %x = gpuir.read %A[%l floordiv 4 + ((%i floordiv 4) mod 2) * 8, (%l mod 4) * 4 + %i mod 4 + (%i floordiv 8) * 16] : memref<16x32xf4E2M1FN, #gpuir.gmem>
          gpuir.write %x, %a[%l, %i] : memref<32x16xf4E2M1FN, #gpuir.rmem>
        }
        gpuir.for %i = 0 to 8 : seq {
          %y = gpuir.read %B[(%l mod 4) * 4 + %i mod 4 + (%i floordiv 4) * 16, %l floordiv 4] : memref<32x8xf6E3M2FN, #gpuir.gmem>
          gpuir.write %y, %b[%l, %i] : memref<32x8xf6E3M2FN, #gpuir.rmem>
        }
        gpuir.for %j = 0 to 4 : seq {
          %s = gpuir.read %SFA[%l floordiv 4 + (%l mod 2) * 8, %j] : memref<16x4xf8E8M0FNU, #gpuir.gmem>
          gpuir.write %s, %sfa[%l, %j] : memref<32x4xf8E8M0FNU, #gpuir.rmem>
          %t = gpuir.read %SFB[%j, %l floordiv 4] : memref<4x8xf8E8M0FNU, #gpuir.gmem>
          gpuir.write %t, %sfb[%l, %j] : memref<32x4xf8E8M0FNU, #gpuir.rmem>
        }
        gpuir.for %i = 0 to 4 : seq {
          %c = gpuir.read %C[%l floordiv 4 + (%i floordiv 2) * 8, (%l mod 4) * 2 + %i mod 2] : memref<16x8xf32, #gpuir.gmem>
          gpuir.write %c, %d[%l, %i] : memref<32x4xf32, #gpuir.rmem>
        }
      }
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) {byte_id_a = 2, byte_id_b = 1, thread_id_b = 3} : memref<32x4xf32, #gpuir.rmem>, memref<32x16xf4E2M1FN, #gpuir.rmem>, memref<32x8xf6E3M2FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 4 : seq {
          %v = gpuir.read %d[%l, %i] : memref<32x4xf32, #gpuir.rmem>
          gpuir.write %v, %D[%l floordiv 4 + (%i floordiv 2) * 8, (%l mod 4) * 2 + %i mod 2] : memref<16x8xf32, #gpuir.gmem>
        }
      }
    }
  }
}
