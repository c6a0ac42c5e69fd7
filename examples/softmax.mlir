// Softmax of the rows of X (1024 floats each), one row per CTA of 256
// threads: Y[r, j] = e^(X[r, j] - m) / sum_k e^(X[r, k] - m), m the row's
// maximum. Three rounds, each ending with a CTA fence and one thread
// combining the 256 threads' partial results in shared memory: the maximum
// (arith.maximumf), then the sum of the exponentials, then every thread
// divides its 4 exponentials by the sum. math.exp is Rake's exp (within
// 2 ulp of e^x, from correctly rounded operations: docs/GpuIR.md, "Math");
// with the correctly rounded division and additions in the same order, the
// GPU computes the same bits as the sequential meaning.
//
//   build/bin/rake-opt examples/softmax.mlir --rake-check
//   build/bin/rake-run --seq examples/softmax.mlir --sizes=rows=4 --print=Y
//   build/bin/rake-translate --gpuir-to-ptx examples/softmax.mlir
gpuir.proc @softmax(%rows: index, %X: memref<?x1024xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 1024)>}, %Y: memref<?x1024xf32, #gpuir.gmem> {gpuir.extents = affine_map<(rows) -> (rows, 1024)>})
    attributes {gpuir.check_sizes = [{rows = 3}, {rows = 1}]} {
  gpuir.device_function blocks_per_sm(4) block(256) {
    gpuir.for %r = 0 to %rows : cuda_tasks {
      %parts = gpuir.alloc : memref<256xf32, #gpuir.smem>
      %shared = gpuir.alloc : memref<2xf32, #gpuir.smem>
      // Each thread's maximum of its 4 values, then the row's.
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %acc = gpuir.alloc : memref<1xf32, #gpuir.rmem>
        %first = gpuir.read %X[%r, %t] : memref<?x1024xf32, #gpuir.gmem>
        gpuir.write %first, %acc[0] : memref<1xf32, #gpuir.rmem>
        gpuir.for %i = 1 to 4 : seq {
          %x = gpuir.read %X[%r, %i * 256 + %t] : memref<?x1024xf32, #gpuir.gmem>
          %a = gpuir.read %acc[0] : memref<1xf32, #gpuir.rmem>
          %m = arith.maximumf %a, %x : f32
          gpuir.write %m, %acc[0] : memref<1xf32, #gpuir.rmem>
        }
        %p = gpuir.read %acc[0] : memref<1xf32, #gpuir.rmem>
        gpuir.write %p, %parts[%t] : memref<256xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %acc = gpuir.alloc : memref<1xf32, #gpuir.rmem>
        %first = gpuir.read %parts[0] : memref<256xf32, #gpuir.smem>
        gpuir.write %first, %acc[0] : memref<1xf32, #gpuir.rmem>
        gpuir.for %j = 1 to 256 : seq {
          %v = gpuir.read %parts[%j] : memref<256xf32, #gpuir.smem>
          %a = gpuir.read %acc[0] : memref<1xf32, #gpuir.rmem>
          %m = arith.maximumf %a, %v : f32
          gpuir.write %m, %acc[0] : memref<1xf32, #gpuir.rmem>
        }
        %max = gpuir.read %acc[0] : memref<1xf32, #gpuir.rmem>
        gpuir.write %max, %shared[0] : memref<2xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      // Each thread's sum of its 4 exponentials, then the row's.
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %acc = gpuir.alloc : memref<1xf32, #gpuir.rmem>
        %zero = arith.constant 0.0 : f32
        gpuir.write %zero, %acc[0] : memref<1xf32, #gpuir.rmem>
        gpuir.for %i = 0 to 4 : seq {
          %max = gpuir.read %shared[0] : memref<2xf32, #gpuir.smem>
          %x = gpuir.read %X[%r, %i * 256 + %t] : memref<?x1024xf32, #gpuir.gmem>
          %d = arith.subf %x, %max : f32
          %e = math.exp %d : f32
          gpuir.reduce %e, %acc[0] : memref<1xf32, #gpuir.rmem>
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
        gpuir.write %sum, %shared[1] : memref<2xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 4 : seq {
          %max = gpuir.read %shared[0] : memref<2xf32, #gpuir.smem>
          %sum = gpuir.read %shared[1] : memref<2xf32, #gpuir.smem>
          %x = gpuir.read %X[%r, %i * 256 + %t] : memref<?x1024xf32, #gpuir.gmem>
          %d = arith.subf %x, %max : f32
          %e = math.exp %d : f32
          %y = arith.divf %e, %sum : f32
          gpuir.write %y, %Y[%r, %i * 256 + %t] : memref<?x1024xf32, #gpuir.gmem>
        }
      }
    }
  }
}
