// The layout rewrites and the remaining loop rewrites: divide_dim,
// rearrange_dim, expand_dim, lift_alloc, mult_dim, cut_loop, add_loop (this
// file), fuse, mult_loops and inline_window (the chunks after it).
//
// RUN: rake-opt %S/Inputs/layouts.mlir --transform-preload-library=transform-library-paths=%s --transform-interpreter -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
//
// The sequential meaning is unchanged (X, read and written, has the same
// checksum):
// RUN: rake-run --seq %S/Inputs/layouts.mlir --sizes=n=3 --shape=X=192 | grep checksum > %t.before
// RUN: rake-run --seq %t.mlir --sizes=n=3 --shape=X=192 | grep checksum > %t.after
// RUN: diff %t.before %t.after

// CHECK:      %t = gpuir.alloc : memref<2x64xf32, #gpuir.host>
// CHECK-NEXT: gpuir.for %k = 0 to %n : seq {
// CHECK-NEXT:   gpuir.for %e = 0 to 8 : seq {
// CHECK-NEXT:     %[[V:.*]] = gpuir.read %X[%k * 64 + %e]
// CHECK-NEXT:     gpuir.write %[[V]], %t[%k mod 2, (%e mod 8) * 8 + %e floordiv 8] : memref<2x64xf32, #gpuir.host>
// CHECK-NEXT:   }
// CHECK-NEXT:   gpuir.for %e = 8 to 64 : seq {
// CHECK:        gpuir.for %r = 0 to 4 : seq {
// CHECK-NEXT:     gpuir.if %r == 0 {
// CHECK-NEXT:       gpuir.for %f = 0 to 64 : seq {
// CHECK-NEXT:         gpuir.read %t[%k mod 2, ((-%f + 63) mod 8) * 8 + (-%f + 63) floordiv 8]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.divide_dim %a 0 by 8 : !transform.any_op
    transform.gpuir.rearrange_dim %a [1, 0] : !transform.any_op
    transform.gpuir.expand_dim %a 2 index(affine_map<(k) -> (k mod 2)>) of ["k"] : !transform.any_op
    transform.gpuir.lift_alloc %a : !transform.any_op
    transform.gpuir.mult_dim %a 1 : !transform.any_op
    %e = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    %e1, %e2 = transform.gpuir.cut_loop %e at 8 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.gpuir.loop "f" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.gpuir.add_loop %f 4 name("r") : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
