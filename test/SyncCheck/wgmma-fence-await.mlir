// Only wgmma.fence makes register accesses visible to a wgmma's register
// operands: the PTX ISA requires it between them, and code generation
// lowers an mbarrier await with none. Here the accumulator is zeroed by
// plain register writes and handed to wgmma through an arrive and an await
// for wgmma_async: the check accepted it, and the PTX had no wgmma.fence
// before the wgmma (found by an adversarial review). The same kernel with
// `fence wgmma_fence_1 -> wgmma_fence_2` after the await passes.
// RUN: not rake-opt %s --rake-check 2>&1 | FileCheck %s
// CHECK: wgmma-fence-await.mlir:[[@LINE+37]]:7: error: RAW hazard: threads 0..127 of task 0 read D[0:128, 0:32] on wgmma_async_rmem_d, written by thread 0 of task 0 on cuda_in_order_rmem without synchronization that orders it before
// RUN: sed 's/^\( *\)gpuir.await %%bar\[0\], wgmma_async : !gpuir.barrier<mbarrier \[1\]>$/&\n\1gpuir.fence wgmma_fence_1 -> wgmma_fence_2/' %s > %t.mlir
// RUN: rake-opt %t.mlir --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %t.mlir | FileCheck %s --check-prefix=FENCED
// FENCED: mbarrier.try_wait.parity
// FENCED: wgmma.fence.sync.aligned;
// FENCED: wgmma.mma_async
gpuir.proc @w5(%A: memref<64x64xbf16, #gpuir.gmem>, %Bt: memref<64x64xbf16, #gpuir.gmem>, %C: memref<64x64xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %As = gpuir.alloc : memref<64x64xbf16, #gpuir.smem_swizzled<128>>
      %Bs = gpuir.alloc : memref<64x64xbf16, #gpuir.smem_swizzled<128>>
      %D = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %copies = gpuir.alloc : !gpuir.barrier<cp_async_group>
      %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [1]>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          %sa = gpuir.window %As[(%c * 128 + %t) floordiv 8, ((%c * 128 + %t) mod 8) * 8 : ((%c * 128 + %t) mod 8) * 8 + 8] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>
          %ga = gpuir.window %A[(%c * 128 + %t) floordiv 8, ((%c * 128 + %t) mod 8) * 8 : ((%c * 128 + %t) mod 8) * 8 + 8] : memref<64x64xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
          gpuir.sm80.cp_async %sa, %ga : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
          %sb = gpuir.window %Bs[(%c * 128 + %t) floordiv 8, ((%c * 128 + %t) mod 8) * 8 : ((%c * 128 + %t) mod 8) * 8 + 8] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>
          %gb = gpuir.window %Bt[(%c * 128 + %t) floordiv 8, ((%c * 128 + %t) mod 8) * 8 : ((%c * 128 + %t) mod 8) * 8 + 8] : memref<64x64xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
          gpuir.sm80.cp_async %sb, %gb : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
        }
        gpuir.for %r = 0 to 32 : seq {
          %zero = arith.constant 0.0 : f32
          gpuir.write %zero, %D[%t, %r] : memref<128x32xf32, #gpuir.rmem>
        }
      }
      gpuir.arrive Sm80_cp_async >> %copies : !gpuir.barrier<cp_async_group>
      gpuir.await %copies, cuda_in_order, outstanding(0) : !gpuir.barrier<cp_async_group>
      gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
      gpuir.arrive cuda_in_order >> %bar[0] : !gpuir.barrier<mbarrier [1]>
      gpuir.await %bar[0], wgmma_async : !gpuir.barrier<mbarrier [1]>
      %a = gpuir.window %As[0 : 64, 0 : 16] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %b = gpuir.window %Bs[0 : 64, 0 : 16] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      gpuir.sm90a.wgmma %D, %a, %b : memref<128x32xf32, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
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
