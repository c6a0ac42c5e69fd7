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
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op multiplies f16, bf16, tf32 (f32 elements), e4m3 or e5m2 (f8E4M3FN, f8E5M2) or s8 or u8 (i8) tiles, found 'f64'}}
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
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op a and b must have the same element type (or e4m3 and e5m2 in either order), found 'bf16' and 'f16'}}
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
      %tmabar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %s = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op dst 'memref<64x64xbf16, #gpuir.smem>' and src 'memref<64x32xbf16, #gpuir.gmem>' must have the same box shape and element type}}
        gpuir.sm90a.tma_load %s, %A >> %tmabar : memref<64x64xbf16, #gpuir.smem>, memref<64x32xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
    }
  }
}
// -----

gpuir.proc @p(%n: index, %A: memref<512x8xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %tmabar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %s = gpuir.alloc : memref<512x8xf32, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op copies a box of at most 256 x 256 elements, found 512 x 8}}
        gpuir.sm90a.tma_load %s, %A >> %tmabar : memref<512x8xf32, #gpuir.smem>, memref<512x8xf32, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
    }
  }
}
// -----

gpuir.proc @p(%n: index, %A: memref<64x4xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %tmabar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %s = gpuir.alloc : memref<64x4xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op copies rows of a multiple of 16 bytes, found 8}}
        gpuir.sm90a.tma_load %s, %A >> %tmabar : memref<64x4xbf16, #gpuir.smem>, memref<64x4xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
    }
  }
}
// -----

gpuir.proc @p(%n: index, %A: memref<64x32xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %tmabar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %s = gpuir.alloc : memref<64x32xbf16, #gpuir.smem_swizzled<128>>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op writes the 128-byte swizzle, whose rows are 128 bytes; dst's rows are 64 bytes}}
        gpuir.sm90a.tma_load %s, %A >> %tmabar : memref<64x32xbf16, #gpuir.smem_swizzled<128>>, memref<64x32xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
    }
  }
}
// -----

gpuir.proc @p(%n: index, %A: memref<64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %tmabar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %s = gpuir.alloc : memref<64xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op copies a two-dimensional box: src must be a two-dimensional window of static size, dst one too (or, for a multicast, CTAs x rows x cols)}}
        gpuir.sm90a.tma_load %s, %A >> %tmabar : memref<64xbf16, #gpuir.smem>, memref<64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
    }
  }
}

// -----

gpuir.proc @p(%n: index, %A: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %tmabar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %s = gpuir.alloc : memref<64x128xbf16, #gpuir.smem>
      %w = gpuir.window %s[0 : 64, 0 : 64] : memref<64x128xbf16, #gpuir.smem> -> memref<64x64xbf16, strided<[128, 1]>, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op writes a contiguous row-major box: dst's strides must end in [64, 1]}}
        gpuir.sm90a.tma_load %w, %A >> %tmabar : memref<64x64xbf16, strided<[128, 1]>, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
    }
  }
}

// -----

gpuir.proc @p(%n: index, %A: memref<64x64xbf16, strided<[1, 64]>, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %tmabar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %s = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op reads rows of contiguous elements: src's inner stride must be 1}}
        gpuir.sm90a.tma_load %s, %A >> %tmabar : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, strided<[1, 64]>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
    }
  }
}

// -----

gpuir.proc @p(%n: index, %A: memref<64x64xindex, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %tmabar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %s = gpuir.alloc : memref<64x64xindex, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op copies scalars, found 'index'}}
        gpuir.sm90a.tma_load %s, %A >> %tmabar : memref<64x64xindex, #gpuir.smem>, memref<64x64xindex, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
    }
  }
}

// -----

// A TMA copy completes on its own trailing mbarrier, not on a later arrive.
gpuir.proc @p(%n: index, %A: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %s = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.sm90a.tma_load %s, %A >> %bar : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier>
        // expected-error @+1 {{'gpuir.arrive' op arrives on an mbarrier after tma_to_smem_async accesses; a TMA copy completes on its own trailing mbarrier: write '>> %bar[...]' on the gpuir.sm90a.tma_load instead of this arrive}}
        gpuir.arrive tma_to_smem_async >> %bar : !gpuir.barrier<mbarrier>
      }
    }
  }
}

