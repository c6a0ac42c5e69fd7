// The floating-point rules of the profiles, element by element, for the
// CPU-reference test (test/Conversion/GpuIRToCPU/fp-edges.mlir) and the GPU
// test (test/GPU/sm80.mlir): P = x * y + w as written (two roundings, no
// contraction into an FMA), Q = x / y and R = sqrt(x) correctly rounded,
// S = x - y, each rounded to nearest even with subnormals kept.
gpuir.proc @fp_edges(%n: index, %X: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>}, %Y: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>}, %W: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>}, %P: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>}, %Q: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>}, %R: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>}, %S: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>})
    attributes {gpuir.check_sizes = [{n = 300}, {n = 129}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n ceildiv 128 : cuda_tasks {
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.if %task * 128 + %t < %n {
          %x = gpuir.read %X[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
          %y = gpuir.read %Y[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
          %w = gpuir.read %W[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
          %xy = arith.mulf %x, %y : f32
          %p = arith.addf %xy, %w : f32
          gpuir.write %p, %P[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
          %q = arith.divf %x, %y : f32
          gpuir.write %q, %Q[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
          %r = math.sqrt %x : f32
          gpuir.write %r, %R[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
          %s = arith.subf %x, %y : f32
          gpuir.write %s, %S[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}
