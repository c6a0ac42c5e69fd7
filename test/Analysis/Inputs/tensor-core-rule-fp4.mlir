// A GEMM of f4E2M1FN inputs on the CUDA cores (test/Analysis/
// tensor-core-rule.mlir): the sm_120a profile has tensor-core instructions
// for the format (kind::mxf8f6f4, mxf4nvf4), the sm_90a profile none.
gpuir.proc @fp4(%n: index, %A: memref<?x64xf4E2M1FN, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 64)>},
                %B: memref<64x16xf4E2M1FN, #gpuir.gmem>,
                %C: memref<?x16xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 16, 16)>}) {
  gpuir.device_function block(256) {
    gpuir.for %m = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 16 : cuda_threads<#gpuir.unit<16 x thread>> {
        gpuir.for %u = 0 to 16 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %k = 0 to 64 : seq {
            %a = gpuir.read %A[%m * 16 + %t, %k] : memref<?x64xf4E2M1FN, #gpuir.gmem>
            %b = gpuir.read %B[%k, %u] : memref<64x16xf4E2M1FN, #gpuir.gmem>
            %x = arith.extf %a : f4E2M1FN to f32
            %y = arith.extf %b : f4E2M1FN to f32
            %p = arith.mulf %x, %y : f32
            gpuir.reduce %p, %C[%m * 16 + %t, %u] : memref<?x16xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}