// -----

// The trailing barrier is an mbarrier.
gpuir.proc @p(%n: index, %A: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive>
      %s = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op completes through a mbarrier barrier, but the trailing barrier is mbarrier_prearrive}}
        gpuir.sm90a.tma_load %s, %A >> %bar : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier_prearrive>
      }
    }
  }
}

// -----

// The trailing barrier's coordinates match its rank.
gpuir.proc @p(%n: index, %A: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2, 4]>
      %s = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op gives 1 coordinates for a barrier array of rank 2}}
        gpuir.sm90a.tma_load %s, %A >> %bar[1] : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier [2, 4]>
      }
    }
  }
}

// -----

// A multicast (a leading dimension of CTAs in dst) completes on each
// destination's mbarrier: an interval of the barrier.
gpuir.proc @p(%n: index, %A: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function cluster(2) block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %s = gpuir.alloc : memref<2x64x64xbf16, #gpuir.smem>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          // expected-error @+1 {{'gpuir.sm90a.tma_load' op multicasts into several CTAs but completes on one mbarrier: name the destination CTAs' mbarriers as an interval of the barrier (>> %bar[0 : n, ...])}}
          gpuir.sm90a.tma_load %s, %A >> %bar[%c] : memref<2x64x64xbf16, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier [2]>
        }
      }
    }
  }
}

// -----

gpuir.proc @p(%n: index, %A: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function cluster(2) block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %s = gpuir.alloc : memref<2x64x64xbf16, #gpuir.smem>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %w = gpuir.window %s[%c, 0 : 64, 0 : 64] : memref<2x64x64xbf16, #gpuir.smem> -> memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem>
          // expected-error @+1 {{'gpuir.sm90a.tma_load' op copies into one CTA but completes on several mbarriers: name one element of the barrier}}
          gpuir.sm90a.tma_load %w, %A >> %bar[0 : 2] : memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem>, memref<64x64xbf16, #gpuir.gmem>, !gpuir.barrier<mbarrier [2]>
        }
      }
    }
  }
}

// -----

// An e5m2 tile pairs with e4m3 or e5m2, not with an integer tile.
gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %af = gpuir.alloc : memref<64x128xf8E5M2, #gpuir.smem_swizzled<128>>
      %bf = gpuir.alloc : memref<64x128xi8, #gpuir.smem_swizzled<128>>
      %as = gpuir.window %af[0 : 64, 0 : 32] : memref<64x128xf8E5M2, #gpuir.smem_swizzled<128>> -> memref<64x32xf8E5M2, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %bs = gpuir.window %bf[0 : 64, 0 : 32] : memref<64x128xi8, #gpuir.smem_swizzled<128>> -> memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op a and b must have the same element type (or e4m3 and e5m2 in either order), found 'f8E5M2' and 'i8'}}
      gpuir.sm90a.wgmma %d, %as, %bs : memref<128x32xf32, #gpuir.rmem>, memref<64x32xf8E5M2, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
    }
  }
}

// -----

// Unsigned operands are for integer tiles.
gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %af = gpuir.alloc : memref<64x128xf8E4M3FN, #gpuir.smem_swizzled<128>>
      %bf = gpuir.alloc : memref<64x128xf8E4M3FN, #gpuir.smem_swizzled<128>>
      %as = gpuir.window %af[0 : 64, 0 : 32] : memref<64x128xf8E4M3FN, #gpuir.smem_swizzled<128>> -> memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %bs = gpuir.window %bf[0 : 64, 0 : 32] : memref<64x128xf8E4M3FN, #gpuir.smem_swizzled<128>> -> memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op 'a_unsigned' and 'b_unsigned' choose u8 for i8 tiles; this one multiplies 'f8E4M3FN'}}
      gpuir.sm90a.wgmma %d, %as, %bs {a_unsigned} : memref<128x32xf32, #gpuir.rmem>, memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
    }
  }
}

// -----

