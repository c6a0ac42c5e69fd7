// One Sm80 instruction kernel for the sequential-meaning tests
// (test/Conversion/GpuIRToCPU/sm80-behaviors.mlir) and the GPU tests
// (test/GPU/sm80.mlir, which compare the sequential meaning with the
// hardware on random inputs).
//
// D = A B for one m16n8k16 tile of f16: A (16 x 16) and B (16 x 8, k-major)
// staged in shared memory by cp.async (16 and 8 bytes), loaded with
// ldmatrix .x4 and .x2.trans; D written from its fragment by the PTX ISA's
// layout, restated here.
gpuir.proc @mma_f16(%A: memref<16x16xf16, #gpuir.gmem>, %B: memref<16x8xf16, #gpuir.gmem>, %D: memref<16x8xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %As = gpuir.alloc : memref<16x16xf16, #gpuir.smem>
      %Bs = gpuir.alloc : memref<16x8xf16, #gpuir.smem>
      %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %as = gpuir.window %As[%l floordiv 2, (%l mod 2) * 8 : (%l mod 2) * 8 + 8] : memref<16x16xf16, #gpuir.smem> -> memref<8xf16, strided<[1], offset: ?>, #gpuir.smem>
        %ag = gpuir.window %A[%l floordiv 2, (%l mod 2) * 8 : (%l mod 2) * 8 + 8] : memref<16x16xf16, #gpuir.gmem> -> memref<8xf16, strided<[1], offset: ?>, #gpuir.gmem>
        gpuir.sm80.cp_async %as, %ag : memref<8xf16, strided<[1], offset: ?>, #gpuir.smem>, memref<8xf16, strided<[1], offset: ?>, #gpuir.gmem>
        %bs = gpuir.window %Bs[%l floordiv 2, (%l mod 2) * 4 : (%l mod 2) * 4 + 4] : memref<16x8xf16, #gpuir.smem> -> memref<4xf16, strided<[1], offset: ?>, #gpuir.smem>
        %bg = gpuir.window %B[%l floordiv 2, (%l mod 2) * 4 : (%l mod 2) * 4 + 4] : memref<16x8xf16, #gpuir.gmem> -> memref<4xf16, strided<[1], offset: ?>, #gpuir.gmem>
        gpuir.sm80.cp_async %bs, %bg : memref<4xf16, strided<[1], offset: ?>, #gpuir.smem>, memref<4xf16, strided<[1], offset: ?>, #gpuir.gmem>
      }
      gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
      gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<cp_async_group>
      gpuir.fence cuda_in_order -> cuda_in_order
      %a = gpuir.alloc : memref<32x8xf16, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x4xf16, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      gpuir.sm80.ldmatrix %a, %As : memref<32x8xf16, #gpuir.rmem>, memref<16x16xf16, #gpuir.smem>
      gpuir.sm80.ldmatrix %b, %Bs trans : memref<32x4xf16, #gpuir.rmem>, memref<16x8xf16, #gpuir.smem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 4 : seq {
          %zero = arith.constant 0.0 : f32
          gpuir.write %zero, %d[%l, %i] : memref<32x4xf32, #gpuir.rmem>
        }
      }
      gpuir.sm80.mma_sync %d, %a, %b : memref<32x4xf32, #gpuir.rmem>, memref<32x8xf16, #gpuir.rmem>, memref<32x4xf16, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 4 : seq {
          %v = gpuir.read %d[%l, %i] : memref<32x4xf32, #gpuir.rmem>
          gpuir.write %v, %D[%l floordiv 4 + (%i floordiv 2) * 8, (%l mod 4) * 2 + %i mod 2] : memref<16x8xf32, #gpuir.gmem>
        }
      }
    }
  }
}
