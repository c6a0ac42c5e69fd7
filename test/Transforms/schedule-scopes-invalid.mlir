// RUN: rake-opt %s -split-input-file --transform-interpreter -verify-diagnostics

// Every refusal of the scope and memory rewrites, with its exact message.

gpuir.proc @lift_uses_variable(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    // expected-error @+1 {{cannot lift this condition out of the loop over %i: it uses %i}}
    gpuir.if %i < 4 {
      %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gpuir.if"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %g1 = transform.gpuir.lift_scope %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @lift_else(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot lift a scope across a gpuir.if with an else branch}}
  gpuir.if %n < 4 {
    gpuir.for %i = 0 to %n : seq {
      %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    }
  } else {
    %v = gpuir.read %X[0] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %i1 = transform.gpuir.lift_scope %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @lift_not_alone(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.if %n < 4 {
    %v = gpuir.read %X[0] : memref<?xf32, #gpuir.host>
    // expected-error @+1 {{cannot lift this statement: it is not the only statement of the scope around it}}
    gpuir.for %i = 0 to %n : seq {
      %w = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %i1 = transform.gpuir.lift_scope %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @lift_top(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{lift_scope swaps a gpuir.for or gpuir.if with the gpuir.for or gpuir.if around it}}
  gpuir.for %i = 0 to %n : seq {
    %w = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %i1 = transform.gpuir.lift_scope %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @wrap_twice(%n: index, %X: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    // expected-error @+1 {{cannot wrap this statement in a device function: it is in one already}}
    gpuir.for %i = 0 to %n : cuda_tasks {
      %w = gpuir.read %X[%i] : memref<?xf32, #gpuir.gmem>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %f = transform.gpuir.wrap_device_function %i block(32) : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @fence_on_cpu(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{a fence goes inside a device function; this statement is at CPU scope}}
  gpuir.for %i = 0 to %n : seq {
    %w = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %f = transform.gpuir.insert_fence after %i cuda_in_order -> cuda_in_order : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// expected-error @+1 {{no buffer named 'Z' here}}
gpuir.proc @no_such_buffer(%X: memref<4xf32, #gpuir.host>) {
  %w = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["gpuir.proc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.set_memory #gpuir.gmem for "Z" in %p : !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @not_a_memory(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{set_memory takes a GpuIR memory type (#gpuir.gmem, #gpuir.smem, #gpuir.rmem, ...)}}
  %a = gpuir.alloc : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.set_memory 3 for %a : !transform.any_op
    transform.yield
  }
}

// -----

// An access that leaves the staged window: the loop reads X[%b * 16 + %t]
// for %t up to 16, the window holds 8.
gpuir.proc @stage_too_small(%n: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n * 16)>}) {
  gpuir.for %b = 0 to %n : seq {
    gpuir.for %t = 0 to 16 : seq {
      // expected-error @+1 {{cannot stage X in a window of 8 in dimension 0: the read of X reaches offset %t from the window's corner %b * 16, outside [0, 8)}}
      %v = gpuir.read %X[%b * 16 + %t] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.gpuir.loop "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %c = transform.gpuir.stage_mem %t "X" [8] #gpuir.host as "s" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Staging a window that another statement of the block writes another
// way: the copy writes S through a window that the staged buffer would not
// see.
gpuir.proc @stage_other_writer(%G: memref<64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      %S = gpuir.alloc : memref<64xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %s = 0 to 2 : seq {
          %v = gpuir.read %S[%s] : memref<64xbf16, #gpuir.smem>
          %sw = gpuir.window %S[8 : 16] : memref<64xbf16, #gpuir.smem> -> memref<8xbf16, strided<[1], offset: 8>, #gpuir.smem>
          %gw = gpuir.window %G[0 : 8] : memref<64xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1]>, #gpuir.gmem>
          // expected-error @+1 {{stage_mem redirects element accesses of S; the 'gpuir.sm80.cp_async' writing S accesses it through a window}}
          gpuir.sm80.cp_async %sw, %gw : memref<8xbf16, strided<[1], offset: 8>, #gpuir.smem>, memref<8xbf16, strided<[1]>, #gpuir.gmem>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.gpuir.loop "s" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %c = transform.gpuir.stage_mem %s "S" [2] #gpuir.rmem as "t" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Two accesses from different corners.
gpuir.proc @stage_corners(%n: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n)>}) {
  gpuir.for %b = 0 to %n : seq {
    gpuir.for %t = 0 to 4 : seq {
      // expected-note @+1 {{the read of X}}
      %v = gpuir.read %X[%b + %t] : memref<?xf32, #gpuir.host>
      // expected-error @+1 {{cannot stage X: the write of X and the read of X index it from different corners}}
      gpuir.write %v, %X[%b * 2 + %t] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.gpuir.loop "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %c = transform.gpuir.stage_mem %t "X" [4] #gpuir.host as "s" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

gpuir.proc @stage_mixed_term(%n: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n)>}) {
  gpuir.for %b = 0 to %n : seq {
    gpuir.for %t = 0 to 4 : seq {
      // expected-error @+1 {{cannot stage X: index 0 of the read of X mixes the loops inside the staged statement with values from outside in one term}}
      %v = gpuir.read %X[(%b + %t) floordiv 2] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.gpuir.loop "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %c = transform.gpuir.stage_mem %t "X" [4] #gpuir.host as "s" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

gpuir.proc @stage_no_extents(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot stage X: the copies need its extents; declare them with gpuir.extents on the parameter}}
  gpuir.for %t = 0 to 4 : seq {
    %v = gpuir.read %X[%t] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.gpuir.loop "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %c = transform.gpuir.stage_mem %t "X" [4] #gpuir.host as "s" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

gpuir.proc @stage_unused(%X: memref<4xf32, #gpuir.host>, %Y: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot stage Y: the statement does not access it}}
  gpuir.for %t = 0 to 4 : seq {
    %v = gpuir.read %X[%t] : memref<4xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.gpuir.loop "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %c = transform.gpuir.stage_mem %t "Y" [4] #gpuir.host as "s" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

gpuir.proc @inline_not_call(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{inline applies to gpuir.call, not to 'gpuir.read'}}
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.inline %r : !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @recursive(%n: index) {
  // expected-error @+1 {{cannot inline a call of the procedure it is in}}
  gpuir.call @recursive(%n) : (index) -> ()
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["gpuir.call"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.inline %c : !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @no_such_group(%n: index, %X: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function warps(producer = 1) {
    gpuir.for %i = 0 to %n : cuda_tasks {
      // expected-error @+1 {{cannot run this statement on warp group 'consumer': 'gpuir.warps' op names warp group 'consumer', which the device function does not have; it has 'producer'}}
      %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.gmem>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %w = transform.gpuir.wrap_warps %r "consumer" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @block_and_groups(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{wrap_device_function takes block(n) or named warp groups, one of them}}
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %f = transform.gpuir.wrap_device_function %i block(32) groups ["p"] warps [1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @setmaxnreg_count(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{setmaxnreg takes one register count per warp group}}
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %f = transform.gpuir.wrap_device_function %i groups ["p", "c"] warps [1, 4] setmaxnreg [-40] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @setmaxnreg_value(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot wrap this statement in this device function: 'gpuir.device_function' op warp group 'c' sets its register count to 230; setmaxnreg takes a multiple of 8 from 24 to 256}}
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %f = transform.gpuir.wrap_device_function %i groups ["p", "c"] warps [4, 4] setmaxnreg [-40, 230] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// add_if without `specialize` only where the condition always holds: here
// the last iteration has k = Kt - 1.
gpuir.proc @add_if_fails(%Kt: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(Kt) -> (Kt * 4)>}) {
  gpuir.for %k = 0 to %Kt : seq {
    // expected-error @+1 {{the condition does not hold wherever this statement runs; add `specialize` to run it under the condition and a copy of it otherwise}}
    gpuir.for %e = 0 to 4 : seq {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %X[%k * 4 + %e] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %g = transform.gpuir.add_if %e affine_set<(k, Kt) : (Kt - k - 2 >= 0)> of ["k", "Kt"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @add_if_names(%Kt: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(Kt) -> (Kt * 4)>}) {
  gpuir.for %k = 0 to %Kt : seq {
    // expected-error @+1 {{no loop over %q around this statement and no index parameter %q}}
    gpuir.for %e = 0 to 4 : seq {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %X[%k * 4 + %e] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %g = transform.gpuir.add_if %e affine_set<(q) : (q >= 0)> of ["q"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @add_if_dims(%Kt: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(Kt) -> (Kt * 4)>}) {
  gpuir.for %k = 0 to %Kt : seq {
    // expected-error @+1 {{the condition is an integer set over the named control values, one dimension each}}
    gpuir.for %e = 0 to 4 : seq {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %X[%k * 4 + %e] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %g = transform.gpuir.add_if %e affine_set<(k, Kt) : (Kt - k - 2 >= 0)> of ["k"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @add_if_data(%Kt: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(Kt) -> (Kt * 4)>}) {
  gpuir.for %k = 0 to %Kt : seq {
    %v = gpuir.read %X[%k * 4] : memref<?xf32, #gpuir.host>
    // expected-error @+1 {{add_if guards a statement that uses no data value made before it; bind_expr the value into a buffer first}}
    gpuir.write %v, %X[%k * 4 + 1] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.structured.match ops{["gpuir.write"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %g = transform.gpuir.add_if %w affine_set<(k) : (k >= 0)> of ["k"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @add_if_value(%Kt: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(Kt) -> (Kt * 4)>}) {
  gpuir.for %k = 0 to %Kt : seq {
    // expected-error @+1 {{add_if guards a statement whose values are not used after it; this one's are}}
    %v = gpuir.read %X[%k * 4] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %X[%k * 4 + 1] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %g = transform.gpuir.add_if %r affine_set<(k) : (k >= 0)> of ["k"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @bind_expr_none(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    // expected-error @+1 {{bind_expr binds the one value an op of a gpuir.proc computes; 'gpuir.write' has 0 results}}
    gpuir.write %v, %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %w = transform.structured.match ops{["gpuir.write"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %b = transform.gpuir.bind_expr %w as "b" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @bind_expr_index(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    // expected-error @+1 {{bind_expr binds a scalar of an integer or float type, not one of type index}}
    %c = arith.constant 0 : index
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["arith.constant"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %b = transform.gpuir.bind_expr %c as "b" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Named warp groups without one warp count each.
gpuir.proc @warp_counts(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{wrap_device_function needs one warp count per group}}
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %f = transform.gpuir.wrap_device_function %i groups ["p", "c"] warps [1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A warp range of three numbers.
gpuir.proc @warp_range(%n: index, %X: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function warps(producer = 2) {
    gpuir.for %i = 0 to %n : cuda_tasks {
      // expected-error @+1 {{a warp range is [lo, hi]}}
      %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.gmem>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %w = transform.gpuir.wrap_warps %r "producer" range [0, 1, 2] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// set_memory on a loop, without a buffer's name.
gpuir.proc @set_memory_loop(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{set_memory needs the name of a buffer, or a gpuir.alloc as its target}}
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.set_memory #gpuir.gmem for %i : !transform.any_op
    transform.yield
  }
}

// -----

// set_memory on the allocation of a barrier, which is not a buffer.
gpuir.proc @set_memory_barrier(%n: index, %X: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to %n : cuda_tasks {
      // expected-error @+1 {{set_memory changes the memory type of a buffer; this is not one}}
      %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
      %v = gpuir.read %X[%b] : memref<?xf32, #gpuir.gmem>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.set_memory #gpuir.smem for %a : !transform.any_op
    transform.yield
  }
}

// -----

// stage_mem through a statement that comes before the first.
gpuir.proc @stage_through_before(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{stage_mem stages consecutive statements of one block; this one is not after the first}}
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
  %w = gpuir.read %X[1] : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    %r0, %r1 = transform.split_handle %r : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-note @+1 {{refused by this transform}}
    %a, %c = transform.gpuir.stage_mem %r1 through %r0 "X" [4] #gpuir.host as "s" : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// stage_mem into a memory that is not a GpuIR memory type.
gpuir.proc @stage_not_a_memory(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{stage_mem takes a GpuIR memory type for the staged buffer}}
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a, %c = transform.gpuir.stage_mem %r "X" [4] 3 as "s" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A call whose callee was renamed away (transform.annotate on sym_name).
gpuir.proc @callee(%X: memref<4xf32, #gpuir.host>) {
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
}
gpuir.proc @caller(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{cannot inline the call: 'callee' is not a gpuir.proc}}
  gpuir.call @callee(%X) : (memref<4xf32, #gpuir.host>) -> ()
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["gpuir.proc"]} in %root : (!transform.any_op) -> !transform.any_op
    %callee, %caller = transform.split_handle %p : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %name = transform.param.constant "renamed" -> !transform.any_param
    transform.annotate %callee "sym_name" = %name : !transform.any_op, !transform.any_param
    %c = transform.structured.match ops{["gpuir.call"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    transform.gpuir.inline %c : !transform.any_op
    transform.yield
  }
}

// -----

// add_if on the procedure itself, not on a statement of it.
// expected-error @+1 {{add_if guards a statement of a gpuir.proc}}
gpuir.proc @add_if_proc(%X: memref<4xf32, #gpuir.host>) {
  %v = gpuir.read %X[0] : memref<4xf32, #gpuir.host>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["gpuir.proc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %g = transform.gpuir.add_if %p affine_set<() : (0 == 0)> of [] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// stage_mem where the staged statement writes: the windows of two threads
// (a parallel loop between the buffer and the statement) must not overlap,
// or each thread's copy-out would write back elements the other writes. A
// window of 3 at 2 %t overlaps the next thread's.
gpuir.proc @stage_overlap(%n: index, %X: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64 + 1)>}) {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{cannot stage X: the windows of two iterations of the parallel loop over %t overlap, and the statement writes X (their copies would race); stage a window each iteration has to itself}}
        gpuir.for %e = 0 to 2 : seq {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %X[%b * 64 + %t * 2 + %e] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %x, %c = transform.gpuir.stage_mem %e "X" [3] #gpuir.rmem as "x" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// setmaxnreg runs per warpgroup: a group that sets its count is whole
// aligned warpgroups.
gpuir.proc @setmaxnreg_warpgroups(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{warp group 'p' sets its register count, but setmaxnreg is executed by whole warpgroups and the group's warps [0, 1) are not whole aligned warpgroups}}
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %f = transform.gpuir.wrap_device_function %i groups ["p", "c"] warps [1, 4] setmaxnreg [-40, 232] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}


// -----

// add_if keeps GpuIR's rules: a cuda_tasks nest stays a device function's whole body.
gpuir.proc @add_if_tasks(%n: index, %X: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 32)>}) {
  gpuir.device_function block(32) {
    // expected-error @+1 {{cannot guard this statement: 'gpuir.for' op cuda_tasks loops appear only as the nest that forms the body of a gpuir.device_function; found one inside 'gpuir.if'}}
    gpuir.for %b = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %X[%b * 32 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.gpuir.loop "b" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %g = transform.gpuir.add_if %e affine_set<(n) : (n >= 0)> of ["n"] specialize : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// add_if's condition is a control expression: division by a positive constant.
gpuir.proc @add_if_divisor(%n: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n * 4)>}) {
  gpuir.for %k = 0 to %n : seq {
    // expected-error @+1 {{the condition is a control expression: floordiv, ceildiv and mod take a positive constant}}
    gpuir.for %e = 0 to 4 : seq {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %X[%k * 4 + %e] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %g = transform.gpuir.add_if %e affine_set<(k) : (k floordiv -2 <= 0)> of ["k"] specialize : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// bind_expr's memory is a GpuIR memory type.
gpuir.proc @bind_expr_memory(%n: index, %Y: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 32)>}) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %Y[%b * 32 + %t] : memref<?xf32, #gpuir.gmem>
        // expected-error @+1 {{bind_expr takes a GpuIR memory type for the buffer}}
        %q = arith.addf %v, %v : f32
        gpuir.write %q, %Y[%b * 32 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %q = transform.gpuir.bind_expr %a as "q" memory(42 : i64) : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
