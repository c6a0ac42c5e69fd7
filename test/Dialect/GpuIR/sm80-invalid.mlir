// RUN: rake-opt %s -split-input-file -verify-diagnostics

// Each rejection of the Sm80 instruction verifiers, with its message.

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<2x4xf32, #gpuir.smem>
      gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm80.cp_async' op copies a run of elements: dst and src must be one-dimensional windows of static size}}
        gpuir.sm80.cp_async %s, %F : memref<2x4xf32, #gpuir.smem>, memref<64xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<4xf32, #gpuir.smem>
      gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %G[0 : 8] : memref<64xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1]>, #gpuir.gmem>
        // expected-error @+1 {{'gpuir.sm80.cp_async' op dst (4 x 'f32') and src (8 x 'bf16') must have the same size and element type}}
        gpuir.sm80.cp_async %s, %g : memref<4xf32, #gpuir.smem>, memref<8xbf16, strided<[1]>, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<3xf32, #gpuir.smem>
      gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %F[0 : 3] : memref<64xf32, #gpuir.gmem> -> memref<3xf32, strided<[1]>, #gpuir.gmem>
        // expected-error @+1 {{'gpuir.sm80.cp_async' op copies 4, 8 or 16 bytes, found 12}}
        gpuir.sm80.cp_async %s, %g : memref<3xf32, #gpuir.smem>, memref<3xf32, strided<[1]>, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %x = gpuir.alloc : memref<4x2xf32, #gpuir.smem>
      gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %col = gpuir.window %x[0 : 2, 0] : memref<4x2xf32, #gpuir.smem> -> memref<2xf32, strided<[2]>, #gpuir.smem>
        %g = gpuir.window %F[0 : 2] : memref<64xf32, #gpuir.gmem> -> memref<2xf32, strided<[1]>, #gpuir.gmem>
        // expected-error @+1 {{'gpuir.sm80.cp_async' op copies contiguous elements: dst and src must have unit stride}}
        gpuir.sm80.cp_async %col, %g : memref<2xf32, strided<[2]>, #gpuir.smem>, memref<2xf32, strided<[1]>, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<4xf32, #gpuir.smem>
      gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %F[0 : 4] : memref<64xf32, #gpuir.gmem> -> memref<4xf32, strided<[1]>, #gpuir.gmem>
        // expected-error @+1 {{'gpuir.sm80.cp_async' op parameter 'dst' cannot take a buffer in gmem memory}}
        gpuir.sm80.cp_async %g, %g : memref<4xf32, strided<[1]>, #gpuir.gmem>, memref<4xf32, strided<[1]>, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<12x16xbf16, #gpuir.smem>
      %a = gpuir.alloc : memref<32x8xbf16, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.ldmatrix' op loads 8x8 matrices: src must be a two-dimensional window whose sizes are multiples of 8}}
      gpuir.sm80.ldmatrix %a, %s : memref<32x8xbf16, #gpuir.rmem>, memref<12x16xbf16, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<8x24xbf16, #gpuir.smem>
      %a = gpuir.alloc : memref<32x6xbf16, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.ldmatrix' op loads 1, 2 or 4 matrices, but src is 8x24 (3 matrices)}}
      gpuir.sm80.ldmatrix %a, %s : memref<32x6xbf16, #gpuir.rmem>, memref<8x24xbf16, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<8x8xf32, #gpuir.smem>
      %a = gpuir.alloc : memref<32x2xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.ldmatrix' op loads 16-bit elements, found 'f32'}}
      gpuir.sm80.ldmatrix %a, %s : memref<32x2xf32, #gpuir.rmem>, memref<8x8xf32, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<8x8xbf16, #gpuir.smem>
      %a = gpuir.alloc : memref<32x2xf16, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.ldmatrix' op dst must hold the elements of src ('bf16'), found 'f16'}}
      gpuir.sm80.ldmatrix %a, %s : memref<32x2xf16, #gpuir.rmem>, memref<8x8xbf16, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<16x16xbf16, #gpuir.smem>
      %a = gpuir.alloc : memref<32x4xbf16, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.ldmatrix' op dst must be the warp's fragment of 32x8 registers for 4 matrices}}
      gpuir.sm80.ldmatrix %a, %s : memref<32x4xbf16, #gpuir.rmem>, memref<16x16xbf16, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<16x36xbf16, #gpuir.smem>
      %w = gpuir.window %s[0 : 16, 0 : 16] : memref<16x36xbf16, #gpuir.smem> -> memref<16x16xbf16, strided<[36, 1]>, #gpuir.smem>
      %a = gpuir.alloc : memref<32x8xbf16, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.ldmatrix' op src rows must start at 16-byte aligned addresses; the row stride is 72 bytes}}
      gpuir.sm80.ldmatrix %a, %w : memref<32x8xbf16, #gpuir.rmem>, memref<16x16xbf16, strided<[36, 1]>, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<8x8x2xbf16, #gpuir.smem>
      %w = gpuir.window %s[0 : 8, 0 : 8, 0] : memref<8x8x2xbf16, #gpuir.smem> -> memref<8x8xbf16, strided<[16, 2]>, #gpuir.smem>
      %c = gpuir.alloc : memref<32x2xbf16, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.ldmatrix' op src rows must be contiguous}}
      gpuir.sm80.ldmatrix %c, %w : memref<32x2xbf16, #gpuir.rmem>, memref<8x8xbf16, strided<[16, 2]>, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<32x8xi16, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x4xi16, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.mma_sync' op multiplies f16, bf16, tf32 (f32) or s8 or u8 (i8) fragments, found 'i16'}}
      gpuir.sm80.mma_sync %d, %a, %b : memref<32x4xf32, #gpuir.rmem>, memref<32x8xi16, #gpuir.rmem>, memref<32x4xi16, #gpuir.rmem>
    }
  }
}

