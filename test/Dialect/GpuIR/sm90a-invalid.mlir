// RUN: rake-opt %s -split-input-file -verify-diagnostics

// Each rejection of the wgmma verifier, with its message.

gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<8x2x8x8xf32, #gpuir.smem>
      %b = gpuir.alloc : memref<8x2x8x8xf32, #gpuir.smem>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op multiplies tf32 tiles (f32 elements) only from the 128-byte swizzle: put 'a' and 'b' in #gpuir.smem_swizzled<128> rows of 32 f32}}
      gpuir.sm90a.wgmma %d, %a, %b : memref<128x32xf32, #gpuir.rmem>, memref<8x2x8x8xf32, #gpuir.smem>, memref<8x2x8x8xf32, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<8x2x8x8xf64, #gpuir.smem>
      %b = gpuir.alloc : memref<8x2x8x8xf64, #gpuir.smem>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op multiplies bf16, f16 or tf32 (f32 elements) tiles, found 'f64'}}
      gpuir.sm90a.wgmma %d, %a, %b : memref<128x32xf32, #gpuir.rmem>, memref<8x2x8x8xf64, #gpuir.smem>, memref<8x2x8x8xf64, #gpuir.smem>
    }
  }
}

// -----

// tf32 in the swizzle: each operand is 8 f32 wide (32 bytes of K).
gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %as = gpuir.alloc : memref<64x32xf32, #gpuir.smem_swizzled<128>>
      %bs = gpuir.alloc : memref<64x32xf32, #gpuir.smem_swizzled<128>>
      %a = gpuir.window %as[0 : 64, 0 : 16] : memref<64x32xf32, #gpuir.smem_swizzled<128>>
      %b = gpuir.window %bs[0 : 64, 0 : 8] : memref<64x32xf32, #gpuir.smem_swizzled<128>>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op operand 'a' in swizzled shared memory must be 64 x 8 (a 8-wide slice of K), found 'memref<64x16xf32, strided<[32, 1], offset: ?>, #gpuir.smem_swizzled<128>>'}}
      gpuir.sm90a.wgmma %d, %a, %b : memref<128x32xf32, #gpuir.rmem>, memref<64x16xf32, strided<[32, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<64x8xf32, strided<[32, 1], offset: ?>, #gpuir.smem_swizzled<128>>
    }
  }
}

// -----

gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<8x2x8x8xbf16, #gpuir.smem>
      %b = gpuir.alloc : memref<8x2x8x8xf16, #gpuir.smem>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op a and b must have the same element type, found 'bf16' and 'f16'}}
      gpuir.sm90a.wgmma %d, %a, %b : memref<128x32xf32, #gpuir.rmem>, memref<8x2x8x8xbf16, #gpuir.smem>, memref<8x2x8x8xf16, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<4x2x8x8xbf16, #gpuir.smem>
      %b = gpuir.alloc : memref<8x2x8x8xbf16, #gpuir.smem>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op operand 'a' must be 8 x 2 x 8 x 8 core matrices (a 16-wide slice of K), found 'memref<4x2x8x8xbf16, #gpuir.smem>'}}
      gpuir.sm90a.wgmma %d, %a, %b : memref<128x32xf32, #gpuir.rmem>, memref<4x2x8x8xbf16, #gpuir.smem>, memref<8x2x8x8xbf16, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<8x2x8x8xbf16, #gpuir.smem>
      %b = gpuir.alloc : memref<8x4x8x8xbf16, #gpuir.smem>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op operand 'b' must be N / 8 x 2 x 8 x 8 core matrices (a 16-wide slice of K), found 'memref<8x4x8x8xbf16, #gpuir.smem>'}}
      gpuir.sm90a.wgmma %d, %a, %b : memref<128x32xf32, #gpuir.rmem>, memref<8x2x8x8xbf16, #gpuir.smem>, memref<8x4x8x8xbf16, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<8x2x8x8xbf16, #gpuir.smem>
      %b = gpuir.alloc : memref<40x2x8x8xbf16, #gpuir.smem>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op N must be a multiple of 8 from 8 to 256, found 320}}
      gpuir.sm90a.wgmma %d, %a, %b : memref<128x32xf32, #gpuir.rmem>, memref<8x2x8x8xbf16, #gpuir.smem>, memref<40x2x8x8xbf16, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x64xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<8x2x8x8xbf16, #gpuir.smem>
      %b = gpuir.alloc : memref<8x2x8x8xbf16, #gpuir.smem>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op d must be the warpgroup's 128 x 32 f32 accumulators for N = 64, found 'memref<128x64xf32, #gpuir.rmem>'}}
      gpuir.sm90a.wgmma %d, %a, %b : memref<128x64xf32, #gpuir.rmem>, memref<8x2x8x8xbf16, #gpuir.smem>, memref<8x2x8x8xbf16, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<8x2x8x16xbf16, #gpuir.smem>
      %w = gpuir.window %a[0 : 8, 0 : 2, 0 : 8, 0 : 8] : memref<8x2x8x16xbf16, #gpuir.smem> -> memref<8x2x8x8xbf16, strided<[256, 128, 16, 1]>, #gpuir.smem>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op operand 'a' must hold each 8x8 core matrix contiguously (strides 8, 1 in its last two dimensions)}}
      gpuir.sm90a.wgmma %d, %w, %w : memref<128x32xf32, #gpuir.rmem>, memref<8x2x8x8xbf16, strided<[256, 128, 16, 1]>, #gpuir.smem>, memref<8x2x8x8xbf16, strided<[256, 128, 16, 1]>, #gpuir.smem>
    }
  }
}

