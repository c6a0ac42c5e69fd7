// cp.async with fill(n): the source size is clamped to [0, 4] elements. A
// negative n (the sequential meaning zero-fills all four) was passed as a
// huge unsigned src-size, past cp-size, which the PTX ISA leaves undefined
// (found by an adversarial review). Here n is the parameter %n.
// RUN: rake-opt %s --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s
// CHECK: max.s64 [[MAX:%rd[0-9]+]], {{%rd[0-9]+}}, 0;
// CHECK-NEXT: min.s64 [[MIN:%rd[0-9]+]], [[MAX]], 4;
// CHECK: cvt.u32.u64 [[N:%r[0-9]+]], [[MIN]];
// CHECK-NEXT: shl.b32 [[BYTES:%r[0-9]+]], [[N]], 2;
// CHECK: cp.async.cg.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 16, [[BYTES]];
gpuir.proc @fillneg(%n: index, %X: memref<?x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (4, 128)>}, %Y: memref<?x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (4, 128)>})
    attributes {gpuir.check_sizes = [{n = 5}]} {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 4 : cuda_tasks {
      %s = gpuir.alloc : memref<128xf32, #gpuir.smem>
      %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %d = gpuir.window %s[%t * 4 : %t * 4 + 4] : memref<128xf32, #gpuir.smem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.smem>
        %g = gpuir.window %X[%task, %t * 4 : %t * 4 + 4] : memref<?x128xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
        gpuir.sm80.cp_async %d, %g fill(%n) : memref<4xf32, strided<[1], offset: ?>, #gpuir.smem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
      }
      gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
      gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<cp_async_group>
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 4 : seq {
          %v = gpuir.read %s[%t * 4 + %i] : memref<128xf32, #gpuir.smem>
          gpuir.write %v, %Y[%task, %t * 4 + %i] : memref<?x128xf32, #gpuir.gmem>
        }
      }
    }
  }
}
