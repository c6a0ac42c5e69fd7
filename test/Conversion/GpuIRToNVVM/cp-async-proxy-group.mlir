// One thread cp.asyncs a tile, commits, waits for its group for
// tma_to_smem_async, then overwrites the tile by TMA (async proxy). The
// wait_group alone leaves the generic-proxy writes unordered with the TMA
// copy: each awaiting thread fences after it (found by an adversarial
// review: the check accepted it with no proxy fence on the path).
// RUN: rake-opt %s --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s
// CHECK: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 0;
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK: cp.async.bulk.tensor
gpuir.proc @cg_tma_waw(%n: index,
    %X: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 64)>},
    %A: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 64)>},
    %B: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 64)>})
    attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %tile = gpuir.alloc : memref<64x64xf32, #gpuir.smem>
      %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %p = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 1024 : seq {
          %s = gpuir.window %tile[%c floordiv 16, (%c mod 16) * 4 : (%c mod 16) * 4 + 4] : memref<64x64xf32, #gpuir.smem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.smem>
          %g = gpuir.window %X[%task * 64 + %c floordiv 16, (%c mod 16) * 4 : (%c mod 16) * 4 + 4] : memref<?x64xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
          gpuir.sm80.cp_async %s, %g : memref<4xf32, strided<[1], offset: ?>, #gpuir.smem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
        }
        gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
        gpuir.await %cg, tma_to_smem_async, outstanding(0) : !gpuir.barrier<cp_async_group>
        %g = gpuir.window %A[%task * 64 : %task * 64 + 64, 0 : 64] : memref<?x64xf32, #gpuir.gmem> -> memref<64x64xf32, strided<[64, 1], offset: ?>, #gpuir.gmem>
        gpuir.sm90a.tma_load %tile, %g >> %full : memref<64x64xf32, #gpuir.smem>, memref<64x64xf32, strided<[64, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
      gpuir.await %full, cuda_in_order : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 32 : seq {
          %v = gpuir.read %tile[%t floordiv 2, (%t mod 2) * 32 + %j] : memref<64x64xf32, #gpuir.smem>
          gpuir.write %v, %B[%task * 64 + %t floordiv 2, (%t mod 2) * 32 + %j] : memref<?x64xf32, #gpuir.gmem>
        }
      }
    }
  }
}
