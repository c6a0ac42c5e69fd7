// RUN: rake-opt %s -split-input-file --transform-interpreter | FileCheck %s

// The loop rewrites of the scheduling language (docs/Scheduling.md): each
// keeps the sequential meaning; these are the results users rely on.

// divide_loop, perfect: %Mt * 128 is a multiple of 128 for every %Mt, so
// no tail; %i becomes %io * 128 + %ii.
// CHECK-LABEL: gpuir.proc @divide_perfect
// CHECK:      gpuir.for %io = 0 to %Mt : seq {
// CHECK-NEXT:   gpuir.for %ii = 0 to 128 : seq {
// CHECK-NEXT:     %[[V:.*]] = gpuir.read %X[%io * 128 + %ii] : memref<?xf32, #gpuir.host>
// CHECK-NEXT:     gpuir.write %[[V]], %Y[%io * 128 + %ii] : memref<?xf32, #gpuir.host>
// CHECK-NEXT:   }
// CHECK-NEXT: }
gpuir.proc @divide_perfect(%Mt: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %Mt * 128 : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %Y[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    %o, %n = transform.gpuir.divide_loop %i by 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// divide_loop, guard, with names and a lower bound: the outer loop covers
// the partial block and the body runs only below the old upper bound.
// CHECK-LABEL: gpuir.proc @divide_guard
// CHECK:      gpuir.for %t = 0 to (%n - 1) ceildiv 32 : seq {
// CHECK-NEXT:   gpuir.for %l = 0 to 32 : seq {
// CHECK-NEXT:     gpuir.if %t * 32 + %l + 1 < %n {
// CHECK-NEXT:       gpuir.read %X[%t * 32 + %l + 1]
gpuir.proc @divide_guard(%n: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 1 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %Y[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    %o, %n = transform.gpuir.divide_loop %i by 32 tail(guard) names("t", "l") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// divide_loop, cut: the whole blocks, then the rest in a copy of the loop
// (guarded by %i >= 0 where %n may be negative: the tail would start below
// the loop's lower bound).
// CHECK-LABEL: gpuir.proc @divide_cut
// CHECK:      gpuir.for %io = 0 to %n floordiv 8 : seq {
// CHECK-NEXT:   gpuir.for %ii = 0 to 8 : seq {
// CHECK-NEXT:     gpuir.read %X[%io * 8 + %ii]
// CHECK:      gpuir.for %i = (%n floordiv 8) * 8 to %n : seq {
// CHECK-NEXT:   gpuir.if %i >= 0 {
// CHECK-NEXT:     gpuir.read %X[%i]
gpuir.proc @divide_cut(%n: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %Y[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    %o, %n = transform.gpuir.divide_loop %i by 8 tail(cut) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// reorder_loops on a GEMM: the k loop moves out of the j loop. Reductions
// into one element of C keep their order (k increasing), so the result is
// bit for bit the same; each loop keeps its variable and mode.
// CHECK-LABEL: gpuir.proc @reorder_gemm
// CHECK:      gpuir.for %i = 0 to %M : seq {
// CHECK-NEXT:   gpuir.for %k = 0 to %K : seq {
// CHECK-NEXT:     gpuir.for %j = 0 to %N : seq {
// CHECK-NEXT:       gpuir.read %A[%i, %k]
// CHECK-NEXT:       gpuir.read %B[%k, %j]
// CHECK-NEXT:       arith.mulf
// CHECK-NEXT:       gpuir.reduce %{{.*}}, %C[%i, %j]
gpuir.proc @reorder_gemm(%M: index, %N: index, %K: index, %A: memref<?x?xf32, #gpuir.host>, %B: memref<?x?xf32, #gpuir.host>, %C: memref<?x?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %M : seq {
    gpuir.for %j = 0 to %N : seq {
      gpuir.for %k = 0 to %K : seq {
        %a = gpuir.read %A[%i, %k] : memref<?x?xf32, #gpuir.host>
        %b = gpuir.read %B[%k, %j] : memref<?x?xf32, #gpuir.host>
        %p = arith.mulf %a, %b : f32
        gpuir.reduce %p, %C[%i, %j] : memref<?x?xf32, #gpuir.host>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %j = transform.gpuir.loop "j" in %root : (!transform.any_op) -> !transform.any_op
    %o, %n = transform.gpuir.reorder_loops %j : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// reorder_stmts: two statements on different buffers swap; so do a write
// and a read of distinct elements of one buffer (X[2i] and X[2i + 1]).
// CHECK-LABEL: gpuir.proc @reorder_stmts
// CHECK:      gpuir.write %{{.*}}, %Y[%i]
// CHECK-NEXT: gpuir.write %{{.*}}, %X[%i * 2]
// CHECK-NEXT: gpuir.read %X[%i * 2 + 1]
gpuir.proc @reorder_stmts(%n: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %c = arith.constant 1.0 : f32
    gpuir.write %c, %X[%i * 2] : memref<?xf32, #gpuir.host>
    gpuir.write %c, %Y[%i] : memref<?xf32, #gpuir.host>
    %v = gpuir.read %X[%i * 2 + 1] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.structured.match ops{["gpuir.write"]} in %root : (!transform.any_op) -> !transform.any_op
    %first, %second = transform.split_handle %w : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.gpuir.reorder_stmts %first : !transform.any_op
    transform.yield
  }
}

// -----

// fission: for %i { X[i] = 0; Y[i] = X[i] } splits (each iteration of the
// second part reads what the same iteration of the first wrote).
// CHECK-LABEL: gpuir.proc @fission
// CHECK:      gpuir.for %i = 0 to %n : seq {
// CHECK-NEXT:   arith.constant
// CHECK-NEXT:   gpuir.write %{{.*}}, %X[%i]
// CHECK-NEXT: }
// CHECK-NEXT: gpuir.for %i = 0 to %n : seq {
// CHECK-NEXT:   gpuir.read %X[%i]
// CHECK-NEXT:   gpuir.write %{{.*}}, %Y[%i]
// CHECK-NEXT: }
gpuir.proc @fission(%n: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %c = arith.constant 0.0 : f32
    gpuir.write %c, %X[%i] : memref<?xf32, #gpuir.host>
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %Y[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.structured.match ops{["gpuir.write"]} in %root : (!transform.any_op) -> !transform.any_op
    %first, %second = transform.split_handle %w : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %a, %b = transform.gpuir.fission %first : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// unroll: one copy of the body per iteration, the variable replaced by its
// value.
// CHECK-LABEL: gpuir.proc @unroll
// CHECK:      gpuir.for %i = 0 to %n : seq {
// CHECK-NEXT:   gpuir.read %X[%i * 2]
// CHECK-NEXT:   gpuir.write %{{.*}}, %Y[%i * 2]
// CHECK-NEXT:   gpuir.read %X[%i * 2 + 1]
// CHECK-NEXT:   gpuir.write %{{.*}}, %Y[%i * 2 + 1]
// CHECK-NEXT: }
gpuir.proc @unroll(%n: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    gpuir.for %j = 0 to 2 : seq {
      %v = gpuir.read %X[%i * 2 + %j] : memref<?xf32, #gpuir.host>
      gpuir.write %v, %Y[%i * 2 + %j] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %j = transform.gpuir.loop "j" in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.unroll %j : !transform.any_op
    transform.yield
  }
}

// -----

// set_loop_mode: a vector add made parallel, tasks and threads.
// CHECK-LABEL: gpuir.proc @modes
// CHECK:      gpuir.for %io = 0 to %n : cuda_tasks {
// CHECK-NEXT:   gpuir.for %ii = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
gpuir.proc @modes(%n: index, %X: memref<?xf32, #gpuir.gmem>, %Y: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %i = 0 to %n * 256 : cuda_tasks {
      %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.gmem>
      gpuir.write %v, %Y[%i] : memref<?xf32, #gpuir.gmem>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    %o, %n = transform.gpuir.divide_loop %i by 256 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.gpuir.set_loop_mode %n cuda_threads<#gpuir.unit<thread>> : !transform.any_op
    transform.yield
  }
}

// -----

// simplify: expressions in MLIR's simplified form, unused operands dropped.
// CHECK-LABEL: gpuir.proc @simplify
// CHECK: gpuir.read %X[%i * 4]
gpuir.proc @simplify(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i * 2 + %i * 2 + %n - %n] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["gpuir.proc"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %p : !transform.any_op
    transform.yield
  }
}

// -----

// simplify divides the terms that are multiples of the divisor and drops
// the division of the rest where the loops' bounds keep it in one block:
// with 0 <= %e < 8, (%j * 16 + %c * 8 + %e) floordiv 8 is %j * 2 + %c and
// its mod 16 is %c * 8 + %e; with %e unbounded only the multiples leave.
// CHECK-LABEL: gpuir.proc @simplify_multiples
// CHECK:      gpuir.read %X[%j * 2 + %c, %c * 8 + %e]
// CHECK-NEXT: gpuir.read %X[%j * 2 + %n floordiv 8, %n mod 8]
gpuir.proc @simplify_multiples(%n: index, %X: memref<?x?xf32, #gpuir.host>) {
  gpuir.for %j = 0 to %n : seq {
    gpuir.for %c = 0 to 2 : seq {
      gpuir.for %e = 0 to 8 : seq {
        %v = gpuir.read %X[(%j * 16 + %c * 8 + %e) floordiv 8, (%j * 16 + %c * 8 + %e) mod 16] : memref<?x?xf32, #gpuir.host>
        %w = gpuir.read %X[(%j * 16 + %n) floordiv 8, (%j * 16 + %n) mod 8] : memref<?x?xf32, #gpuir.host>
      }
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
