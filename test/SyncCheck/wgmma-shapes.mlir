// wgmma instructions of different shapes on the same accumulators need a
// wgmma.fence between them: the PTX ISA orders accumulator accesses across
// wgmma instructions by default only when they have the same shape. Here an
// m64n32k16 wgmma accumulates into half of the registers an m64n64k16 one
// just wrote, with no fence between them: the check accepted it (found by
// an adversarial review) and the PTX had no wgmma.fence there. Same-shape
// chains (every GEMM's k loop) need none. With the fence the kernel passes.
// RUN: not rake-opt %s --rake-check 2>&1 | FileCheck %s
// CHECK: wgmma-shapes.mlir:[[@LINE+44]]:7: error: RAW hazard: threads 0..127 of task 0 read D[0:128, 0:16] on wgmma_async_rmem_d, written by threads 0..127 of task 0 on wgmma_async_rmem_d without synchronization that orders it before
// CHECK: wgmma-shapes.mlir:[[@LINE+39]]:7: note: the earlier wgmma is m64n64k16, this one m64n32k16: the PTX ISA orders accumulator accesses only between wgmma instructions of one shape; write gpuir.fence wgmma_fence_1 -> wgmma_fence_2 (wgmma.fence) between them
// RUN: sed 's/^\( *\)%%b2 = /\1gpuir.fence wgmma_fence_1 -> wgmma_fence_2\n&/' %s > %t.mlir
// RUN: rake-opt %t.mlir --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %t.mlir | FileCheck %s --check-prefix=FENCED
// FENCED: wgmma.fence.sync.aligned;
// FENCED: wgmma.mma_async.sync.aligned.m64n64k16
// FENCED: wgmma.fence.sync.aligned;
// FENCED: wgmma.mma_async.sync.aligned.m64n32k16
gpuir.proc @shapes(%A: memref<64x64xbf16, #gpuir.gmem>, %Bt: memref<64x64xbf16, #gpuir.gmem>, %C: memref<64x64xf32, #gpuir.gmem>) {
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
      gpuir.fence wgmma_fence_1 -> wgmma_fence_2
      %a = gpuir.window %As[0 : 64, 0 : 16] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %b = gpuir.window %Bs[0 : 64, 0 : 16] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      gpuir.sm90a.wgmma %D, %a, %b : memref<128x32xf32, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %b2 = gpuir.window %Bs[0 : 32, 16 : 32] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<32x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %a2 = gpuir.window %As[0 : 64, 16 : 32] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %d2 = gpuir.window %D[0 : 128, 0 : 16] : memref<128x32xf32, #gpuir.rmem> -> memref<128x16xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>
      gpuir.sm90a.wgmma %d2, %a2, %b2 : memref<128x16xf32, strided<[32, 1], offset: ?>, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<32x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
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
