// The payload of schedule-layouts.mlir: X reversed in blocks of 64 through a
// staging buffer.
gpuir.proc @layouts(%n: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n * 64)>}) {
  gpuir.for %k = 0 to %n : seq {
    %t = gpuir.alloc : memref<64xf32, #gpuir.host>
    gpuir.for %e = 0 to 64 : seq {
      %v = gpuir.read %X[%k * 64 + %e] : memref<?xf32, #gpuir.host>
      gpuir.write %v, %t[%e] : memref<64xf32, #gpuir.host>
    }
    gpuir.for %f = 0 to 64 : seq {
      %w = gpuir.read %t[63 - %f] : memref<64xf32, #gpuir.host>
      gpuir.write %w, %X[%k * 64 + %f] : memref<?xf32, #gpuir.host>
    }
  }
}
