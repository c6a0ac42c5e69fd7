// RUN: rake-opt %s -split-input-file --transform-interpreter | FileCheck %s

// fuse, mult_loops, inline_window, and cut_loop where the loop may run
// fewer iterations than the cut (the first part is guarded).

// CHECK-LABEL: gpuir.proc @fuse
// CHECK:      gpuir.for %i = 0 to %n : seq {
// CHECK-NEXT:   arith.constant
// CHECK-NEXT:   gpuir.write %{{.*}}, %X[%i]
// CHECK-NEXT:   %[[V:.*]] = gpuir.read %X[%i]
// CHECK-NEXT:   gpuir.write %[[V]], %Y[%i]
// CHECK-NEXT: }
// CHECK-NEXT: }
gpuir.proc @fuse(%n: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %c = arith.constant 0.0 : f32
    gpuir.write %c, %X[%i] : memref<?xf32, #gpuir.host>
  }
  gpuir.for %j = 0 to %n : seq {
    %v = gpuir.read %X[%j] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %Y[%j] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.gpuir.fuse %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: gpuir.proc @mult
// CHECK:      gpuir.for %t = 0 to %n * 32 : seq {
// CHECK-NEXT:   gpuir.read %X[%t floordiv 32, %t mod 32]
gpuir.proc @mult(%n: index, %X: memref<?x32xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    gpuir.for %j = 0 to 32 : seq {
      %v = gpuir.read %X[%i, %j] : memref<?x32xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.gpuir.mult_loops %i name("t") : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: gpuir.proc @inline_window
// CHECK-NOT:  gpuir.window
// CHECK:      gpuir.read %X[%i, %j + 4]
gpuir.proc @inline_window(%n: index, %X: memref<?x32xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %w = gpuir.window %X[%i, 4 : 12] : memref<?x32xf32, #gpuir.host> -> memref<8xf32, strided<[1], offset: ?>, #gpuir.host>
    gpuir.for %j = 0 to 8 : seq {
      %v = gpuir.read %w[%j] : memref<8xf32, strided<[1], offset: ?>, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.structured.match ops{["gpuir.window"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.inline_window %w : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: gpuir.proc @cut_guarded
// CHECK:      gpuir.for %k = 0 to 2 : seq {
// CHECK-NEXT:   gpuir.if %k < %n {
// CHECK-NEXT:     gpuir.read %X[%k]
// CHECK:      gpuir.for %k = 2 to %n : seq {
// CHECK-NEXT:   gpuir.read %X[%k]
gpuir.proc @cut_guarded(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %k = 0 to %n : seq {
    %v = gpuir.read %X[%k] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.gpuir.loop "k" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.gpuir.cut_loop %k at 2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
