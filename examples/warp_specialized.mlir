// Warp specialization: each CTA has a producer warpgroup, which gives up
// registers (setmaxnreg.dec 40) and stages a row of X in shared memory with
// cp.async, and a consumer warpgroup, which takes them (setmaxnreg.inc 232)
// and computes Y[r, j] = X[r, j] * X[r, 1023 - j] from the staged row. The
// producer waits for its own copies (cp.async.wait_group), then the CTA
// meets at a fence, after which the consumers may read every copy.
// Code generation emits one path per warp group, each with its setmaxnreg
// and without the other group's regions.
//
//   build/bin/rake-opt examples/warp_specialized.mlir --rake-check
//   build/bin/rake-run --seq examples/warp_specialized.mlir --shape=X=4,Y=4
//   build/bin/rake-translate --gpuir-to-ptx examples/warp_specialized.mlir
gpuir.proc @warp_specialized(%rows: index, %X: memref<?x1024xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 1024)>}, %Y: memref<?x1024xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 1024)>})
    attributes {gpuir.check_sizes = [{rows = 3}]} {
  gpuir.device_function blocks_per_sm(1) warps(producer = 4 dec(40), consumer = 4 inc(232)) {
    gpuir.for %r = 0 to %rows : cuda_tasks {
      %s = gpuir.alloc : memref<1024xf32, #gpuir.smem>
      %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
      gpuir.warps "producer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %c = 0 to 2 : seq {
            %d = gpuir.window %s[(%c * 128 + %t) * 4 : (%c * 128 + %t) * 4 + 4] : memref<1024xf32, #gpuir.smem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.smem>
            %g = gpuir.window %X[%r, (%c * 128 + %t) * 4 : (%c * 128 + %t) * 4 + 4] : memref<?x1024xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
            gpuir.sm80.cp_async %d, %g : memref<4xf32, strided<[1], offset: ?>, #gpuir.smem>, memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
          }
        }
        gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
        gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<cp_async_group>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.warps "consumer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %i = 0 to 8 : seq {
            %a = gpuir.read %s[%i * 128 + %t] : memref<1024xf32, #gpuir.smem>
            %b = gpuir.read %s[1023 - %i * 128 - %t] : memref<1024xf32, #gpuir.smem>
            %p = arith.mulf %a, %b : f32
            gpuir.write %p, %Y[%r, %i * 128 + %t] : memref<?x1024xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}
