// RUN: rake-opt %s -split-input-file --transform-interpreter | FileCheck %s

// skew, permute_loops, stage_mem over several statements without a copy-in,
// and simplify's removal of guards that always hold.

// skew: the reads of a two-slot ring run one iteration after its writes.
// CHECK-LABEL: gpuir.proc @skew
// CHECK:      gpuir.for %k = 0 to %n + 1 : seq {
// CHECK-NEXT:   gpuir.if %k < %n {
// CHECK-NEXT:     %[[V:.*]] = gpuir.read %X[%k]
// CHECK-NEXT:     gpuir.write %[[V]], %R[%k mod 2]
// CHECK-NEXT:   }
// CHECK-NEXT:   gpuir.if %k >= 1 {
// CHECK-NEXT:     %[[W:.*]] = gpuir.read %R[(%k + 1) mod 2]
// CHECK-NEXT:     gpuir.write %[[W]], %Y[%k - 1]
gpuir.proc @skew(%n: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>, %R: memref<2xf32, #gpuir.host>) {
  gpuir.for %k = 0 to %n : seq {
    %v = gpuir.read %X[%k] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %R[%k mod 2] : memref<2xf32, #gpuir.host>
    %w = gpuir.read %R[%k mod 2] : memref<2xf32, #gpuir.host>
    gpuir.write %w, %Y[%k] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.structured.match ops{["gpuir.write"]} in %root : (!transform.any_op) -> !transform.any_op
    %w1, %w2 = transform.split_handle %w : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %l = transform.gpuir.skew %w1 by 1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// permute_loops: a nest of three reordered by checked interchanges.
// CHECK-LABEL: gpuir.proc @permute
// CHECK:      gpuir.for %k = 0 to 4 : seq {
// CHECK-NEXT:   gpuir.for %i = 0 to 2 : seq {
// CHECK-NEXT:     gpuir.for %j = 0 to 3 : seq {
// CHECK-NEXT:       gpuir.read %X[%i, %j, %k]
gpuir.proc @permute(%X: memref<2x3x4xf32, #gpuir.host>) {
  gpuir.for %i = 0 to 2 : seq {
    gpuir.for %j = 0 to 3 : seq {
      gpuir.for %k = 0 to 4 : seq {
        %v = gpuir.read %X[%i, %j, %k] : memref<2x3x4xf32, #gpuir.host>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.gpuir.permute_loops %i [2, 0, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// stage_mem through two statements: the first writes the whole window, so
// there is no copy-in; the copy-out follows the second.
// CHECK-LABEL: gpuir.proc @accumulate
// CHECK:      %acc = gpuir.alloc : memref<4xf32, #gpuir.host>
// CHECK-NEXT: gpuir.for %z = 0 to 4 : seq {
// CHECK:        gpuir.write %{{.*}}, %acc[%z]
// CHECK:      gpuir.for %k = 0 to %n : seq {
// CHECK:        gpuir.reduce %{{.*}}, %acc[%j]
// CHECK:      gpuir.for %acc0 = 0 to 4 : seq {
// CHECK-NEXT:   %[[V:.*]] = gpuir.read %acc[%acc0]
// CHECK-NEXT:   gpuir.write %[[V]], %S[%b * 4 + %acc0]
gpuir.proc @accumulate(%n: index, %X: memref<?x8xf32, #gpuir.host>, %S: memref<8xf32, #gpuir.host>) {
  gpuir.for %b = 0 to 2 : seq {
    gpuir.for %z = 0 to 4 : seq {
      %c = arith.constant 0.0 : f32
      gpuir.write %c, %S[%b * 4 + %z] : memref<8xf32, #gpuir.host>
    }
    gpuir.for %k = 0 to %n : seq {
      gpuir.for %j = 0 to 4 : seq {
        %v = gpuir.read %X[%k, %b * 4 + %j] : memref<?x8xf32, #gpuir.host>
        gpuir.reduce %v, %S[%b * 4 + %j] : memref<8xf32, #gpuir.host>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %z = transform.gpuir.loop "z" in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.gpuir.loop "k" in %root : (!transform.any_op) -> !transform.any_op
    %a, %c = transform.gpuir.stage_mem %z through %k "S" [4] #gpuir.host as "acc" : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// simplify removes a guard that holds at every iteration around it (and
// keeps one that does not).
// CHECK-LABEL: gpuir.proc @true_guard
// CHECK:      gpuir.for %i = 0 to 8 : seq {
// CHECK-NEXT:   gpuir.read %X[%i]
// CHECK-NEXT:   gpuir.if %i < 4 {
gpuir.proc @true_guard(%X: memref<8xf32, #gpuir.host>) {
  gpuir.for %i = 0 to 8 : seq {
    gpuir.if %i < 8 {
      %v = gpuir.read %X[%i] : memref<8xf32, #gpuir.host>
    }
    gpuir.if %i < 4 {
      %w = gpuir.read %X[%i] : memref<8xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["gpuir.proc"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %p : !transform.any_op
    transform.yield
  }
}
