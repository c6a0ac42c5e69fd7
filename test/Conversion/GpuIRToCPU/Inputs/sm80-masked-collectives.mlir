// Warp collectives over partial warps (`active(%t - 1)`: lanes 0 to n - 1 are
// data lanes, the others padding lanes that stay in the collective and
// supply the neutral operand): task t runs warp_sum, warp_scan and ballot
// with n = t - 1 for t = 0 .. 34, so n runs from -1 (no data lane) through
// 0 (empty data), partial warps and 32 (a full warp) to 33. The padding
// lanes of X hold NaN and -1 (sm80_masked.py): a result that took a padding
// lane's value shows it. Row t of S is each lane's sum, of P its prefix
// sum, of B its ballot (used by test/Conversion/GpuIRToCPU/masked-collectives.mlir
// and test/GPU/sm80.mlir).
gpuir.proc @masked_collectives(%X: memref<34x32xf32, #gpuir.gmem>, %V: memref<34x32xi32, #gpuir.gmem>,
    %S: memref<34x32xf32, #gpuir.gmem>, %P: memref<34x32xf32, #gpuir.gmem>, %B: memref<34x32xi32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 34 : cuda_tasks {
      %x = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      %v = gpuir.alloc : memref<32xi32, #gpuir.rmem>
      %s = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      %p = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      %b = gpuir.alloc : memref<32xi32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %xi = gpuir.read %X[%t, %l] : memref<34x32xf32, #gpuir.gmem>
        gpuir.write %xi, %x[%l] : memref<32xf32, #gpuir.rmem>
        %vi = gpuir.read %V[%t, %l] : memref<34x32xi32, #gpuir.gmem>
        gpuir.write %vi, %v[%l] : memref<32xi32, #gpuir.rmem>
      }
      gpuir.sm80.warp_sum %s, %x active(%t - 1) : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
      gpuir.sm80.warp_scan %p, %x active(%t - 1) : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
      gpuir.sm80.ballot %b, %v active(%t - 1) : memref<32xi32, #gpuir.rmem>, memref<32xi32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %si = gpuir.read %s[%l] : memref<32xf32, #gpuir.rmem>
        gpuir.write %si, %S[%t, %l] : memref<34x32xf32, #gpuir.gmem>
        %pi = gpuir.read %p[%l] : memref<32xf32, #gpuir.rmem>
        gpuir.write %pi, %P[%t, %l] : memref<34x32xf32, #gpuir.gmem>
        %bi = gpuir.read %b[%l] : memref<32xi32, #gpuir.rmem>
        gpuir.write %bi, %B[%t, %l] : memref<34x32xi32, #gpuir.gmem>
      }
    }
  }
}
