// RUN: rake-opt %s -split-input-file --transform-interpreter -verify-diagnostics

// Rewrites refuse what they cannot decide exactly (an adversarial review of
// the scheduling language found each accepted, or crashing): the rewrites
// decide over unbounded integers while 64-bit index arithmetic wraps, so
// constants and iteration counts of 2^31 or more are refused; and arguments
// out of range.

// Reordering loops whose writes collide only under 64-bit wrapping (i * (2^63 - 1) - j + 4: iterations (0, 2) and (2, 0) write element 2 after the wrap; over the integers they do not).
gpuir.proc @w(%X: memref<8xf32, #gpuir.host>, %Y: memref<9xf32, #gpuir.host>) {
  gpuir.for %i = 0 to 3 : seq {
    gpuir.for %j = 0 to 3 : seq {
      gpuir.if %i mod 2 == 0 {
        %v = gpuir.read %Y[%i * 3 + %j] : memref<9xf32, #gpuir.host>
        // expected-error @+1 {{the rewrite decides dependences over unbounded integers; this access's control expressions (or the loops and guards around it) have a constant of 2^31 or more, with which 64-bit index arithmetic may wrap}}
        gpuir.write %v, %X[%i * 9223372036854775807 - %j + 4] : memref<8xf32, #gpuir.host>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %b = transform.gpuir.reorder_loops %i : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A cut after 2^63 - 8 iterations: lo + n would wrap.
gpuir.proc @s(%n: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n)>}, %Y: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n)>}) attributes {gpuir.check_sizes = [{n = 37}]} {
  // expected-error @+1 {{cut_loop cuts after fewer than 2^31 iterations: the new bounds are decided over unbounded integers, and 64-bit index arithmetic could wrap at 9223372036854775800}}
  gpuir.for %i = 10 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %Y[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %b = transform.gpuir.cut_loop %i at 9223372036854775800 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A skew by 2^63 - 8: the new bound would wrap.
gpuir.proc @s(%n: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n)>}, %Y: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n)>}, %Z: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n)>}) attributes {gpuir.check_sizes = [{n = 16}]} {
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    // expected-error @+1 {{skew delays by fewer than 2^31 iterations: the new bounds are decided over unbounded integers, and 64-bit index arithmetic could wrap at 9223372036854775800}}
    gpuir.write %v, %Y[%i] : memref<?xf32, #gpuir.host>
    %c = arith.constant 3.0 : f32
    gpuir.write %c, %Z[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ws = transform.structured.match ops{["gpuir.write"]} in %root : (!transform.any_op) -> !transform.any_op
    %w1, %w2 = transform.split_handle %ws : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-note @+1 {{refused by this transform}}
    %l = transform.gpuir.skew %w1 by 9223372036854775800 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A negative padding: the staged buffer would be smaller than the window.
gpuir.proc @s(%X: memref<8xf32, #gpuir.host>, %Y: memref<8xf32, #gpuir.host>) {
  // expected-error @+1 {{stage_mem pads each dimension by a non-negative number of elements; dimension 0 has padding -6}}
  gpuir.for %i = 0 to 8 : seq {
    %v = gpuir.read %X[%i] : memref<8xf32, #gpuir.host>
    gpuir.write %v, %Y[7 - %i] : memref<8xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %t, %c = transform.gpuir.stage_mem %i "X" [8] #gpuir.host as "tile" padding [-6] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A negative dimension (before, it wrapped as unsigned and crashed rake-opt).
gpuir.proc @m(%X: memref<8xf32, #gpuir.host>) {
  // expected-error @+1 {{mult_dim merges dimensions -1 and 0; t has 2}}
  %t = gpuir.alloc : memref<2x4xf32, #gpuir.host>
  gpuir.for %i = 0 to 2 : seq {
    gpuir.for %j = 0 to 4 : seq {
      %v = gpuir.read %X[%i * 4 + %j] : memref<8xf32, #gpuir.host>
      gpuir.write %v, %t[%i, %j] : memref<2x4xf32, #gpuir.host>
    }
  }
  gpuir.for %k = 0 to 8 : seq {
    %v = gpuir.read %t[%k floordiv 4, %k mod 4] : memref<2x4xf32, #gpuir.host>
    gpuir.write %v, %X[7 - %k] : memref<8xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.mult_dim %a -1 : !transform.any_op
    transform.yield
  }
}
