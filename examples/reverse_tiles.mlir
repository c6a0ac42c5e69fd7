// Reverse every tile of 256 floats: each CTA copies its tile of A into shared
// memory, waits at a CTA-wide fence, and writes the tile back to B in
// reverse order. The seed paper's first example (section 2.1).
//
//   build/bin/rake-opt examples/reverse_tiles.mlir --rake-check
//
// The synchronization check interprets it for n = 1024 and n = 300, the
// sizes in gpuir.check_sizes. The kernel has no bounds guard: A and B must
// hold whole tiles (512 floats each for n = 300), as their gpuir.extents
// declare, and the check proves every access inside them. Its sequential meaning runs
// on the host with
//
//   build/bin/rake-run --seq examples/reverse_tiles.mlir --sizes=n=1024 --shape=A=1024,B=1024
//
// and stops with the location of the access if a buffer is too short.
gpuir.proc @reverse_tiles(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n ceildiv 256 * 256)>}, %B: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n ceildiv 256 * 256)>})
    attributes {gpuir.check_sizes = [{n = 1024}, {n = 300}]} {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n ceildiv 256 : cuda_tasks {
      %tile = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
        gpuir.write %v, %tile[%t] : memref<256xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tile[255 - %t] : memref<256xf32, #gpuir.smem>
        gpuir.write %v, %B[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