// s8 x u8 needs PTX ISA 8.4.
gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xi32, #gpuir.rmem>
      %af = gpuir.alloc : memref<64x128xi8, #gpuir.smem_swizzled<128>>
      %bf = gpuir.alloc : memref<64x128xi8, #gpuir.smem_swizzled<128>>
      %as = gpuir.window %af[0 : 64, 0 : 32] : memref<64x128xi8, #gpuir.smem_swizzled<128>> -> memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %bs = gpuir.window %bf[0 : 64, 0 : 32] : memref<64x128xi8, #gpuir.smem_swizzled<128>> -> memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op mixes s8 and u8 tiles, which needs PTX ISA 8.4 (the sm_90a profiles pin 8.0): give 'a' and 'b' the same signedness (both or neither of 'a_unsigned' and 'b_unsigned')}}
      gpuir.sm90a.wgmma %d, %as, %bs {b_unsigned} : memref<128x32xi32, #gpuir.rmem>, memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
    }
  }
}

// -----

// 8-bit tiles only in the 128-byte swizzle.
gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %as = gpuir.alloc : memref<8x4x8x16xf8E4M3FN, #gpuir.smem>
      %bs = gpuir.alloc : memref<8x4x8x16xf8E4M3FN, #gpuir.smem>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op multiplies 8-bit tiles ('f8E4M3FN') only from the 128-byte swizzle: put 'a' and 'b' in #gpuir.smem_swizzled<128> rows of 128 elements}}
      gpuir.sm90a.wgmma %d, %as, %bs : memref<128x32xf32, #gpuir.rmem>, memref<8x4x8x16xf8E4M3FN, #gpuir.smem>, memref<8x4x8x16xf8E4M3FN, #gpuir.smem>
    }
  }
}

// -----

// An 8-bit operand is 32 elements of K.
gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xi32, #gpuir.rmem>
      %af = gpuir.alloc : memref<64x128xi8, #gpuir.smem_swizzled<128>>
      %bf = gpuir.alloc : memref<64x128xi8, #gpuir.smem_swizzled<128>>
      %as = gpuir.window %af[0 : 64, 0 : 16] : memref<64x128xi8, #gpuir.smem_swizzled<128>> -> memref<64x16xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %bs = gpuir.window %bf[0 : 64, 0 : 32] : memref<64x128xi8, #gpuir.smem_swizzled<128>> -> memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op operand 'a' in swizzled shared memory must be 64 x 32 (a 32-wide slice of K), found 'memref<64x16xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>'}}
      gpuir.sm90a.wgmma %d, %as, %bs : memref<128x32xi32, #gpuir.rmem>, memref<64x16xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
    }
  }
}

// -----

// Integer wgmma has no N = 40.
gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x20xi32, #gpuir.rmem>
      %af = gpuir.alloc : memref<64x128xi8, #gpuir.smem_swizzled<128>>
      %bf = gpuir.alloc : memref<40x128xi8, #gpuir.smem_swizzled<128>>
      %as = gpuir.window %af[0 : 64, 0 : 32] : memref<64x128xi8, #gpuir.smem_swizzled<128>> -> memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %bs = gpuir.window %bf[0 : 40, 0 : 32] : memref<40x128xi8, #gpuir.smem_swizzled<128>> -> memref<40x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op N of an s8 or u8 wgmma must be 8, 16, 24 or a multiple of 16 up to 256, found 40}}
      gpuir.sm90a.wgmma %d, %as, %bs : memref<128x20xi32, #gpuir.rmem>, memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<40x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
    }
  }
}

// -----

// Integer products accumulate in i32.
gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %af = gpuir.alloc : memref<64x128xi8, #gpuir.smem_swizzled<128>>
      %bf = gpuir.alloc : memref<64x128xi8, #gpuir.smem_swizzled<128>>
      %as = gpuir.window %af[0 : 64, 0 : 32] : memref<64x128xi8, #gpuir.smem_swizzled<128>> -> memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %bs = gpuir.window %bf[0 : 64, 0 : 32] : memref<64x128xi8, #gpuir.smem_swizzled<128>> -> memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op d must be the warpgroup's 128 x 32 i32 accumulators for N = 64, found 'memref<128x32xf32, #gpuir.rmem>'}}
      gpuir.sm90a.wgmma %d, %as, %bs : memref<128x32xf32, #gpuir.rmem>, memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<64x32xi8, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
    }
  }
}

// -----

