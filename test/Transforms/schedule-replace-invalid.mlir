// RUN: rake-opt %s -split-input-file --transform-interpreter -verify-diagnostics

// Every refusal of replace, with its exact message.

// A matrix product that differs from mma.sync in one index (B's register).
gpuir.proc @mma_one_index(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %D = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %Af = gpuir.alloc : memref<32x8xbf16, #gpuir.rmem>
      %Bf = gpuir.alloc : memref<32x4xbf16, #gpuir.rmem>
      gpuir.for %w = 0 to 1 : cuda_threads<#gpuir.unit<warp>> {
        // expected-error @+1 {{cannot replace the nest by 'gpuir.sm80.mma_sync': for d[0, 0] the instruction computes with b[0, 0], the nest with b[0, 1]}}
        gpuir.for %i = 0 to 16 : seq {
          gpuir.for %j = 0 to 8 : seq {
            gpuir.for %k = 0 to 16 : seq {
              %a = gpuir.read %Af[(%i mod 8) * 4 + (%k mod 8) floordiv 2, %k mod 2 + (%i floordiv 8) * 2 + (%k floordiv 8) * 4] : memref<32x8xbf16, #gpuir.rmem>
              %b = gpuir.read %Bf[%j * 4 + (%k mod 8) floordiv 2, (%k + 1) mod 2 + (%k floordiv 8) * 2] : memref<32x4xbf16, #gpuir.rmem>
              %ae = arith.extf %a : bf16 to f32
              %be = arith.extf %b : bf16 to f32
              %p = arith.mulf %ae, %be : f32
              // expected-note @+1 {{the nest's write of d[0, 0]}}
              gpuir.reduce %p, %D[(%i mod 8) * 4 + %j floordiv 2, (%i floordiv 8) * 2 + %j mod 2] : memref<32x4xf32, #gpuir.rmem>
            }
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.mma_sync" ["D", "Af", "Bf"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A copy that reverses the elements.
gpuir.proc @reversed(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          // expected-error @+1 {{cannot replace the nest by 'gpuir.sm80.cp_async': for dst[0] the instruction computes with src[0], the nest with src[7]}}
          gpuir.for %e = 0 to 8 : seq {
            %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
            // expected-note @+1 {{the nest's write of dst[0]}}
            gpuir.write %v, %As[%t, %c * 8 + 7 - %e] : memref<128x40xbf16, #gpuir.smem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A nest that leaves an element the instruction writes.
gpuir.proc @short_copy(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          // expected-error @+1 {{cannot replace the nest by 'gpuir.sm80.cp_async': for dst[3] the instruction writes src[3], the nest leaves it unchanged}}
          gpuir.for %e = 0 to 8 : seq {
            gpuir.if %e < 3 or %e > 3 {
              %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
              gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
            }
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Windows the instruction does not take (cp.async moves 4, 8 or 16 bytes; 7 bf16 are 14).
gpuir.proc @eight_bytes(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          // expected-error @+1 {{the nest cannot become 'gpuir.sm80.cp_async' on windows of its buffers: 'gpuir.sm80.cp_async' op copies 4, 8 or 16 bytes, found 14}}
          gpuir.for %e = 0 to 7 : seq {
            %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
            gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A buffer the nest accesses but the replacement does not take.
gpuir.proc @other_buffer(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          gpuir.for %e = 0 to 8 : seq {
            // expected-error @+1 {{the nest accesses A, which is not an operand of the replacement}}
            %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
            gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "As"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @not_instr(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          // expected-error @+1 {{'gpuir.fence' is not an instruction}}
          gpuir.for %e = 0 to 8 : seq {
            %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
            gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.fence" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @outer_bound(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          // expected-error @+1 {{the nest's loops need bounds that do not depend on values from outside it}}
          gpuir.for %e = 0 to %c + 8 : seq {
            %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
            gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A butterfly over the wrong distance: lane l takes l xor 8, the shuffle's
// offset says 16.
gpuir.proc @shuffle_offset(%n: index) {
  gpuir.device_function block(64) {
    gpuir.for %r = 0 to %n : cuda_tasks {
      %part = gpuir.alloc : memref<2x32xf32, #gpuir.rmem>
      %other = gpuir.alloc : memref<2x32xf32, #gpuir.rmem>
      gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
        // expected-error @+1 {{cannot replace the nest by 'gpuir.sm80.shfl_bfly': for dst[0] the instruction computes with src[16], the nest with src[8]}}
        gpuir.for %l = 0 to 32 : seq {
          %v = gpuir.read %part[%w, (%l + 8) mod 32] : memref<2x32xf32, #gpuir.rmem>
          // expected-note @+1 {{the nest's write of dst[0]}}
          gpuir.write %v, %other[%w, %l] : memref<2x32xf32, #gpuir.rmem>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "l" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %b = transform.gpuir.replace %l with "gpuir.sm80.shfl_bfly" ["other", "part"] attrs {offset = 16 : i64} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A warp's fragment has 32 lanes: a nest over 64 is not one shuffle.
gpuir.proc @shuffle_lanes(%n: index) {
  gpuir.device_function block(64) {
    gpuir.for %r = 0 to %n : cuda_tasks {
      %part = gpuir.alloc : memref<64xf32, #gpuir.rmem>
      %other = gpuir.alloc : memref<64xf32, #gpuir.rmem>
      gpuir.for %w = 0 to 1 : cuda_threads<#gpuir.unit<warp>> {
        // expected-error @+1 {{the nest reaches lanes 0 to 63 of other, a warp's fragment has lanes 0 to 31}}
        gpuir.for %l = 0 to 64 : seq {
          %v = gpuir.read %part[(%l + 16) mod 64] : memref<64xf32, #gpuir.rmem>
          gpuir.write %v, %other[%l] : memref<64xf32, #gpuir.rmem>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "l" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %b = transform.gpuir.replace %l with "gpuir.sm80.shfl_bfly" ["other", "part"] attrs {offset = 16 : i64} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A second access of A from a corner over another value (%Mt).
gpuir.proc @corner_other_value(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          gpuir.for %e = 0 to 8 : seq {
            %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
            gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
            // expected-error @+1 {{this access indexes A from another corner than the nest's first access of it}}
            %u = gpuir.read %A[%m * 128 + %t, %Mt + %e] : memref<?x32xbf16, #gpuir.gmem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A second access of A from another corner over the same values.
gpuir.proc @corner_other_expr(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          gpuir.for %e = 0 to 8 : seq {
            %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
            gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
            // expected-error @+1 {{this access indexes A from another corner than the nest's first access of it}}
            %u = gpuir.read %A[%m * 128 + %t, %c * 4 + %e] : memref<?x32xbf16, #gpuir.gmem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A condition over a loop outside the nest.
gpuir.proc @outer_condition(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          gpuir.for %e = 0 to 8 : seq {
            // expected-error @+1 {{the nest's conditions must not depend on values from outside it}}
            gpuir.if %c < 3 {
              %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
              gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
            }
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A fence in the nest.
gpuir.proc @fence_in_nest(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          gpuir.for %e = 0 to 8 : seq {
            %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
            gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
            // expected-error @+1 {{the nest to replace must not synchronize}}
            gpuir.fence cuda_in_order -> cuda_in_order
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An allocation in the nest.
gpuir.proc @alloc_in_nest(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          gpuir.for %e = 0 to 8 : seq {
            // expected-error @+1 {{a nest to replace holds loops, conditions, accesses and arithmetic; not 'gpuir.alloc'}}
            %r = gpuir.alloc : memref<1xbf16, #gpuir.rmem>
            %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
            gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An operand the nest does not access.
gpuir.proc @not_accessed(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}, %B: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          // expected-error @+1 {{the nest does not access B; each operand of the replacement is a buffer the nest accesses}}
          gpuir.for %e = 0 to 8 : seq {
            %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
            gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "B"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Accesses under a condition that never holds: the nest never reaches
// its operands when it runs.
gpuir.proc @never_reached(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          // expected-error @+1 {{the nest never reaches As when it runs (or names it twice); each operand is a buffer the nest accesses}}
          gpuir.for %e = 0 to 8 : seq {
            gpuir.if %e > 8 {
              %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
              gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
            }
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A parameter of a layout that is not strided: no window of it has a type.
gpuir.proc @no_strides(%A: memref<128x32xbf16, affine_map<(d0, d1) -> (d1, d0)>, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to 1 : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          // expected-error @+1 {{cannot make a window of A: it has no strides}}
          gpuir.for %e = 0 to 8 : seq {
            %v = gpuir.read %A[%t, %c * 8 + %e] : memref<128x32xbf16, affine_map<(d0, d1) -> (d1, d0)>, #gpuir.gmem>
            gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An instruction given fewer buffers than it takes is refused (and not
// asked for its parameters before it has its operands).
gpuir.proc @mma_one_buffer(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %D = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      gpuir.for %w = 0 to 1 : cuda_threads<#gpuir.unit<warp>> {
        // expected-error @+1 {{the nest cannot become 'gpuir.sm80.mma_sync' on windows of its buffers: 'gpuir.sm80.mma_sync' op expected 3 operands, but found 1}}
        gpuir.for %i = 0 to 32 : seq {
          gpuir.for %j = 0 to 4 : seq {
            %z = arith.constant 0.0 : f32
            gpuir.write %z, %D[%i, %j] : memref<32x4xf32, #gpuir.rmem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %mma = transform.gpuir.replace %i with "gpuir.sm80.mma_sync" ["D"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
