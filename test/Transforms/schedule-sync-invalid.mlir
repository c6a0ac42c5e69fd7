// RUN: rake-opt %s -split-input-file --transform-interpreter -verify-diagnostics

// The refusals of the synchronization rewrites, with their exact messages.

gpuir.proc @no_barrier(%n: index, %X: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    // expected-error @+1 {{no barrier named 'cg' is visible at this statement}}
    gpuir.for %b = 0 to %n : cuda_tasks {
      %v = gpuir.read %X[%b] : memref<?xf32, #gpuir.gmem>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.gpuir.loop "b" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a = transform.gpuir.insert_arrive after %b Sm80_cp_async >> "cg" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @not_a_barrier(%n: index, %X: memref<?xf32, #gpuir.host>) {
  // expected-error @+1 {{alloc_barrier allocates a !gpuir.barrier<...>}}
  gpuir.for %b = 0 to %n : seq {
    %v = gpuir.read %X[%b] : memref<?xf32, #gpuir.host>
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.gpuir.loop "b" in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a = transform.gpuir.alloc_barrier before %b memref<4xf32> as "x" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

gpuir.proc @coords_without_loop(%n: index, %X: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to %n : cuda_tasks {
      %full = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      // expected-error @+1 {{no loop over %k around this statement}}
      %v = gpuir.read %X[%b] : memref<?xf32, #gpuir.gmem>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a = transform.gpuir.insert_await before %r "full" cuda_in_order coords(affine_map<(k) -> (k mod 2)>) of ["k"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An inserted statement GpuIR's verifier refuses: lag(n) on a commit group.
gpuir.proc @bad_await(%n: index, %X: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to %n : cuda_tasks {
      %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
      // expected-error @+1 {{the inserted statement is not valid here: 'gpuir.await' op lag(n) counts phases of an mbarrier ring; this barrier is cp_async_group}}
      %v = gpuir.read %X[%b] : memref<?xf32, #gpuir.gmem>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a = transform.gpuir.insert_await before %r "cg" cuda_in_order lag(1) : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