// FP8 products accumulate in f32.
gpuir.proc @p(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %d = gpuir.alloc : memref<128x32xi32, #gpuir.rmem>
      %af = gpuir.alloc : memref<64x128xf8E4M3FN, #gpuir.smem_swizzled<128>>
      %bf = gpuir.alloc : memref<64x128xf8E5M2, #gpuir.smem_swizzled<128>>
      %as = gpuir.window %af[0 : 64, 0 : 32] : memref<64x128xf8E4M3FN, #gpuir.smem_swizzled<128>> -> memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      %bs = gpuir.window %bf[0 : 64, 0 : 32] : memref<64x128xf8E5M2, #gpuir.smem_swizzled<128>> -> memref<64x32xf8E5M2, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op d must be the warpgroup's 128 x 32 f32 accumulators for N = 64, found 'memref<128x32xi32, #gpuir.rmem>'}}
      gpuir.sm90a.wgmma %d, %as, %bs : memref<128x32xi32, #gpuir.rmem>, memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<64x32xf8E5M2, strided<[128, 1], offset: ?>, #gpuir.smem_swizzled<128>>
    }
  }
}

// -----

// tma_store copies a two-dimensional box of 16-byte rows from shared to
// global memory: each rule of the box, with its direction in the message.
gpuir.proc @p(%n: index, %C: memref<64x32xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_store' op dst 'memref<64x32xbf16, #gpuir.gmem>' and src 'memref<64x64xbf16, #gpuir.smem>' must have the same box shape and element type}}
        gpuir.sm90a.tma_store %C, %s : memref<64x32xbf16, #gpuir.gmem>, memref<64x64xbf16, #gpuir.smem>
      }
    }
  }
}

// -----

gpuir.proc @p(%n: index, %C: memref<8x64x32xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<8x64x32xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_store' op copies a two-dimensional box: dst must be a two-dimensional window of static size, src one too}}
        gpuir.sm90a.tma_store %C, %s : memref<8x64x32xbf16, #gpuir.gmem>, memref<8x64x32xbf16, #gpuir.smem>
      }
    }
  }
}

// -----

gpuir.proc @p(%n: index, %C: memref<64x4xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x4xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_store' op copies rows of a multiple of 16 bytes, found 8}}
        gpuir.sm90a.tma_store %C, %s : memref<64x4xbf16, #gpuir.gmem>, memref<64x4xbf16, #gpuir.smem>
      }
    }
  }
}

// -----

gpuir.proc @p(%n: index, %C: memref<512x8xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<512x8xf32, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_store' op copies a box of at most 256 x 256 elements, found 512 x 8}}
        gpuir.sm90a.tma_store %C, %s : memref<512x8xf32, #gpuir.gmem>, memref<512x8xf32, #gpuir.smem>
      }
    }
  }
}

// -----

gpuir.proc @p(%n: index, %C: memref<64x32xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      %w = gpuir.window %s[0 : 64, 0 : 32] : memref<64x64xbf16, #gpuir.smem> -> memref<64x32xbf16, strided<[64, 1]>, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_store' op reads a contiguous row-major box: src's strides must end in [32, 1]}}
        gpuir.sm90a.tma_store %C, %w : memref<64x32xbf16, #gpuir.gmem>, memref<64x32xbf16, strided<[64, 1]>, #gpuir.smem>
      }
    }
  }
}

// -----

gpuir.proc @p(%n: index, %C: memref<64x128xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x128xbf16, #gpuir.smem_swizzled<128>>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_store' op reads the 128-byte swizzle, whose rows are 128 bytes; src's rows are 256 bytes}}
        gpuir.sm90a.tma_store %C, %s : memref<64x128xbf16, #gpuir.gmem>, memref<64x128xbf16, #gpuir.smem_swizzled<128>>
      }
    }
  }
}

// -----

// The destination is global memory and the source shared memory (the
// instruction's parameter memory types).
gpuir.proc @p(%n: index, %C: memref<64x32xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x32xbf16, #gpuir.smem>
      %s2 = gpuir.alloc : memref<64x32xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_store' op parameter 'dst' cannot take a buffer in smem memory}}
        gpuir.sm90a.tma_store %s2, %s : memref<64x32xbf16, #gpuir.smem>, memref<64x32xbf16, #gpuir.smem>
      }
    }
  }
}