// -----

// 8-bit integer fragments are 16 bytes of A per lane, accumulated in i32.
gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<32x8xi8, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x8xi8, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xi32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.mma_sync' op parameter 'a' takes a window of shape [32, 16], found [32, 8]}}
      gpuir.sm80.mma_sync %d, %a, %b : memref<32x4xi32, #gpuir.rmem>, memref<32x8xi8, #gpuir.rmem>, memref<32x8xi8, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<32x16xi8, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x8xi8, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.mma_sync' op parameter 'd' takes 'i32' elements, found 'f32'}}
      gpuir.sm80.mma_sync %d, %a, %b : memref<32x4xf32, #gpuir.rmem>, memref<32x16xi8, #gpuir.rmem>, memref<32x8xi8, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<32x8xf16, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x4xf16, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.mma_sync' op 'a_unsigned' and 'b_unsigned' choose u8 for i8 fragments; this one multiplies 'f16'}}
      gpuir.sm80.mma_sync %d, %a, %b {b_unsigned} : memref<32x4xf32, #gpuir.rmem>, memref<32x8xf16, #gpuir.rmem>, memref<32x4xf16, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<32x8xbf16, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x4xf16, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.mma_sync' op a and b must have the same element type, found 'bf16' and 'f16'}}
      gpuir.sm80.mma_sync %d, %a, %b : memref<32x4xf32, #gpuir.rmem>, memref<32x8xbf16, #gpuir.rmem>, memref<32x4xf16, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<32x4xbf16, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x4xbf16, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.mma_sync' op parameter 'a' takes a window of shape [32, 8], found [32, 4]}}
      gpuir.sm80.mma_sync %d, %a, %b : memref<32x4xf32, #gpuir.rmem>, memref<32x4xbf16, #gpuir.rmem>, memref<32x4xbf16, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<32x8xbf16, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x4xbf16, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xf16, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.mma_sync' op parameter 'd' takes 'f32' elements, found 'f16'}}
      gpuir.sm80.mma_sync %d, %a, %b : memref<32x4xf16, #gpuir.rmem>, memref<32x8xbf16, #gpuir.rmem>, memref<32x4xbf16, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<32x8xbf16, #gpuir.smem>
      %b = gpuir.alloc : memref<32x4xbf16, #gpuir.rmem>
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.mma_sync' op parameter 'a' cannot take a buffer in smem memory}}
      gpuir.sm80.mma_sync %d, %a, %b : memref<32x4xf32, #gpuir.rmem>, memref<32x8xbf16, #gpuir.smem>, memref<32x4xbf16, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %v = gpuir.alloc : memref<16xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.shfl_down' op exchanges one value per lane: dst and src must be the warp's 32 registers, found 'memref<16xf32, #gpuir.rmem>'}}
      gpuir.sm80.shfl_down %v, %v, 1 : memref<16xf32, #gpuir.rmem>, memref<16xf32, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %v = gpuir.alloc : memref<32xf64, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.shfl_up' op exchanges 32-bit values, found 'f64'}}
      gpuir.sm80.shfl_up %v, %v, 1 : memref<32xf64, #gpuir.rmem>, memref<32xf64, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %v = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      %w = gpuir.alloc : memref<32xi32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.shfl_idx' op dst and src must have the same element type}}
      gpuir.sm80.shfl_idx %v, %w, 1 : memref<32xf32, #gpuir.rmem>, memref<32xi32, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @p(%G: memref<64xbf16, #gpuir.gmem>, %F: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %v = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.shfl_bfly' op attribute 'offset' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0 whose maximum value is 31}}
      gpuir.sm80.shfl_bfly %v, %v, 32 : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @ballot_lanes(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %v = gpuir.alloc : memref<16xi32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.ballot' op votes with one value per lane: dst and src must be the warp's 32 registers, found 'memref<16xi32, #gpuir.rmem>'}}
      gpuir.sm80.ballot %v, %v : memref<16xi32, #gpuir.rmem>, memref<16xi32, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @ballot_type(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %v = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.ballot' op votes with i32 values (nonzero: the lane's bit is set), found 'f32'}}
      gpuir.sm80.ballot %v, %v : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @warp_sum_lanes(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %v = gpuir.alloc : memref<8xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.warp_sum' op sums one value per lane: dst and src must be the warp's 32 registers, found 'memref<8xf32, #gpuir.rmem>'}}
      gpuir.sm80.warp_sum %v, %v : memref<8xf32, #gpuir.rmem>, memref<8xf32, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @warp_scan_type(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %v = gpuir.alloc : memref<32xf16, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.warp_scan' op sums f32 or i32 values, found 'f16'}}
      gpuir.sm80.warp_scan %v, %v : memref<32xf16, #gpuir.rmem>, memref<32xf16, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @warp_sum_types(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %v = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      %w = gpuir.alloc : memref<32xi32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.warp_sum' op dst and src must have the same element type}}
      gpuir.sm80.warp_sum %w, %v : memref<32xi32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
    }
  }
}

