// RUN: rake-opt %s -split-input-file --transform-interpreter -verify-diagnostics

// Every refusal of the loop rewrites, with its exact message: rewrites that
// would change the sequential meaning, and rewrites that do not apply.

// A loop whose trip count is not a multiple of the factor for every size,
// divided without a tail strategy.
gpuir.proc @not_a_multiple(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot divide the loop over %i by 128 perfectly: its trip count n is not a multiple of 128 for every value of its parameters; use tail(guard) or tail(cut)}}
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %o, %n = transform.gpuir.divide_loop %i by 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A multiple of 64 is not always one of 128.
gpuir.proc @half_multiple(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot divide the loop over %i by 128 perfectly: its trip count n * 64 is not a multiple of 128 for every value of its parameters; use tail(guard) or tail(cut)}}
  gpuir.for %i = 0 to %n * 64 : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %o, %n = transform.gpuir.divide_loop %i by 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// An interchange that reverses a dependence: iteration (i, j) reads what
// (i - 1, j + 1) wrote.
gpuir.proc @interchange_dependence(%n: index, %X: memref<?x?xf32, #gpuir.host>) {
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
    %o, %n = transform.gpuir.reorder_loops %i : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Reductions into one element keep their order: a sum over a matrix in
// row order would become a sum in column order, other bits in floating
// point.
gpuir.proc @reduction_order(%n: index, %X: memref<?x?xf32, #gpuir.host>, %S: memref<1xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot reorder the loops over %i and %j: the reduction into S reaches one element in iterations whose order the interchange reverses}}
  gpuir.for %i = 0 to %n : seq {
    gpuir.for %j = 0 to %n : seq {
      %v = gpuir.read %X[%i, %j] : memref<?x?xf32, #gpuir.host>
      // expected-note @+1 {{the reduction into S}}
      gpuir.reduce %v, %S[0] : memref<1xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %o, %n = transform.gpuir.reorder_loops %i : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Loops that are not perfectly nested.
gpuir.proc @not_perfect(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot reorder the loop over %i: its body must be exactly one gpuir.for (the loops must be perfectly nested)}}
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    gpuir.for %j = 0 to %n : seq {
      %c = arith.constant 0.0 : f32
      gpuir.write %c, %X[%j] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %o, %n = transform.gpuir.reorder_loops %i : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A triangular nest: the inner bound uses the outer variable.
gpuir.proc @triangular(%n: index, %X: memref<?x?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    // expected-error @+1 {{cannot reorder the loops over %i and %j: the bounds of %j use %i}}
    gpuir.for %j = 0 to %i : seq {
      %v = gpuir.read %X[%i, %j] : memref<?x?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %o, %n = transform.gpuir.reorder_loops %i : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Reordering dependent statements: a write, then a loop that reads the
// element it wrote.
gpuir.proc @dependent_stmts(%n: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>) {
  %c = arith.constant 1.0 : f32
  // expected-error @+2 {{cannot swap this statement with the next: the write of X and the read of X reach one element, so their order matters}}
  // expected-note @+1 {{the write of X}}
  gpuir.write %c, %X[%n] : memref<?xf32, #gpuir.host>
  gpuir.for %i = 0 to %n + 1 : seq {
    // expected-note @+1 {{the read of X}}
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %Y[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.structured.match ops{["gpuir.write"]} in %root : (!transform.any_op) -> !transform.any_op
    %first, %second = transform.split_handle %w : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.reorder_stmts %first : !transform.any_op
    transform.yield
  }
}

// -----

// A statement whose value the next one uses.
gpuir.proc @uses_value(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot swap this statement with the next: the next uses a value it makes}}
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
  // expected-note @+1 {{the use}}
  gpuir.write %v, %X[1] : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.reorder_stmts %r : !transform.any_op
    transform.yield
  }
}

// -----

// Fission that would run a later iteration's write before an earlier
// iteration's read: iteration i reads X[i + 1], which iteration i + 1
// writes.
gpuir.proc @fission_dependence(%n: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %c = arith.constant 0.0 : f32
    // expected-error @+2 {{cannot split the loop over %i after this statement: the read of X after it and the write of X before it reach one element in different iterations, and splitting would run the later iteration's first}}
    // expected-note @+1 {{the write of X}}
    gpuir.write %c, %X[%i] : memref<?xf32, #gpuir.host>
    // expected-note @+1 {{the read of X}}
    %v = gpuir.read %X[%i + 1] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %Y[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.structured.match ops{["gpuir.write"]} in %root : (!transform.any_op) -> !transform.any_op
    %first, %second = transform.split_handle %w : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-note @+1 {{refused by this transform}}
    %a, %b = transform.gpuir.fission %first : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Fission across a value: the second loop would use a value of the first.
gpuir.proc @fission_value(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    // expected-note @+1 {{made here}}
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    // expected-error @+1 {{cannot split the loop over %i after this statement: a statement after it uses a value or buffer made before it (move the allocation out of the loop first)}}
    %c = arith.constant 0.0 : f32
    // expected-note @+1 {{the use}}
    gpuir.write %v, %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["arith.constant"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %b = transform.gpuir.fission %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

gpuir.proc @unroll_dynamic(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot unroll the loop over %i: its bounds are not constants (divide it first)}}
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.unroll %i : !transform.any_op
    transform.yield
  }
}

// -----

// A mode where GpuIR does not allow it: device tasks at CPU scope.
gpuir.proc @tasks_on_cpu(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot set the mode of the loop over %i: cuda_tasks loops appear only as the nest that forms the body of a gpuir.device_function; found one inside 'gpuir.proc'}}
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.set_loop_mode %i cuda_tasks : !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @no_such_loop(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @+2 {{no loop over %k}}
    // expected-note @+1 {{the loops are over %i}}
    %k = transform.gpuir.loop "k" in %root : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @not_a_loop(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{'transform.gpuir.unroll' applies to gpuir.for loops, not to 'gpuir.read'}}
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.unroll %r : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{unknown tail strategy 'peel'; expected perfect, guard or cut}}
    %o, %n = transform.gpuir.divide_loop %i by 4 tail(peel) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// reorder_stmts on the last statement of its block.
gpuir.proc @last_stmt(%X: memref<4xf32, #gpuir.host>) {
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
  // expected-error @+1 {{cannot move this statement down: it is the last of its block}}
  gpuir.write %v, %X[1] : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.structured.match ops{["gpuir.write"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.reorder_stmts %w : !transform.any_op
    transform.yield
  }
}

// -----

// A call, whose accesses the rewrites do not see.
gpuir.proc @callee(%X: memref<4xf32, #gpuir.host>) {
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
}
gpuir.proc @move_call(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{the rewrite cannot see what the call to 'callee' accesses; rewrite the called procedure instead}}
  gpuir.call @callee(%X) : (memref<4xf32, #gpuir.host>) -> ()
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["gpuir.call"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.reorder_stmts %c : !transform.any_op
    transform.yield
  }
}

// -----

// An op of another dialect with memory effects the rewrites do not know.
gpuir.proc @move_memref_store(%X: memref<4xf32, #gpuir.host>) {
  %c = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{the rewrite cannot tell what 'memref.store' accesses}}
  memref.store %f, %X[%c] : memref<4xf32, #gpuir.host>
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["memref.store"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.reorder_stmts %s : !transform.any_op
    transform.yield
  }
}

// -----

// Fission after a statement that is not in a loop.
gpuir.proc @fission_outside(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot split the loop after this statement: it is not directly in a gpuir.for}}
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
  gpuir.write %v, %X[1] : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %b = transform.gpuir.fission %r : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Fission after the last statement of the loop.
gpuir.proc @fission_last(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    // expected-error @+1 {{cannot split the loop after this statement: it is the last of the loop's body, so the second loop would be empty}}
    gpuir.write %v, %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.structured.match ops{["gpuir.write"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %b = transform.gpuir.fission %w : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// fuse of a loop followed by a statement that is not a loop.
gpuir.proc @fuse_no_loop(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{fuse joins a loop with the loop right after it; the next statement is not a gpuir.for}}
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
  %w = gpuir.read %X[0] : memref<?xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %f = transform.gpuir.fuse %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// mult_loops of a task loop and a thread loop.
gpuir.proc @mult_modes(%n: index, %X: memref<?x?xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to %n : cuda_tasks {
      // expected-error @+1 {{cannot merge the loops over %i and %j: their modes differ}}
      gpuir.for %j = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %X[%i, %j] : memref<?x?xf32, #gpuir.gmem>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %f = transform.gpuir.mult_loops %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// skew by zero iterations.
gpuir.proc @skew_zero(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    // expected-error @+1 {{skew delays by at least one iteration}}
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %f = transform.gpuir.skew %r by 0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// permute_loops with a list that is not a permutation.
gpuir.proc @permute_not_a_permutation(%n: index, %X: memref<?x?xf32, #gpuir.host>) {
  // expected-error @+1 {{permute_loops takes a permutation of the nest's 2 loops}}
  gpuir.for %i = 0 to %n : seq {
    gpuir.for %j = 0 to %n : seq {
      %v = gpuir.read %X[%i, %j] : memref<?x?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %p = transform.gpuir.permute_loops %i [1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
