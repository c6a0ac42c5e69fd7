// RUN: rake-opt %s -split-input-file --transform-interpreter -verify-diagnostics

// Every refusal of the layout rewrites, lift_alloc, inline_window, fuse,
// mult_loops, add_loop and cut_loop, with its exact message.

gpuir.proc @divide_not_multiple(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot divide dimension 0 of t by 8: its size is not a multiple}}
  %t = gpuir.alloc : memref<12xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.divide_dim %a 0 by 8 : !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @divide_interval(%X: memref<4xf32, #gpuir.host>) {
  %t = gpuir.alloc : memref<16xf32, #gpuir.host>
  // expected-error @+1 {{cannot divide dimension 0 of t: this window takes an interval of it}}
  %w = gpuir.window %t[0 : 8] : memref<16xf32, #gpuir.host> -> memref<8xf32, strided<[1], offset: ?>, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.divide_dim %a 0 by 8 : !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @mult_last(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{mult_dim merges dimensions 1 and 2; t has 2}}
  %t = gpuir.alloc : memref<4x4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.mult_dim %a 1 : !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @not_a_permutation(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{rearrange_dim takes a permutation of the 2 dimensions of t}}
  %t = gpuir.alloc : memref<4x4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.rearrange_dim %a [0, 0] : !transform.any_op
    transform.yield
  }
}

// -----

// A window whose strides the permutation would change.
gpuir.proc @rearrange_window(%X: memref<4xf32, #gpuir.host>) {
  %t = gpuir.alloc : memref<4x8xf32, #gpuir.host>
  // expected-error @+1 {{the buffer's layout cannot change: this window's strides would change (the instructions taking it rely on them)}}
  %w = gpuir.window %t[1, 0 : 8] : memref<4x8xf32, #gpuir.host> -> memref<8xf32, strided<[1], offset: ?>, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.rearrange_dim %a [1, 0] : !transform.any_op
    transform.yield
  }
}

// -----

// A double buffer indexed by k mod 3 in a dimension of 2.
gpuir.proc @expand_out_of_range(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %k = 0 to %n : seq {
    %t = gpuir.alloc : memref<8xf32, #gpuir.host>
    %c = arith.constant 0.0 : f32
    // expected-error @+1 {{cannot expand t: the new index %k mod 3 leaves [0, 2) at this use}}
    gpuir.write %c, %t[0] : memref<8xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.expand_dim %a 2 index(affine_map<(k) -> (k mod 3)>) of ["k"] : !transform.any_op
    transform.yield
  }
}

// -----

// An index over a loop inside the buffer's lifetime: the value written at
// %k = 0 and read at %k = 1 would sit in two slots.
gpuir.proc @expand_inside(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot expand t by an index over %k: it changes while the buffer lives (index by loops around its allocation; expand before lift_alloc)}}
  %t = gpuir.alloc : memref<8xf32, #gpuir.host>
  gpuir.for %k = 0 to %n : seq {
    %v = gpuir.read %t[0] : memref<8xf32, #gpuir.host>
    %c = arith.constant 1.0 : f32
    %w = arith.addf %v, %c : f32
    gpuir.write %w, %t[0] : memref<8xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.expand_dim %a 2 index(affine_map<(k) -> (k mod 2)>) of ["k"] : !transform.any_op
    transform.yield
  }
}

// -----

