// RUN: rake-opt %s -split-input-file -verify-diagnostics

// Each rejection of the Sm120a instruction verifier, with its message.
// An element type no block-scaled form multiplies.
gpuir.proc @p() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x16xbf16, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x8xf8E4M3FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm120a.mma_block_scale' op multiplies f8E4M3FN, f8E5M2, f6E3M2FN, f6E2M3FN or f4E2M1FN fragments, found 'bf16' (a)}}
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) : memref<32x4xf32, #gpuir.rmem>, memref<32x16xbf16, #gpuir.rmem>, memref<32x8xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
    }
  }
}

// -----

// A fragment of neither shape.
gpuir.proc @p() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x8xf8E4M3FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x8xf8E4M3FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm120a.mma_block_scale' op a must be the warp's fragment of A: 32x16 (m16n8k32, kind::mxf8f6f4) or 32x32 (m16n8k64, kind::mxf4nvf4), found 'memref<32x8xf8E4M3FN, #gpuir.rmem>'}}
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) : memref<32x4xf32, #gpuir.rmem>, memref<32x8xf8E4M3FN, #gpuir.rmem>, memref<32x8xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
    }
  }
}

// -----

// B's fragment must match K.
gpuir.proc @p() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x16xf8E4M3FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x16xf8E4M3FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm120a.mma_block_scale' op b must be the warp's 32x8 fragment of B for K = 32, found 'memref<32x16xf8E4M3FN, #gpuir.rmem>'}}
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) : memref<32x4xf32, #gpuir.rmem>, memref<32x16xf8E4M3FN, #gpuir.rmem>, memref<32x16xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
    }
  }
}

// -----

// m16n8k64 is FP4 only.
gpuir.proc @p() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x32xf8E4M3FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x16xf8E4M3FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm120a.mma_block_scale' op m16n8k64 (kind::mxf4nvf4) multiplies f4E2M1FN only, found 'f8E4M3FN' and 'f8E4M3FN': use 32x16 and 32x8 fragments (m16n8k32, kind::mxf8f6f4) for other formats}}
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) : memref<32x4xf32, #gpuir.rmem>, memref<32x32xf8E4M3FN, #gpuir.rmem>, memref<32x16xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
    }
  }
}

// -----

// The two scales share a format.
gpuir.proc @p() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x32xf4E2M1FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x16xf4E2M1FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E4M3FN, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm120a.mma_block_scale' op sfa and sfb must have the same scale format, found 'f8E8M0FNU' and 'f8E4M3FN'}}
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) : memref<32x4xf32, #gpuir.rmem>, memref<32x32xf4E2M1FN, #gpuir.rmem>, memref<32x16xf4E2M1FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E4M3FN, #gpuir.rmem>
    }
  }
}

// -----

// A scale format the instruction does not read.
gpuir.proc @p() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x16xf8E4M3FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x8xf8E4M3FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E5M2, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E5M2, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm120a.mma_block_scale' op scales are f8E8M0FNU (ue8m0) or f8E4M3FN (read as ue4m3), found 'f8E5M2'}}
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) : memref<32x4xf32, #gpuir.rmem>, memref<32x16xf8E4M3FN, #gpuir.rmem>, memref<32x8xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E5M2, #gpuir.rmem>, memref<32x4xf8E5M2, #gpuir.rmem>
    }
  }
}

// -----

// ue4m3 scales are NVFP4's only.
gpuir.proc @p() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x16xf8E4M3FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x8xf8E4M3FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E4M3FN, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E4M3FN, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm120a.mma_block_scale' op ue4m3 scales (f8E4M3FN) scale blocks of 16 f4E2M1FN elements (NVFP4, m16n8k64); kind::mxf8f6f4 takes f8E8M0FNU scales}}
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) : memref<32x4xf32, #gpuir.rmem>, memref<32x16xf8E4M3FN, #gpuir.rmem>, memref<32x8xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E4M3FN, #gpuir.rmem>
    }
  }
}

// -----

// Two blocks per row: the byte pair starts at 0 or 2.
gpuir.proc @p() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x32xf4E2M1FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x16xf4E2M1FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm120a.mma_block_scale' op byte_id_a 1 does not start the 2 scale bytes of a row (one per block) within the lane's four: it must be 0 or 2}}
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) {byte_id_a = 1} : memref<32x4xf32, #gpuir.rmem>, memref<32x32xf4E2M1FN, #gpuir.rmem>, memref<32x16xf4E2M1FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
    }
  }
}

// -----

// Four blocks per row: all four bytes.
gpuir.proc @p() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x32xf4E2M1FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x16xf4E2M1FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E4M3FN, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E4M3FN, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm120a.mma_block_scale' op byte_id_b 2 does not start the 4 scale bytes of a row (one per block) within the lane's four: it must be 0}}
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) {byte_id_b = 2} : memref<32x4xf32, #gpuir.rmem>, memref<32x32xf4E2M1FN, #gpuir.rmem>, memref<32x16xf4E2M1FN, #gpuir.rmem>, memref<32x4xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E4M3FN, #gpuir.rmem>
    }
  }
}

// -----

// thread_id_a selects one of two lane pairs.
gpuir.proc @p() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x16xf8E4M3FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x8xf8E4M3FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      // expected-error @+1 {{custom op 'gpuir.sm120a.mma_block_scale' 'gpuir.sm120a.mma_block_scale' op attribute 'thread_id_a' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0 whose maximum value is 1}}
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) {thread_id_a = 2} : memref<32x4xf32, #gpuir.rmem>, memref<32x16xf8E4M3FN, #gpuir.rmem>, memref<32x8xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
    }
  }
}

// -----

// The accumulator is the warp's 32x4 f32 fragment.
gpuir.proc @p() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf16, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x16xf8E4M3FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x8xf8E4M3FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm120a.mma_block_scale' op parameter 'd' takes 'f32' elements, found 'f16'}}
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) : memref<32x4xf16, #gpuir.rmem>, memref<32x16xf8E4M3FN, #gpuir.rmem>, memref<32x8xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
    }
  }
}

// -----

// The scales are the lanes' four bytes.
gpuir.proc @p() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x16xf8E4M3FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x8xf8E4M3FN, #gpuir.rmem>
      %sfa = gpuir.alloc : memref<32x2xf8E8M0FNU, #gpuir.rmem>
      %sfb = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      // expected-error @+1 {{'gpuir.sm120a.mma_block_scale' op parameter 'sfa' takes a window of shape [32, 4], found [32, 2]}}
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) : memref<32x4xf32, #gpuir.rmem>, memref<32x16xf8E4M3FN, #gpuir.rmem>, memref<32x8xf8E4M3FN, #gpuir.rmem>, memref<32x2xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
    }
  }
}
