// An 8-bit Sm90a wgmma kernel for the sequential-meaning tests
// (test/Conversion/GpuIRToCPU/sm90a-behaviors.mlir), the code-generation
// tests (test/Conversion/GpuIRToNVVM/sm90a.mlir, which derive the other
// 8-bit forms from it) and the GPU test (test/GPU/sm80.mlir).
//
// C = A Bt^T for one 64 x 64 tile with K = 128: A (64 x 128 e4m3) and Bt
// (64 x 128 e5m2, B transposed) copied by cp.async into 128-byte swizzled
// shared memory, rows of 128 bytes, made visible to the async proxy, and
// multiplied by four wgmma.m64n64k32.f32.e4m3.e5m2 on the 32-wide slices of
// K (their descriptors start 32 bytes apart within the swizzled rows).
gpuir.proc @wgmma_fp8(%A: memref<64x128xf8E4M3FN, #gpuir.gmem>, %Bt: memref<64x128xf8E5M2, #gpuir.gmem>, %C: memref<64x64xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %As = gpuir.alloc : memref<64x128xf8E4M3FN, #gpuir.smem_swizzled<128>>
      %Bs = gpuir.alloc : memref<64x128xf8E5M2, #gpuir.smem_swizzled<128>>
      %D = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %copies = gpuir.alloc : !gpuir.barrier<cp_async_group>
      %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
      // Chunk q = 128 c + t (16 bytes) is row q / 8, bytes 16 (q mod 8).
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          %sa = gpuir.window %As[(%c * 128 + %t) floordiv 8, ((%c * 128 + %t) mod 8) * 16 : ((%c * 128 + %t) mod 8) * 16 + 16] : memref<64x128xf8E4M3FN, #gpuir.smem_swizzled<128>> -> memref<16xf8E4M3FN, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>
          %ga = gpuir.window %A[(%c * 128 + %t) floordiv 8, ((%c * 128 + %t) mod 8) * 16 : ((%c * 128 + %t) mod 8) * 16 + 16] : memref<64x128xf8E4M3FN, #gpuir.gmem> -> memref<16xf8E4M3FN, strided<[1], offset: ?>, #gpuir.gmem>
          gpuir.sm80.cp_async %sa, %ga : memref<16xf8E4M3FN, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<16xf8E4M3FN, strided<[1], offset: ?>, #gpuir.gmem>
          %sb = gpuir.window %Bs[(%c * 128 + %t) floordiv 8, ((%c * 128 + %t) mod 8) * 16 : ((%c * 128 + %t) mod 8) * 16 + 16] : memref<64x128xf8E5M2, #gpuir.smem_swizzled<128>> -> memref<16xf8E5M2, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>
          %gb = gpuir.window %Bt[(%c * 128 + %t) floordiv 8, ((%c * 128 + %t) mod 8) * 16 : ((%c * 128 + %t) mod 8) * 16 + 16] : memref<64x128xf8E5M2, #gpuir.gmem> -> memref<16xf8E5M2, strided<[1], offset: ?>, #gpuir.gmem>
          gpuir.sm80.cp_async %sb, %gb : memref<16xf8E5M2, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<16xf8E5M2, strided<[1], offset: ?>, #gpuir.gmem>
        }
        gpuir.for %r = 0 to 32 : seq {
          %zero = arith.constant 0.0 : f32
          gpuir.write %zero, %D[%t, %r] : memref<128x32xf32, #gpuir.rmem>
        }
      }
      gpuir.arrive Sm80_cp_async >> %copies : !gpuir.barrier<cp_async_group>
      gpuir.await %copies, cuda_in_order, outstanding(0) : !gpuir.barrier<cp_async_group>
      gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
      gpuir.fence wgmma_fence_1 -> wgmma_fence_2
      gpuir.for %kk = 0 to 4 : seq {
        %a = gpuir.window %As[0 : 64, %kk * 32 : %kk * 32 + 32] : memref<64x128xf8E4M3FN, #gpuir.smem_swizzled<128>> -> memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
        %b = gpuir.window %Bs[0 : 64, %kk * 32 : %kk * 32 + 32] : memref<64x128xf8E5M2, #gpuir.smem_swizzled<128>> -> memref<64x32xf8E5M2, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
        gpuir.sm90a.wgmma %D, %a, %b : memref<128x32xf32, #gpuir.rmem>, memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<64x32xf8E5M2, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      }
      gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
      gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 8 : seq {
          gpuir.for %i = 0 to 4 : seq {
            %v = gpuir.read %D[%t, %j * 4 + %i] : memref<128x32xf32, #gpuir.rmem>
            gpuir.write %v, %C[0, 0] fragment(wgmma_d %t, %j, %i) : memref<64x64xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}
