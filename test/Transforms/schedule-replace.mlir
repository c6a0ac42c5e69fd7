// RUN: rake-opt %s -split-input-file --transform-interpreter | FileCheck %s

// replace: a loop nest becomes an instruction when the two compute the same
// expression for every element (docs/Scheduling.md).

// A copy of 8 bf16 becomes cp.async; the windows' corners are what the
// indices take from outside the nest.
// CHECK-LABEL: gpuir.proc @copy
// CHECK:      gpuir.for %c = 0 to 4 : seq {
// CHECK-NEXT:   %[[D:.*]] = gpuir.window %As[%t, %c * 8 : %c * 8 + 8] : memref<128x40xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>
// CHECK-NEXT:   %[[S:.*]] = gpuir.window %A[%m * 128 + %t, %c * 8 : %c * 8 + 8] : memref<?x32xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
// CHECK-NEXT:   gpuir.sm80.cp_async %[[D]], %[[S]]
// CHECK-NEXT: }
gpuir.proc @copy(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
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
    %e = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    %cp = transform.gpuir.replace %e with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A 16 x 8 x 16 matrix product in natural order (rows, columns, then k),
// its operands in the mma.sync fragment layouts, becomes mma.sync: each
// element's sum runs over k in the same order as the instruction's.
// CHECK-LABEL: gpuir.proc @mma
// CHECK:      gpuir.for %w = 0 to 1 : cuda_threads<#gpuir.unit<warp>> {
// CHECK-NEXT:   %[[D:.*]] = gpuir.window %D[0 : 32, 0 : 4]
// CHECK-NEXT:   %[[A:.*]] = gpuir.window %Af[0 : 32, 0 : 8]
// CHECK-NEXT:   %[[B:.*]] = gpuir.window %Bf[0 : 32, 0 : 4]
// CHECK-NEXT:   gpuir.sm80.mma_sync %[[D]], %[[A]], %[[B]]
// CHECK-NEXT: }
gpuir.proc @mma(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %D = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %Af = gpuir.alloc : memref<32x8xbf16, #gpuir.rmem>
      %Bf = gpuir.alloc : memref<32x4xbf16, #gpuir.rmem>
      gpuir.for %w = 0 to 1 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %i = 0 to 16 : seq {
          gpuir.for %j = 0 to 8 : seq {
            gpuir.for %k = 0 to 16 : seq {
              %a = gpuir.read %Af[(%i mod 8) * 4 + (%k mod 8) floordiv 2, %k mod 2 + (%i floordiv 8) * 2 + (%k floordiv 8) * 4] : memref<32x8xbf16, #gpuir.rmem>
              %b = gpuir.read %Bf[%j * 4 + (%k mod 8) floordiv 2, %k mod 2 + (%k floordiv 8) * 2] : memref<32x4xbf16, #gpuir.rmem>
              %ae = arith.extf %a : bf16 to f32
              %be = arith.extf %b : bf16 to f32
              %p = arith.mulf %ae, %be : f32
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
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    %mma = transform.gpuir.replace %i with "gpuir.sm80.mma_sync" ["D", "Af", "Bf"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// ldmatrix.x4: a 16 x 16 tile of shared memory into the fragment registers
// of its four 8 x 8 matrices (lane 4 (r mod 8) + (c mod 8) / 2, register
// 2 (matrix) + c mod 2), written in the tile's natural order.
// CHECK-LABEL: gpuir.proc @ldm
// CHECK:      %[[D:.*]] = gpuir.window %Af[0 : 32, 0 : 8]
// CHECK-NEXT: %[[S:.*]] = gpuir.window %As[0 : 16, 0 : 16]
// CHECK-NEXT: gpuir.sm80.ldmatrix %[[D]], %[[S]] :
gpuir.proc @ldm(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %As = gpuir.alloc : memref<16x24xbf16, #gpuir.smem>
      %Af = gpuir.alloc : memref<32x8xbf16, #gpuir.rmem>
      gpuir.for %w = 0 to 1 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %r = 0 to 16 : seq {
          gpuir.for %c = 0 to 16 : seq {
            %v = gpuir.read %As[%r, %c] : memref<16x24xbf16, #gpuir.smem>
            gpuir.write %v, %Af[(%r mod 8) * 4 + (%c mod 8) floordiv 2, ((%r floordiv 8) + (%c floordiv 8) * 2) * 2 + %c mod 2] : memref<32x8xbf16, #gpuir.rmem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.gpuir.loop "r" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.gpuir.replace %r with "gpuir.sm80.ldmatrix" ["Af", "As"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Shuffles: a nest that moves each lane's value from another lane becomes
// shfl.sync; lane l of a butterfly takes lane l xor 16, (l + 16) mod 32 over
// the 32 lanes; shfl_down keeps its own value past lane 31 (the else).
// CHECK-LABEL: gpuir.proc @shuffles
// CHECK:      gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
// CHECK-NEXT:   %[[O:.*]] = gpuir.window %other[%w, 0 : 32]
// CHECK-NEXT:   %[[P:.*]] = gpuir.window %part[%w, 0 : 32]
// CHECK-NEXT:   gpuir.sm80.shfl_bfly %[[O]], %[[P]], 16
// CHECK-NEXT:   %[[O2:.*]] = gpuir.window %other[%w, 0 : 32]
// CHECK-NEXT:   %[[P2:.*]] = gpuir.window %part[%w, 0 : 32]
// CHECK-NEXT:   gpuir.sm80.shfl_down %[[O2]], %[[P2]], 8
// CHECK-NEXT: }
gpuir.proc @shuffles(%n: index) {
  gpuir.device_function block(64) {
    gpuir.for %r = 0 to %n : cuda_tasks {
      %part = gpuir.alloc : memref<2x32xf32, #gpuir.rmem>
      %other = gpuir.alloc : memref<2x32xf32, #gpuir.rmem>
      gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %l = 0 to 32 : seq {
          %v = gpuir.read %part[%w, (%l + 16) mod 32] : memref<2x32xf32, #gpuir.rmem>
          gpuir.write %v, %other[%w, %l] : memref<2x32xf32, #gpuir.rmem>
        }
        gpuir.for %d = 0 to 32 : seq {
          gpuir.if %d + 8 < 32 {
            %v = gpuir.read %part[%w, %d + 8] : memref<2x32xf32, #gpuir.rmem>
            gpuir.write %v, %other[%w, %d] : memref<2x32xf32, #gpuir.rmem>
          } else {
            %v = gpuir.read %part[%w, %d] : memref<2x32xf32, #gpuir.rmem>
            gpuir.write %v, %other[%w, %d] : memref<2x32xf32, #gpuir.rmem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.gpuir.loop "l" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.gpuir.replace %l with "gpuir.sm80.shfl_bfly" ["other", "part"] attrs {offset = 16 : i64} : (!transform.any_op) -> !transform.any_op
    %d = transform.gpuir.loop "d" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.gpuir.replace %d with "gpuir.sm80.shfl_down" ["other", "part"] attrs {offset = 8 : i64} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A refused replace leaves the program as it was: the window of As made
// before A (without strides) refused it is taken away again.
// CHECK-LABEL: gpuir.proc @refused_unchanged
// CHECK-NOT:   gpuir.window
// CHECK:       gpuir.for %e = 0 to 8 : seq {
// CHECK-NOT:   gpuir.window
gpuir.proc @refused_unchanged(%Mt: index, %A: memref<128x32xbf16, affine_map<(d0, d1) -> (d1, d0)>, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to 1 : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
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
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r0: !transform.any_op):
      %l = transform.gpuir.loop "e" in %r0 : (!transform.any_op) -> !transform.any_op
      %r = transform.gpuir.replace %l with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    }
    transform.yield
  }
}