// -----

gpuir.proc @ld_global_size(%G: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %r = gpuir.alloc : memref<8xf32, #gpuir.rmem>
      %g = gpuir.window %G[0 : 8] : memref<64xf32, #gpuir.gmem> -> memref<8xf32, strided<[1]>, #gpuir.gmem>
      // expected-error @+1 {{'gpuir.sm80.ld_global' op moves 4, 8 or 16 bytes, found 32}}
      gpuir.sm80.ld_global %r, %g : memref<8xf32, #gpuir.rmem>, memref<8xf32, strided<[1]>, #gpuir.gmem>
    }
  }
}

// -----

gpuir.proc @ld_global_types(%G: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %r = gpuir.alloc : memref<4xi32, #gpuir.rmem>
      %g = gpuir.window %G[0 : 4] : memref<64xf32, #gpuir.gmem> -> memref<4xf32, strided<[1]>, #gpuir.gmem>
      // expected-error @+1 {{'gpuir.sm80.ld_global' op dst and src must have the same size and element type, found 4 x 'i32' and 4 x 'f32'}}
      gpuir.sm80.ld_global %r, %g : memref<4xi32, #gpuir.rmem>, memref<4xf32, strided<[1]>, #gpuir.gmem>
    }
  }
}

// -----

gpuir.proc @ld_global_rank(%G: memref<4x4xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %r = gpuir.alloc : memref<4x4xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.ld_global' op moves a run of elements: dst and src must be one-dimensional windows of static size}}
      gpuir.sm80.ld_global %r, %G : memref<4x4xf32, #gpuir.rmem>, memref<4x4xf32, #gpuir.gmem>
    }
  }
}

// -----

gpuir.proc @ld_global_stride(%G: memref<4x4xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %r = gpuir.alloc : memref<4xf32, #gpuir.rmem>
      %g = gpuir.window %G[0 : 4, 0] : memref<4x4xf32, #gpuir.gmem> -> memref<4xf32, strided<[4]>, #gpuir.gmem>
      // expected-error @+1 {{'gpuir.sm80.ld_global' op moves contiguous elements: dst and src must have unit stride}}
      gpuir.sm80.ld_global %r, %g : memref<4xf32, #gpuir.rmem>, memref<4xf32, strided<[4]>, #gpuir.gmem>
    }
  }
}

// -----

gpuir.proc @ld_global_from_shared(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<4xf32, #gpuir.smem>
      %r = gpuir.alloc : memref<4xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.ld_global' op parameter 'src' cannot take a buffer in smem memory}}
      gpuir.sm80.ld_global %r, %s : memref<4xf32, #gpuir.rmem>, memref<4xf32, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @st_global_to_registers(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %a = gpuir.alloc : memref<4xf32, #gpuir.rmem>
      %r = gpuir.alloc : memref<4xf32, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm80.st_global' op parameter 'dst' cannot take a buffer in rmem memory}}
      gpuir.sm80.st_global %a, %r : memref<4xf32, #gpuir.rmem>, memref<4xf32, #gpuir.rmem>
    }
  }
}

// -----

// expected-error @+1 {{'gpuir.proc' op parameter #0 has gpuir.align = 2 : i64; expected the alignment of its first element in bytes, a power of two from 4 (its element's size) to 256, e.g. {gpuir.align = 16}}}
gpuir.proc @align_small(%G: memref<64xf32, #gpuir.gmem> {gpuir.align = 2}) {
}

// -----

// expected-error @+1 {{'gpuir.proc' op parameter #0 has gpuir.align = 24 : i64; expected the alignment of its first element in bytes, a power of two}}
gpuir.proc @align_odd(%G: memref<64xf32, #gpuir.gmem> {gpuir.align = 24}) {
}

// -----

// expected-error @+1 {{'gpuir.proc' op parameter #0 has gpuir.align, which only a buffer in global memory (#gpuir.gmem) takes}}
gpuir.proc @align_host(%G: memref<64xf32, #gpuir.host> {gpuir.align = 16}) {
}
