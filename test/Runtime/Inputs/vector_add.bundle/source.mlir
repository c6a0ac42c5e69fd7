// C = A + B over n floats: one thread per element, 256 per CTA, the last
// tile guarded.
//
//   build/bin/rake-opt examples/vector_add.mlir --rake-check
//   build/bin/rake-run --seq examples/vector_add.mlir --sizes=n=1000 --shape=A=1000,B=1000,C=1000
//   build/bin/rake-translate --gpuir-to-ptx examples/vector_add.mlir
gpuir.proc @vector_add(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>}, %B: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>}, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>})
    attributes {gpuir.check_sizes = [{n = 4096}, {n = 1000}]} {
  gpuir.device_function blocks_per_sm(8) block(256) {
    gpuir.for %task = 0 to %n ceildiv 256 : cuda_tasks {
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.if %task * 256 + %t < %n {
          %a = gpuir.read %A[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
          %b = gpuir.read %B[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
          %c = arith.addf %a, %b : f32
          gpuir.write %c, %C[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}
