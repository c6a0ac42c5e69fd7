// C = A * B^T in bf16 with f32 accumulation, as the sequential program the
// TMA GEMM schedule starts from: three loops, a zero and a sum.
// gemm_sm90a_tma.schedule.mlir rewrites it into the kernel of
// examples/gemm_sm90a_tma.mlir (256 x 128 tiles, a 4-stage TMA ring,
// four warpgroups of wgmma); docs/Scheduling.md walks through the steps.
//
//   build/bin/rake-opt examples/schedules/gemm_sm90a_tma_seq.mlir \
//     --transform-preload-library=transform-library-paths=examples/schedules/gemm_sm90a_tma.schedule.mlir \
//     --transform-interpreter --rake-check
gpuir.proc @gemm_sm90a_tma(%Mt: index, %Nt: index, %Kt: index,
                       %A: memref<?x?xbf16, #gpuir.host> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Mt * 256, Kt * 64)>},
                       %Bt: memref<?x?xbf16, #gpuir.host> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Nt * 128, Kt * 64)>},
                       %C: memref<?x?xf32, #gpuir.host> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Mt * 256, Nt * 128)>})
    attributes {gpuir.check_sizes = [{Mt = 2, Nt = 1, Kt = 7}, {Mt = 1, Nt = 1, Kt = 1}]} {
  gpuir.for %i = 0 to %Mt * 256 : seq {
    gpuir.for %j = 0 to %Nt * 128 : seq {
      %zero = arith.constant 0.0 : f32
      gpuir.write %zero, %C[%i, %j] : memref<?x?xf32, #gpuir.host>
      gpuir.for %k = 0 to %Kt * 64 : seq {
        %a = gpuir.read %A[%i, %k] : memref<?x?xbf16, #gpuir.host>
        %b = gpuir.read %Bt[%j, %k] : memref<?x?xbf16, #gpuir.host>
        %ae = arith.extf %a : bf16 to f32
        %be = arith.extf %b : bf16 to f32
        %p = arith.mulf %ae, %be : f32
        gpuir.reduce %p, %C[%i, %j] : memref<?x?xf32, #gpuir.host>
      }
    }
  }
}
