// Y = transpose(X), as the sequential program a schedule starts from: two
// loops and a copy, on host buffers. transpose.schedule.mlir rewrites it,
// step by step, into examples/transpose.mlir (a CTA per 32x32 tile, staged
// through shared memory); docs/Scheduling.md walks through the steps.
//
//   build/bin/rake-opt examples/schedules/transpose_seq.mlir \
//     --transform-preload-library=transform-library-paths=examples/schedules/transpose.schedule.mlir \
//     --transform-interpreter --rake-check
gpuir.proc @transpose(%R: index, %C: index, %X: memref<?x?xf32, #gpuir.host> {gpuir.extents = affine_map<(R, C) -> (R, C)>}, %Y: memref<?x?xf32, #gpuir.host> {gpuir.extents = affine_map<(R, C) -> (C, R)>})
    attributes {gpuir.check_sizes = [{R = 64, C = 96}, {R = 70, C = 40}]} {
  gpuir.for %i = 0 to %R : seq {
    gpuir.for %j = 0 to %C : seq {
      %v = gpuir.read %X[%i, %j] : memref<?x?xf32, #gpuir.host>
      gpuir.write %v, %Y[%j, %i] : memref<?x?xf32, #gpuir.host>
    }
  }
}
