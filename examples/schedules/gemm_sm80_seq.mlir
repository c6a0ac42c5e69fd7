// C = A * B in bf16 with f32 accumulation, as the sequential program the
// Sm80 GEMM schedule starts from: three loops, a zero and a sum.
// gemm_sm80.schedule.mlir rewrites it into the kernel of
// examples/gemm_sm80.mlir (128 x 128 tiles, 32-wide slices of K
// double-buffered by cp.async, ldmatrix fragments, mma.sync);
// docs/Scheduling.md walks through the steps.
//
//   build/bin/rake-opt examples/schedules/gemm_sm80_seq.mlir \
//     --transform-preload-library=transform-library-paths=examples/schedules/gemm_sm80.schedule.mlir \
//     --transform-interpreter --rake-check
gpuir.proc @gemm_sm80(%Mt: index, %Nt: index, %Kt: index,
                      %A: memref<?x?xbf16, #gpuir.host> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Mt * 128, Kt * 32)>},
                      %B: memref<?x?xbf16, #gpuir.host> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Kt * 32, Nt * 128)>},
                      %C: memref<?x?xf32, #gpuir.host> {gpuir.extents = affine_map<(Mt, Nt, Kt) -> (Mt * 128, Nt * 128)>})
    attributes {gpuir.check_sizes = [{Mt = 2, Nt = 2, Kt = 3}, {Mt = 1, Nt = 1, Kt = 1}]} {
  gpuir.for %i = 0 to %Mt * 128 : seq {
    gpuir.for %j = 0 to %Nt * 128 : seq {
      %zero = arith.constant 0.0 : f32
      gpuir.write %zero, %C[%i, %j] : memref<?x?xf32, #gpuir.host>
      gpuir.for %k = 0 to %Kt * 32 : seq {
        %a = gpuir.read %A[%i, %k] : memref<?x?xbf16, #gpuir.host>
        %b = gpuir.read %B[%k, %j] : memref<?x?xbf16, #gpuir.host>
        %ae = arith.extf %a : bf16 to f32
        %be = arith.extf %b : bf16 to f32
        %p = arith.mulf %ae, %be : f32
        gpuir.reduce %p, %C[%i, %j] : memref<?x?xf32, #gpuir.host>
      }
    }
  }
}