// -----

// Operands in the 128-byte swizzle are rows x 16 elements of K.
gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x64xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<64x64xbf16, #gpuir.smem_swizzled<128>>
      %b = gpuir.alloc : memref<128x64xbf16, #gpuir.smem_swizzled<128>>
      %bw = gpuir.window %b[0 : 128, 0 : 16] : memref<128x64xbf16, #gpuir.smem_swizzled<128>> -> memref<128x16xbf16, strided<[64, 1]>, #gpuir.smem_swizzled<128>>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op operand 'a' in swizzled shared memory must be 64 x 16 (a 16-wide slice of K), found 'memref<64x64xbf16, #gpuir.smem_swizzled<128>>'}}
      gpuir.sm90a.wgmma %d, %a, %bw : memref<128x64xf32, #gpuir.rmem>, memref<64x64xbf16, #gpuir.smem_swizzled<128>>, memref<128x16xbf16, strided<[64, 1]>, #gpuir.smem_swizzled<128>>
    }
  }
}

// -----

// Swizzled rows must be 128 bytes (the 128-byte swizzle's atom).
gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x64xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<64x64xbf16, #gpuir.smem_swizzled<128>>
      %aw = gpuir.window %a[0 : 64, 0 : 16] : memref<64x64xbf16, #gpuir.smem_swizzled<128>> -> memref<64x16xbf16, strided<[64, 1]>, #gpuir.smem_swizzled<128>>
      %b = gpuir.alloc : memref<128x32xbf16, #gpuir.smem_swizzled<128>>
      %bw = gpuir.window %b[0 : 128, 0 : 16] : memref<128x32xbf16, #gpuir.smem_swizzled<128>> -> memref<128x16xbf16, strided<[32, 1]>, #gpuir.smem_swizzled<128>>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op operand 'b' must be a window of rows of 128 bytes in the 128-byte swizzle}}
      gpuir.sm90a.wgmma %d, %aw, %bw : memref<128x64xf32, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1]>, #gpuir.smem_swizzled<128>>, memref<128x16xbf16, strided<[32, 1]>, #gpuir.smem_swizzled<128>>
    }
  }
}

// -----

// tma_load copies a two-dimensional box of 16-byte rows, as TMA does.
gpuir.proc @p(%n: index, %A: memref<64x32xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op dst 'memref<64x64xbf16, #gpuir.smem>' and src 'memref<64x32xbf16, #gpuir.gmem>' must have the same shape and element type}}
        gpuir.sm90a.tma_load %s, %A : memref<64x64xbf16, #gpuir.smem>, memref<64x32xbf16, #gpuir.gmem>
      }
    }
  }
}
// -----

gpuir.proc @p(%n: index, %A: memref<512x8xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<512x8xf32, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op copies a box of at most 256 x 256 elements, found 512 x 8}}
        gpuir.sm90a.tma_load %s, %A : memref<512x8xf32, #gpuir.smem>, memref<512x8xf32, #gpuir.gmem>
      }
    }
  }
}
// -----

gpuir.proc @p(%n: index, %A: memref<64x4xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x4xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op copies rows of a multiple of 16 bytes, found 8}}
        gpuir.sm90a.tma_load %s, %A : memref<64x4xbf16, #gpuir.smem>, memref<64x4xbf16, #gpuir.gmem>
      }
    }
  }
}
// -----

gpuir.proc @p(%n: index, %A: memref<64x32xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x32xbf16, #gpuir.smem_swizzled<128>>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op writes the 128-byte swizzle, whose rows are 128 bytes; dst's rows are 64 bytes}}
        gpuir.sm90a.tma_load %s, %A : memref<64x32xbf16, #gpuir.smem_swizzled<128>>, memref<64x32xbf16, #gpuir.gmem>
      }
    }
  }
}
// -----

gpuir.proc @p(%n: index, %A: memref<64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op copies a two-dimensional box: dst and src must be two-dimensional windows of static size}}
        gpuir.sm90a.tma_load %s, %A : memref<64xbf16, #gpuir.smem>, memref<64xbf16, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @p(%n: index, %A: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x128xbf16, #gpuir.smem>
      %w = gpuir.window %s[0 : 64, 0 : 64] : memref<64x128xbf16, #gpuir.smem> -> memref<64x64xbf16, strided<[128, 1]>, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op writes a contiguous row-major box: dst's strides must be [64, 1]}}
        gpuir.sm90a.tma_load %w, %A : memref<64x64xbf16, strided<[128, 1]>, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @p(%n: index, %A: memref<64x64xbf16, strided<[1, 64]>, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op reads rows of contiguous elements: src's inner stride must be 1}}
        gpuir.sm90a.tma_load %s, %A : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, strided<[1, 64]>, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @p(%n: index, %A: memref<64x64xindex, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x64xindex, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op copies scalars, found 'index'}}
        gpuir.sm90a.tma_load %s, %A : memref<64x64xindex, #gpuir.smem>, memref<64x64xindex, #gpuir.gmem>
      }
    }
  }
}
