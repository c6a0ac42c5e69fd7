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

// A source whose layout has no strides gives none to infer.
gpuir.proc @no_strides(%A: memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      // expected-error @+1 {{the window's type cannot be inferred from a source without strides; write it after '->'}}
      %w = gpuir.window %A[0 : 4, 0 : 4] : memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>, #gpuir.gmem>
    }
  }
}

// -----

// A static offset in the result type is the address code generation uses:
// it must be the window's own.
gpuir.proc @offset(%A: memref<1024xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.window' op the window starts at element offset known only at run time of its buffer but the result type says offset: 1; write offset: ? (or the window's own)}}
        %w = gpuir.window %A[%t * 4 : %t * 4 + 4] : memref<1024xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: 1>, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @constant_offset(%A: memref<1024xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      // expected-error @+1 {{'gpuir.window' op the window starts at element offset 8 of its buffer but the result type says offset: 4; write offset: ? (or the window's own)}}
      %w = gpuir.window %A[8 : 12] : memref<1024xf32, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: 4>, #gpuir.gmem>
    }
  }
}