// Out of a parallel loop only when every use indexes a dimension by the
// loop's variable: here one use reads row 0 whatever the warp.
gpuir.proc @lift_parallel_shared(%n: index, %X: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %i = 0 to %n : cuda_tasks {
      gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
        // expected-error @+1 {{cannot lift this allocation out of a parallel loop: each iteration (task or thread) has its own copy; give the buffer a dimension per iteration with expand_dim instead}}
        %t = gpuir.alloc : memref<2x32xf32, #gpuir.rmem>
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %X[%i * 64 + %w * 32 + %l] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %t[%w, %l] : memref<2x32xf32, #gpuir.rmem>
          %u = gpuir.read %t[0, %l] : memref<2x32xf32, #gpuir.rmem>
          gpuir.write %u, %X[%i * 64 + %w * 32 + %l] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.lift_alloc %a : !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @lift_parallel(%n: index, %X: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to %n : cuda_tasks {
      // expected-error @+1 {{cannot lift this allocation out of a parallel loop: each iteration (task or thread) has its own copy; give the buffer a dimension per iteration with expand_dim instead}}
      %t = gpuir.alloc : memref<8xf32, #gpuir.smem>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.lift_alloc %a : !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @lift_top(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{lift_alloc moves an allocation out of the gpuir.for or gpuir.if around it; this one is directly in 'gpuir.proc'}}
  %t = gpuir.alloc : memref<8xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.lift_alloc %a : !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @inline_instr(%G: memref<64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      %S = gpuir.alloc : memref<64xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %sw = gpuir.window %S[8 : 16] : memref<64xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: 8>, #gpuir.smem>
        %gw = gpuir.window %G[0 : 8] : memref<64xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1]>, #gpuir.gmem>
        // expected-error @+1 {{cannot inline this window: 'gpuir.sm80.cp_async' takes it whole (only element accesses see through a window)}}
        gpuir.sm80.cp_async %sw, %gw : memref<8xbf16, strided<[1], offset: 8>, #gpuir.smem>, memref<8xbf16, strided<[1]>, #gpuir.gmem>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.structured.match ops{["gpuir.window"]} in %root : (!transform.any_op) -> !transform.any_op
    %w1, %w2 = transform.split_handle %w : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.inline_window %w1 : !transform.any_op
    transform.yield
  }
}

// -----

// Fusing would read X[j + 1] before the first loop writes it.
gpuir.proc @fuse_dependence(%n: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %c = arith.constant 0.0 : f32
    // expected-note @+1 {{the write of X}}
    gpuir.write %c, %X[%i] : memref<?xf32, #gpuir.host>
  }
  // expected-error @+1 {{cannot fuse the loops over %i and %j: the read of X in the second and the write of X in the first reach one element, the second's iteration before the first's; fused, it would run first}}
  gpuir.for %j = 0 to %n : seq {
    // expected-note @+1 {{the read of X}}
    %v = gpuir.read %X[%j + 1] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %Y[%j] : memref<?xf32, #gpuir.host>
  }
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

gpuir.proc @fuse_bounds(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
  // expected-error @+1 {{cannot fuse the loops over %i and %j: their bounds differ}}
  gpuir.for %j = 1 to %n : seq {
    %v = gpuir.read %X[%j] : memref<?xf32, #gpuir.host>
  }
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

gpuir.proc @mult_dynamic(%n: index, %X: memref<?x?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    // expected-error @+1 {{cannot merge the loop over %j into %i: its bounds must be constants, at least one iteration}}
    gpuir.for %j = 0 to %n : seq {
      %v = gpuir.read %X[%i, %j] : memref<?x?xf32, #gpuir.host>
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

gpuir.proc @add_empty(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{add_loop adds a loop of at least one iteration}}
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %l = transform.gpuir.add_loop %r 0 name("z") : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @cut_negative(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{cut_loop cuts after a number of iterations >= 0}}
  gpuir.for %k = 0 to %n : seq {
    %v = gpuir.read %X[%k] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.gpuir.loop "k" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %b = transform.gpuir.cut_loop %k at -1 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A square tile's window: a permutation keeps its strides but would
// transpose what it holds.
gpuir.proc @rearrange_square(%X: memref<2x2xf32, #gpuir.host>) {
  %t = gpuir.alloc : memref<2x2xf32, #gpuir.host>
  // expected-error @+1 {{the buffer's layout cannot change: the permutation reorders the intervals of this window, whose dimensions are its type's}}
  %w = gpuir.window %t[0 : 2, 0 : 2] : memref<2x2xf32, #gpuir.host> -> memref<2x2xf32, strided<[2, 1], offset: ?>, #gpuir.host>
  %v = gpuir.read %w[0, 1] : memref<2x2xf32, strided<[2, 1], offset: ?>, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.rearrange_dim %a [1, 0] : !transform.any_op
    transform.yield
  }
}

// -----

// A loop variable used as data: no rewrite can replace it there, and the
// refusal leaves the program as it was.
gpuir.proc @data_use(%X: memref<8xi32, #gpuir.host>) {
  gpuir.for %i = 0 to 8 : seq {
    // expected-error @+1 {{the rewrite cannot replace %i in 'arith.index_cast': it uses the loop variable outside a control expression}}
    %c = arith.index_cast %i : index to i32
    gpuir.write %c, %X[%i] : memref<8xi32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %o, %n = transform.gpuir.divide_loop %i by 4 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A free ends the buffer's lifetime: the read cannot move after it.
gpuir.proc @read_after_free(%X: memref<4xf32, #gpuir.host>) {
  %t = gpuir.alloc : memref<4xf32, #gpuir.host>
  // expected-error @+2 {{cannot swap this statement with the next: the read of t and the free of t reach one element, so their order matters}}
  // expected-note @+1 {{the read of t}}
  %v = gpuir.read %t[0] : memref<4xf32, #gpuir.host>
  // expected-note @+1 {{the free of t}}
  gpuir.free %t : memref<4xf32, #gpuir.host>
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

gpuir.proc @lift_freed(%n: index, %X: memref<4xf32, #gpuir.host>) {
  gpuir.for %k = 0 to %n : seq {
    %t = gpuir.alloc : memref<4xf32, #gpuir.host>
    %c = arith.constant 1.0 : f32
    gpuir.write %c, %t[0] : memref<4xf32, #gpuir.host>
    // expected-error @+1 {{cannot lift this allocation: it is freed inside the scope it would leave}}
    gpuir.free %t : memref<4xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.lift_alloc %a : !transform.any_op
    transform.yield
  }
}

// -----

// An expand_dim index map with more dimensions than named loops.
gpuir.proc @expand_index_dims(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %k = 0 to %n : seq {
    // expected-error @+1 {{expand_dim's index is one expression over the named loops' variables}}
    %t = gpuir.alloc : memref<8xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.expand_dim %a 2 index(affine_map<(k, j) -> (k mod 2)>) of ["k"] : !transform.any_op
    transform.yield
  }
}

// -----

// inline_window on an allocation.
gpuir.proc @inline_window_alloc(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{inline_window applies to gpuir.window}}
  %t = gpuir.alloc : memref<8xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.inline_window %a : !transform.any_op
    transform.yield
  }
}

// -----

// An instruction that takes the whole buffer.
gpuir.proc @divide_whole(%G: memref<64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      %S = gpuir.alloc : memref<8xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %gw = gpuir.window %G[0 : 8] : memref<64xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1]>, #gpuir.gmem>
        // expected-error @+1 {{the buffer's layout cannot change: 'gpuir.sm80.cp_async' takes the whole buffer}}
        gpuir.sm80.cp_async %S, %gw : memref<8xbf16, #gpuir.smem>, memref<8xbf16, strided<[1]>, #gpuir.gmem>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.divide_dim %a 0 by 2 : !transform.any_op
    transform.yield
  }
}

// -----

// mult_dim of dimensions a window takes an interval of.
gpuir.proc @mult_interval(%X: memref<4xf32, #gpuir.host>) {
  %t = gpuir.alloc : memref<4x8xf32, #gpuir.host>
  // expected-error @+1 {{cannot merge dimensions 0 and 1 of t: this window takes an interval of them}}
  %w = gpuir.window %t[1, 0 : 8] : memref<4x8xf32, #gpuir.host> -> memref<8xf32, strided<[1], offset: ?>, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.mult_dim %a 0 : !transform.any_op
    transform.yield
  }
}

// -----

// lift_alloc of a buffer whose size is the loop's variable.
gpuir.proc @lift_size(%n: index, %X: memref<4xf32, #gpuir.host>) {
  gpuir.for %k = 1 to %n : seq {
    // expected-error @+1 {{cannot lift this allocation: its size uses the loop's variable}}
    %t = gpuir.alloc(%k) : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.lift_alloc %a : !transform.any_op
    transform.yield
  }
}

// -----

// expand_dim's index is a control expression: mod by a positive constant.
gpuir.proc @expand_index_divisor(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %k = 0 to %n : seq {
    // expected-error @+1 {{expand_dim's index is a control expression: floordiv, ceildiv and mod take a positive constant}}
    %t = gpuir.alloc : memref<8xf32, #gpuir.host>
    gpuir.for %e = 0 to 8 : seq {
      %v = gpuir.read %X[%k * 8 + %e] : memref<?xf32, #gpuir.host>
      gpuir.write %v, %t[%e] : memref<8xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.expand_dim %a 2 index(affine_map<(k) -> (k mod -2)>) of ["k"] : !transform.any_op
    transform.yield
  }
}

// -----

// Out of a cuda_tasks loop even with a part per task: a task's buffers live in its CTA.
gpuir.proc @lift_tasks(%X: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to 8 : cuda_tasks {
      // expected-error @+1 {{cannot lift this allocation out of a cuda_tasks loop: a task's buffers live in its CTA, and the tasks nest holds nothing else}}
      %t = gpuir.alloc : memref<32xf32, #gpuir.smem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %X[%i * 32 + %l] : memref<256xf32, #gpuir.gmem>
        gpuir.write %v, %t[%l] : memref<32xf32, #gpuir.smem>
        %u = gpuir.read %t[%l] : memref<32xf32, #gpuir.smem>
        gpuir.write %u, %X[%i * 32 + %l] : memref<256xf32, #gpuir.gmem>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.expand_dim %a 8 index(affine_map<(i) -> (i)>) of ["i"] : !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.lift_alloc %a : !transform.any_op
    transform.yield
  }
}
