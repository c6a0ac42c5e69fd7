// One Sm80 instruction kernel for the sequential-meaning tests
// (test/Conversion/GpuIRToCPU/sm80-behaviors.mlir) and the GPU tests
// (test/GPU/sm80.mlir, which compare the sequential meaning with the
// hardware on random inputs).
//
// D = C + A B for one m16n8k8 tile of tf32, fragments read from global
// memory by the PTX ISA's layouts (A: row g + 8 (i mod 2), column t + 4 (i / 2);
// B: row t + 4 i, column g; C and D: row g + 8 (i / 2), column 2 t + i mod 2).
gpuir.proc @mma_tf32(%A: memref<16x8xf32, #gpuir.gmem>, %B: memref<8x8xf32, #gpuir.gmem>, %C: memref<16x8xf32, #gpuir.gmem>, %D: memref<16x8xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x2xf32, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 4 : seq {
          %x = gpuir.read %A[%l floordiv 4 + (%i mod 2) * 8, %l mod 4 + (%i floordiv 2) * 4] : memref<16x8xf32, #gpuir.gmem>
          gpuir.write %x, %a[%l, %i] : memref<32x4xf32, #gpuir.rmem>
          %c = gpuir.read %C[%l floordiv 4 + (%i floordiv 2) * 8, (%l mod 4) * 2 + %i mod 2] : memref<16x8xf32, #gpuir.gmem>
          gpuir.write %c, %d[%l, %i] : memref<32x4xf32, #gpuir.rmem>
        }
        gpuir.for %i = 0 to 2 : seq {
          %y = gpuir.read %B[%l mod 4 + %i * 4, %l floordiv 4] : memref<8x8xf32, #gpuir.gmem>
          gpuir.write %y, %b[%l, %i] : memref<32x2xf32, #gpuir.rmem>
        }
      }
      gpuir.sm80.mma_sync %d, %a, %b : memref<32x4xf32, #gpuir.rmem>, memref<32x4xf32, #gpuir.rmem>, memref<32x2xf32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 4 : seq {
          %v = gpuir.read %d[%l, %i] : memref<32x4xf32, #gpuir.rmem>
          gpuir.write %v, %D[%l floordiv 4 + (%i floordiv 2) * 8, (%l mod 4) * 2 + %i mod 2] : memref<16x8xf32, #gpuir.gmem>
        }
      }
    }
  }
}
