// A GEMM on the CUDA cores: one thread per element of C, a sequential sum.
gpuir.proc @naive(%n: index, %A: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 64)>},
                  %B: memref<64x16xf32, #gpuir.gmem>,
                  %C: memref<?x16xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 16)>})
    attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(256) {
    gpuir.for %m = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 16 : cuda_threads<#gpuir.unit<16 x thread>> {
        gpuir.for %u = 0 to 16 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %k = 0 to 64 : seq {
            %a = gpuir.read %A[%m * 16 + %t, %k] : memref<?x64xf32, #gpuir.gmem>
            %b = gpuir.read %B[%k, %u] : memref<64x16xf32, #gpuir.gmem>
            %p = arith.mulf %a, %b : f32
            gpuir.reduce %p, %C[%m * 16 + %t, %u] : memref<?x16xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}
