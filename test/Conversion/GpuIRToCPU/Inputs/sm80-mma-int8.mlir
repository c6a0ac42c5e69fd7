// One Sm80 instruction kernel for the sequential-meaning tests
// (test/Conversion/GpuIRToCPU/sm80-behaviors.mlir), the code-generation
// tests (test/Conversion/GpuIRToNVVM/sm80.mlir) and the GPU test
// (test/GPU/sm80.mlir).
//
// D = C + A B for one m16n8k32 tile of 8-bit integers (s8; the tests derive
// the u8 forms by adding a_unsigned / b_unsigned), i32 accumulators,
// fragments read from global memory by the PTX ISA's layouts (A: row
// g + 8 ((i / 4) mod 2), column 4 t + i mod 4 + 16 (i / 8); B: row
// 4 t + i mod 4 + 16 (i / 4), column g; C and D: row g + 8 (i / 2), column
// 2 t + i mod 2).
gpuir.proc @mma_int8(%A: memref<16x32xi8, #gpuir.gmem>, %B: memref<32x8xi8, #gpuir.gmem>, %C: memref<16x8xi32, #gpuir.gmem>, %D: memref<16x8xi32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<32x16xi8, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x8xi8, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xi32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 16 : seq {
          %x = gpuir.read %A[%l floordiv 4 + ((%i floordiv 4) mod 2) * 8, (%l mod 4) * 4 + %i mod 4 + (%i floordiv 8) * 16] : memref<16x32xi8, #gpuir.gmem>
          gpuir.write %x, %a[%l, %i] : memref<32x16xi8, #gpuir.rmem>
        }
        gpuir.for %i = 0 to 8 : seq {
          %y = gpuir.read %B[(%l mod 4) * 4 + %i mod 4 + (%i floordiv 4) * 16, %l floordiv 4] : memref<32x8xi8, #gpuir.gmem>
          gpuir.write %y, %b[%l, %i] : memref<32x8xi8, #gpuir.rmem>
        }
        gpuir.for %i = 0 to 4 : seq {
          %c = gpuir.read %C[%l floordiv 4 + (%i floordiv 2) * 8, (%l mod 4) * 2 + %i mod 2] : memref<16x8xi32, #gpuir.gmem>
          gpuir.write %c, %d[%l, %i] : memref<32x4xi32, #gpuir.rmem>
        }
      }
      gpuir.sm80.mma_sync %d, %a, %b : memref<32x4xi32, #gpuir.rmem>, memref<32x16xi8, #gpuir.rmem>, memref<32x8xi8, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 4 : seq {
          %v = gpuir.read %d[%l, %i] : memref<32x4xi32, #gpuir.rmem>
          gpuir.write %v, %D[%l floordiv 4 + (%i floordiv 2) * 8, (%l mod 4) * 2 + %i mod 2] : memref<16x8xi32, #gpuir.gmem>
        }
      }
    }
  }
}
