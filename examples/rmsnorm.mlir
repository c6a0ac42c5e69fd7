// RMSNorm of the rows of X (1024 floats each) with weights W, one row per
// CTA of 256 threads: Y[r, j] = X[r, j] / sqrt(mean_j X[r, j]^2 + 1e-6) *
// W[j]. Each thread squares and adds up 4 values of the row and stages its
// partial sum in shared memory; after a CTA fence one thread adds the 256
// partial sums in order, takes the correctly rounded square root
// (sqrt.rn.f32) and its reciprocal (div.rn.f32), and stages the scale;
// after another fence every thread scales its 4 values. Every operation is
// correctly rounded and happens in the same order on the GPU as in the
// sequential meaning: the results are the same bits.
//
//   build/bin/rake-opt examples/rmsnorm.mlir --rake-check
//   build/bin/rake-run --seq examples/rmsnorm.mlir --sizes=rows=4 --print=Y
//   build/bin/rake-translate --gpuir-to-ptx examples/rmsnorm.mlir
gpuir.proc @rmsnorm(%rows: index, %X: memref<?x1024xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 1024)>}, %W: memref<1024xf32, #gpuir.gmem>, %Y: memref<?x1024xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 1024)>})
    attributes {gpuir.check_sizes = [{rows = 3}, {rows = 1}]} {
  gpuir.device_function blocks_per_sm(4) block(256) {
    gpuir.for %r = 0 to %rows : cuda_tasks {
      %parts = gpuir.alloc : memref<256xf32, #gpuir.smem>
      %scale = gpuir.alloc : memref<1xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %acc = gpuir.alloc : memref<1xf32, #gpuir.rmem>
        %zero = arith.constant 0.0 : f32
        gpuir.write %zero, %acc[0] : memref<1xf32, #gpuir.rmem>
        gpuir.for %i = 0 to 4 : seq {
          %x = gpuir.read %X[%r, %i * 256 + %t] : memref<?x1024xf32, #gpuir.gmem>
          %sq = arith.mulf %x, %x : f32
          gpuir.reduce %sq, %acc[0] : memref<1xf32, #gpuir.rmem>
        }
        %p = gpuir.read %acc[0] : memref<1xf32, #gpuir.rmem>
        gpuir.write %p, %parts[%t] : memref<256xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %acc = gpuir.alloc : memref<1xf32, #gpuir.rmem>
        %zero = arith.constant 0.0 : f32
        gpuir.write %zero, %acc[0] : memref<1xf32, #gpuir.rmem>
        gpuir.for %j = 0 to 256 : seq {
          %v = gpuir.read %parts[%j] : memref<256xf32, #gpuir.smem>
          gpuir.reduce %v, %acc[0] : memref<1xf32, #gpuir.rmem>
        }
        %sum = gpuir.read %acc[0] : memref<1xf32, #gpuir.rmem>
        %n = arith.constant 1024.0 : f32
        %eps = arith.constant 1.0e-6 : f32
        %one = arith.constant 1.0 : f32
        %mean = arith.divf %sum, %n : f32
        %me = arith.addf %mean, %eps : f32
        %rms = math.sqrt %me : f32
        %inv = arith.divf %one, %rms : f32
        gpuir.write %inv, %scale[0] : memref<1xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 4 : seq {
          %inv = gpuir.read %scale[0] : memref<1xf32, #gpuir.smem>
          %x = gpuir.read %X[%r, %i * 256 + %t] : memref<?x1024xf32, #gpuir.gmem>
          %w = gpuir.read %W[%i * 256 + %t] : memref<1024xf32, #gpuir.gmem>
          %xs = arith.mulf %x, %inv : f32
          %y = arith.mulf %xs, %w : f32
          gpuir.write %y, %Y[%r, %i * 256 + %t] : memref<?x1024xf32, #gpuir.gmem>
        }
      }
    }
  }
}
