// RUN: rake-opt %s -split-input-file -verify-diagnostics

gpuir.proc @rank(%A: memref<8x8xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      // expected-error @+1 {{the window has 1 coordinates, but its source has rank 2}}
      %w = gpuir.window %A[0 : 4] : memref<8x8xf32, #gpuir.gmem>
    }
  }
}
