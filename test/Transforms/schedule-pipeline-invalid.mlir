// RUN: rake-opt %s -split-input-file --transform-interpreter -verify-diagnostics

// The refusals of skew and permute_loops, with their exact messages.

// A one-slot buffer: skewing the read by one iteration would let the next
// write overwrite the slot first.
gpuir.proc @skew_overwrite(%n: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>, %R: memref<1xf32, #gpuir.host>) {
  gpuir.for %k = 0 to %n : seq {
    %v = gpuir.read %X[%k] : memref<?xf32, #gpuir.host>
    // expected-error @+2 {{cannot delay the statements after this one by 1 iterations of %k: the read of R after it and the write of R before it reach one element within 1 iterations}}
    // expected-note @+1 {{the write of R}}
    gpuir.write %v, %R[0] : memref<1xf32, #gpuir.host>
    // expected-note @+1 {{the read of R}}
    %w = gpuir.read %R[0] : memref<1xf32, #gpuir.host>
    gpuir.write %w, %Y[%k] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.structured.match ops{["gpuir.write"]} in %root : (!transform.any_op) -> !transform.any_op
    %w1, %w2 = transform.split_handle %w : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-note @+1 {{refused by this transform}}
    %l = transform.gpuir.skew %w1 by 1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @skew_value(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %k = 0 to %n : seq {
    // expected-error @+1 {{cannot delay the statements after this one: one of them uses a value or buffer made before it (in its own iteration)}}
    %v = gpuir.read %X[%k] : memref<?xf32, #gpuir.host>
    // expected-note @+1 {{the use}}
    gpuir.write %v, %X[%k] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %l = transform.gpuir.skew %r by 1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @skew_last(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %k = 0 to %n : seq {
    // expected-error @+1 {{skew delays the statements after this one; it is the last of the loop}}
    %v = gpuir.read %X[%k] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %l = transform.gpuir.skew %r by 1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @permute_not_perfect(%X: memref<2x3xf32, #gpuir.host>) {
  gpuir.for %i = 0 to 2 : seq {
    // expected-error @+1 {{permute_loops needs a perfect nest of 3 loops; the loop over %j holds something else than one gpuir.for}}
    gpuir.for %j = 0 to 3 : seq {
      %v = gpuir.read %X[%i, %j] : memref<2x3xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %p = transform.gpuir.permute_loops %i [2, 0, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A permutation that needs an interchange the dependence forbids.
gpuir.proc @permute_dependence(%n: index, %X: memref<?x?xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot reorder the loops over %i and %j: the write of X and the read of X reach one element in iterations whose order the interchange reverses}}
  gpuir.for %i = 1 to %n : seq {
    gpuir.for %j = 0 to %n - 1 : seq {
      // expected-note @+1 {{the read of X}}
      %v = gpuir.read %X[%i - 1, %j + 1] : memref<?x?xf32, #gpuir.host>
      // expected-note @+1 {{the write of X}}
      gpuir.write %v, %X[%i, %j] : memref<?x?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %p = transform.gpuir.permute_loops %i [1, 0] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
