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

// -----

// Barrier coordinates over two dimensions, with one loop named.
gpuir.proc @coords_dims(%n: index, %X: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to %n : cuda_tasks {
      %full = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      gpuir.for %k = 0 to 4 : seq {
        // expected-error @+1 {{the barrier's coordinates are a map over the named loops' variables, one dimension each}}
        %v = gpuir.read %X[%b] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["gpuir.read"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %a = transform.gpuir.insert_await before %r "full" cuda_in_order coords(affine_map<(k, j) -> (k mod 2)>) of ["k"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// ring: the buffer must be allocated directly in the loop over the name.
gpuir.proc @ring_not_in_loop(%Kt: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Kt) -> (Kt * 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 1 : cuda_tasks {
      // expected-error @+1 {{ring needs the buffer allocated directly in the body of the loop over %kt (lift_alloc it there first)}}
      %As = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %kt = 0 to %Kt : seq {
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%kt * 64 + %t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %As[%t] : memref<64xf32, #gpuir.smem>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %full = transform.gpuir.ring %a stages(4) over "kt" barrier "full" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// ring: the stages follow a sequential loop.
gpuir.proc @ring_parallel(%Kt: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Kt) -> (Kt * 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Kt : cuda_tasks {
      // expected-error @+1 {{a ring's stages follow a sequential loop; the loop over %m is parallel}}
      %As = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
        gpuir.write %v, %As[%t] : memref<64xf32, #gpuir.smem>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @+1 {{refused by this transform}}
    %full = transform.gpuir.ring %a stages(4) over "m" barrier "full" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// ring: a barrier of that name must be the ring's N mbarriers.
gpuir.proc @ring_barrier(%Kt: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Kt) -> (Kt * 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 1 : cuda_tasks {
      %full = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      gpuir.for %kt = 0 to %Kt : seq {
        // expected-error @+1 {{the ring's barrier 'full' is !gpuir.barrier<mbarrier [2]>; a ring of 4 stages needs !gpuir.barrier<mbarrier [4]>}}
        %As = gpuir.alloc : memref<64xf32, #gpuir.smem>
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%kt * 64 + %t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %As[%t] : memref<64xf32, #gpuir.smem>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    %bar, %as = transform.split_handle %a : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-note @+1 {{refused by this transform}}
    %full = transform.gpuir.ring %as stages(4) over "kt" barrier "full" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
