// RUN: rake-opt %s -split-input-file -verify-diagnostics

gpuir.proc @rank(%A: memref<8x8xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      // expected-error @+1 {{the window has 1 coordinates, but its source has rank 2}}
      %w = gpuir.window %A[0 : 4] : memref<8x8xf32, #gpuir.gmem>
    }
  }
}

// -----

// Only a window's type is inferred; a tensor map's is written.
gpuir.proc @tensor_map(%A: memref<64x64xf16, #gpuir.gmem>) {
  // expected-error @+1 {{expected '->' and the result type}}
  %t = gpuir.tensor_map %A[0 : 64, 0 : 64] : memref<64x64xf16, #gpuir.gmem>
}

// -----

// A source whose layout has no strides gives none to infer.
gpuir.proc @no_strides(%A: memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      // expected-error @+1 {{the window's type cannot be inferred from a source without strides; write it after '->'}}
      %w = gpuir.window %A[0 : 4, 0 : 4] : memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>, #gpuir.gmem>
    }
  }
}
