// RUN: rake-opt %s -split-input-file --transform-interpreter | FileCheck %s

// The scope and memory rewrites of the scheduling language
// (docs/Scheduling.md).

// lift_scope: a loop out of a guard that does not use it, then a guard out
// of a loop whose variable it does not use.
// CHECK-LABEL: gpuir.proc @lift
// CHECK:      gpuir.for %j = 0 to %n : seq {
// CHECK-NEXT:   gpuir.if %m < 4 {
// CHECK-NEXT:     gpuir.for %i = 0 to %n : seq {
// CHECK-NEXT:       gpuir.read %X[%i, %j]
gpuir.proc @lift(%n: index, %m: index, %X: memref<?x?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    gpuir.if %m < 4 {
      gpuir.for %j = 0 to %n : seq {
        %v = gpuir.read %X[%i, %j] : memref<?x?xf32, #gpuir.host>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %j = transform.gpuir.loop "j" in %root : (!transform.any_op) -> !transform.any_op
    %j1 = transform.gpuir.lift_scope %j : (!transform.any_op) -> !transform.any_op
    %j2 = transform.gpuir.lift_scope %j1 : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gpuir.if"]} in %root : (!transform.any_op) -> !transform.any_op
    %g1 = transform.gpuir.lift_scope %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// simplify merges a guard whose body is one guard: `if a { if b { S } }`
// is `if a and b { S }`.
// CHECK-LABEL: gpuir.proc @merge
// CHECK:      gpuir.for %i = 0 to %n : seq {
// CHECK-NEXT:   gpuir.if %i < %m and %i * 2 >= 3 {
// CHECK-NEXT:     gpuir.read %X[%i]
// CHECK-NEXT:   }
// CHECK-NEXT: }
gpuir.proc @merge(%n: index, %m: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    gpuir.if %i < %m {
      gpuir.if %i * 2 >= 3 {
        %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
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

// -----

// wrap_device_function, set_memory of parameters and of an allocation
// (its windows follow), insert_fence before and after.
// CHECK-LABEL: gpuir.proc @device(%n: index, %X: memref<?xf32, #gpuir.gmem>)
// CHECK:      gpuir.device_function cluster(2) blocks_per_sm(2) block(64) {
// CHECK-NEXT:   gpuir.for %i = 0 to %n : cuda_tasks {
// CHECK-NEXT:     %s = gpuir.alloc : memref<64xf32, #gpuir.smem>
// CHECK-NEXT:     %w = gpuir.window %s[0 : 32] : memref<64xf32, #gpuir.smem> -> memref<32xf32, strided<[1]>, #gpuir.smem>
// CHECK-NEXT:     gpuir.fence cuda_in_order -> cuda_in_order
// CHECK-NEXT:     gpuir.for %t = 0 to 32 : seq {
// CHECK:          }
// CHECK-NEXT:     gpuir.fence cuda_in_order -> cuda_in_order
gpuir.proc @device(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %s = gpuir.alloc : memref<64xf32, #gpuir.host>
    %w = gpuir.window %s[0 : 32] : memref<64xf32, #gpuir.host> -> memref<32xf32, strided<[1]>, #gpuir.host>
    gpuir.for %t = 0 to 32 : seq {
      %v = gpuir.read %X[%i * 32 + %t] : memref<?xf32, #gpuir.host>
      gpuir.write %v, %w[%t] : memref<32xf32, strided<[1]>, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["gpuir.proc"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_memory #gpuir.gmem for "X" in %p : !transform.any_op
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_memory #gpuir.smem for %a : !transform.any_op
    %i = transform.gpuir.loop "i" in %p : (!transform.any_op) -> !transform.any_op
    %f = transform.gpuir.wrap_device_function %i block(64) blocks_per_sm(2) cluster(2) : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %i cuda_tasks : !transform.any_op
    %t = transform.gpuir.loop "t" in %p : (!transform.any_op) -> !transform.any_op
    %f1 = transform.gpuir.insert_fence before %t cuda_in_order -> cuda_in_order : (!transform.any_op) -> !transform.any_op
    %f2 = transform.gpuir.insert_fence after %t cuda_in_order -> cuda_in_order : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// stage_mem of a buffer the statement reads and writes, in a window whose
// corner depends on the task: copied in (guarded at the buffer's extent,
// %n, which need not be a multiple of 16), accessed at offsets, copied out.
// CHECK-LABEL: gpuir.proc @stage
// CHECK:      gpuir.for %b = 0 to %n ceildiv 16 : seq {
// CHECK-NEXT:   %acc = gpuir.alloc : memref<16xf32, #gpuir.host>
// CHECK-NEXT:   gpuir.for %acc0 = 0 to 16 : seq {
// CHECK-NEXT:     gpuir.if %b * 16 + %acc0 < %n {
// CHECK-NEXT:       %[[V:.*]] = gpuir.read %X[%b * 16 + %acc0] : memref<?xf32, #gpuir.host>
// CHECK-NEXT:       gpuir.write %[[V]], %acc[%acc0] : memref<16xf32, #gpuir.host>
// CHECK:        gpuir.for %t = 0 to 16 : seq {
// CHECK-NEXT:     gpuir.if %b * 16 + %t < %n {
// CHECK-NEXT:       %[[W:.*]] = gpuir.read %Y[%b * 16 + %t]
// CHECK-NEXT:       gpuir.reduce %[[W]], %acc[%t] : memref<16xf32, #gpuir.host>
// CHECK:        gpuir.for %acc0 = 0 to 16 : seq {
// CHECK-NEXT:     gpuir.if %b * 16 + %acc0 < %n {
// CHECK-NEXT:       %[[U:.*]] = gpuir.read %acc[%acc0] : memref<16xf32, #gpuir.host>
// CHECK-NEXT:       gpuir.write %[[U]], %X[%b * 16 + %acc0] : memref<?xf32, #gpuir.host>
gpuir.proc @stage(%n: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n)>}, %Y: memref<?xf32, #gpuir.host>) {
  gpuir.for %b = 0 to %n ceildiv 16 : seq {
    gpuir.for %t = 0 to 16 : seq {
      gpuir.if %b * 16 + %t < %n {
        %v = gpuir.read %Y[%b * 16 + %t] : memref<?xf32, #gpuir.host>
        gpuir.reduce %v, %X[%b * 16 + %t] : memref<?xf32, #gpuir.host>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.gpuir.loop "t" in %root : (!transform.any_op) -> !transform.any_op
    %a, %c = transform.gpuir.stage_mem %t "X" [16] #gpuir.host as "acc" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// stage_mem needs no guard where the loops around keep the window inside
// the extents (%Mt * 64 rows, tiles of 64).
// CHECK-LABEL: gpuir.proc @stage_whole
// CHECK:      gpuir.for %A_s0 = 0 to 64 : seq {
// CHECK-NEXT:   gpuir.for %A_s1 = 0 to 8 : seq {
// CHECK-NEXT:     %[[V:.*]] = gpuir.read %A[%m * 64 + %A_s0, %A_s1 + 8]
// CHECK-NEXT:     gpuir.write %[[V]], %A_s[%A_s0, %A_s1] : memref<64x8xf32, #gpuir.smem>
gpuir.proc @stage_whole(%Mt: index, %A: memref<?x16xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 64, 16)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %r = 0 to 64 : seq {
        gpuir.for %c = 0 to 8 : seq {
          %v = gpuir.read %A[%m * 64 + %r, %c + 8] : memref<?x16xf32, #gpuir.gmem>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.gpuir.loop "r" in %root : (!transform.any_op) -> !transform.any_op
    %a, %c = transform.gpuir.stage_mem %r "A" [64, 8] #gpuir.smem as "A_s" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// inline: the call becomes the callee's body, its parameters bound to the
// arguments (then the rewrites can see its accesses).
// CHECK-LABEL: gpuir.proc @caller
// CHECK:      gpuir.for %i = 0 to %n : seq {
// CHECK-NEXT:   %[[V:.*]] = gpuir.read %A[%i * 2]
// CHECK-NEXT:   gpuir.write %[[V]], %B[%i]
// CHECK-NOT:  gpuir.call @
gpuir.proc @twice(%k: index, %X: memref<?xf32, #gpuir.host>, %Y: memref<?xf32, #gpuir.host>) {
  %v = gpuir.read %X[%k * 2] : memref<?xf32, #gpuir.host>
  gpuir.write %v, %Y[%k] : memref<?xf32, #gpuir.host>
}
gpuir.proc @caller(%n: index, %A: memref<?xf32, #gpuir.host>, %B: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    gpuir.call @twice(%i, %A, %B) : (index, memref<?xf32, #gpuir.host>, memref<?xf32, #gpuir.host>) -> ()
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["gpuir.call"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.inline %c : !transform.any_op
    transform.yield
  }
}

// -----

// Warp specialization: a device function of named warp groups, each
// statement on one group's warps.
// CHECK-LABEL: gpuir.proc @groups
// CHECK:      gpuir.device_function warps(producer = 4 dec(40), consumer = 8 inc(232)) {
// CHECK-NEXT:   gpuir.for %i = 0 to %n : cuda_tasks {
// CHECK-NEXT:     gpuir.warps "producer" {
// CHECK-NEXT:       gpuir.for %p = 0 to 32 : seq {
// CHECK:          gpuir.warps "consumer"[0 : 2] {
// CHECK-NEXT:       gpuir.for %q = 0 to 32 : seq {
gpuir.proc @groups(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    gpuir.for %p = 0 to 32 : seq {
      %v = gpuir.read %X[%i * 32 + %p] : memref<?xf32, #gpuir.host>
    }
    gpuir.for %q = 0 to 32 : seq {
      %v = gpuir.read %X[%i * 32 + %q] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.gpuir.loop "i" in %root : (!transform.any_op) -> !transform.any_op
    %proc = transform.structured.match ops{["gpuir.proc"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_memory #gpuir.gmem for "X" in %proc : !transform.any_op
    %f = transform.gpuir.wrap_device_function %i groups ["producer", "consumer"] warps [4, 8] setmaxnreg [-40, 232] : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %i cuda_tasks : !transform.any_op
    %p = transform.gpuir.loop "p" in %root : (!transform.any_op) -> !transform.any_op
    %w1 = transform.gpuir.wrap_warps %p "producer" : (!transform.any_op) -> !transform.any_op
    %q = transform.gpuir.loop "q" in %root : (!transform.any_op) -> !transform.any_op
    %w2 = transform.gpuir.wrap_warps %q "consumer" range [0, 2] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// lift_alloc out of a parallel loop when each iteration keeps its own part:
// every use indexes a dimension by the loop's variable (expand_dim made it).
// CHECK-LABEL: gpuir.proc @lift_own_part
// CHECK:      gpuir.device_function block(64) {
// CHECK-NEXT:   gpuir.for %i = 0 to %n : cuda_tasks {
// CHECK-NEXT:     %t = gpuir.alloc : memref<2x32xf32, #gpuir.rmem>
// CHECK-NEXT:     gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
// CHECK-NEXT:       gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
// CHECK-NEXT:         gpuir.read %X[%i * 64 + %w * 32 + %l]
// CHECK-NEXT:         gpuir.write %{{.*}}, %t[%w, %l]
gpuir.proc @lift_own_part(%n: index, %X: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %i = 0 to %n : cuda_tasks {
      gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
        %t = gpuir.alloc : memref<32xf32, #gpuir.rmem>
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %X[%i * 64 + %w * 32 + %l] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %t[%l] : memref<32xf32, #gpuir.rmem>
          %u = gpuir.read %t[%l] : memref<32xf32, #gpuir.rmem>
          gpuir.write %u, %X[%i * 64 + %w * 32 + %l] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.expand_dim %a 2 index(affine_map<(w) -> (w)>) of ["w"] : !transform.any_op
    transform.gpuir.lift_alloc %a : !transform.any_op
    transform.yield
  }
}

// -----

// add_if: a guard that holds wherever the statement runs (k <= Kt - 2 in a
// loop to Kt - 1), so nothing changes; with `specialize`, a guard that does
// not always hold, the statement under it and a copy otherwise.
// CHECK-LABEL: gpuir.proc @add_if
// CHECK:      gpuir.for %k = 0 to %Kt - 1 : seq {
// CHECK-NEXT:   gpuir.if %Kt >= %k + 2 {
// CHECK-NEXT:     gpuir.for %e = 0 to 4 : seq {
// CHECK-NEXT:       arith.constant
// CHECK-NEXT:       gpuir.write %{{.*}}, %X[%k * 4 + %e]
// CHECK:      gpuir.for %j = 0 to %Kt : seq {
// CHECK-NEXT:   gpuir.if %Kt >= %j + 2 {
// CHECK-NEXT:     gpuir.for %f = 0 to 4 : seq {
// CHECK-NEXT:       arith.constant
// CHECK-NEXT:       gpuir.write %{{.*}}, %X[%j * 4 + %f]
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     gpuir.for %f = 0 to 4 : seq {
// CHECK-NEXT:       arith.constant
// CHECK-NEXT:       gpuir.write %{{.*}}, %X[%j * 4 + %f]
gpuir.proc @add_if(%Kt: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(Kt) -> (Kt * 4)>}) {
  gpuir.for %k = 0 to %Kt - 1 : seq {
    gpuir.for %e = 0 to 4 : seq {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %X[%k * 4 + %e] : memref<?xf32, #gpuir.host>
    }
  }
  gpuir.for %j = 0 to %Kt : seq {
    gpuir.for %f = 0 to 4 : seq {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %X[%j * 4 + %f] : memref<?xf32, #gpuir.host>
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.gpuir.add_if %e affine_set<(k, Kt) : (Kt - k - 2 >= 0)> of ["k", "Kt"] : (!transform.any_op) -> !transform.any_op
    %f = transform.gpuir.loop "f" in %root : (!transform.any_op) -> !transform.any_op
    %h = transform.gpuir.add_if %f affine_set<(j, Kt) : (Kt - j - 2 >= 0)> of ["j", "Kt"] specialize : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// bind_expr: the product written to a one-element buffer and read back for
// its use (host memory outside a device function, registers inside).
// CHECK-LABEL: gpuir.proc @bind_expr
// CHECK:      gpuir.for %i = 0 to %n : seq {
// CHECK-NEXT:   %[[V:.*]] = gpuir.read %X[%i]
// CHECK-NEXT:   %p = gpuir.alloc : memref<f32, #gpuir.host>
// CHECK-NEXT:   %[[P:.*]] = arith.mulf %[[V]], %[[V]] : f32
// CHECK-NEXT:   gpuir.write %[[P]], %p[] : memref<f32, #gpuir.host>
// CHECK-NEXT:   %[[R:.*]] = gpuir.read %p[] : memref<f32, #gpuir.host>
// CHECK-NEXT:   gpuir.write %[[R]], %X[%i]
// CHECK:      %q = gpuir.alloc : memref<f32, #gpuir.rmem>
gpuir.proc @bind_expr(%n: index, %X: memref<?xf32, #gpuir.host>,
                      %Y: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 32)>}) {
  gpuir.for %i = 0 to %n : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    %p = arith.mulf %v, %v : f32
    gpuir.write %p, %X[%i] : memref<?xf32, #gpuir.host>
  }
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %Y[%b * 32 + %t] : memref<?xf32, #gpuir.gmem>
        %q = arith.addf %v, %v : f32
        gpuir.write %q, %Y[%b * 32 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["arith.mulf"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.gpuir.bind_expr %m as "p" : (!transform.any_op) -> !transform.any_op
    %a = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    %q = transform.gpuir.bind_expr %a as "q" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// ring: the two buffers staged per slice become rings of 4 stages indexed by
// kt mod 4, out of the slice loop, with one set of mbarriers before it (the
// second buffer takes the first's).
// CHECK-LABEL: gpuir.proc @ring
// CHECK:      %full = gpuir.alloc : !gpuir.barrier<mbarrier [4]>
// CHECK-NEXT: %As = gpuir.alloc : memref<4x64xf32, #gpuir.smem>
// CHECK-NEXT: %Bs = gpuir.alloc : memref<4x64xf32, #gpuir.smem>
// CHECK-NEXT: gpuir.for %kt = 0 to %Kt : seq {
// CHECK-NEXT:   gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
// CHECK-NEXT:     %[[V:.*]] = gpuir.read %A[%kt * 64 + %t]
// CHECK-NEXT:     gpuir.write %[[V]], %As[%kt mod 4, %t]
// CHECK-NEXT:     gpuir.write %[[V]], %Bs[%kt mod 4, %t]
gpuir.proc @ring(%Kt: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Kt) -> (Kt * 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 1 : cuda_tasks {
      gpuir.for %kt = 0 to %Kt : seq {
        %As = gpuir.alloc : memref<64xf32, #gpuir.smem>
        %Bs = gpuir.alloc : memref<64xf32, #gpuir.smem>
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%kt * 64 + %t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %As[%t] : memref<64xf32, #gpuir.smem>
          gpuir.write %v, %Bs[%t] : memref<64xf32, #gpuir.smem>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["gpuir.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    %as, %bs = transform.split_handle %a : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %full = transform.gpuir.ring %as stages(4) over "kt" barrier "full" : (!transform.any_op) -> !transform.any_op
    %full2 = transform.gpuir.ring %bs stages(4) over "kt" barrier "full" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// stage_mem in a thread loop: each thread's window of 2 at 2 %t is its own,
// so its copy-out races with no other thread's.
// CHECK-LABEL: gpuir.proc @stage_own_window
// CHECK:      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
// CHECK-NEXT:   %x = gpuir.alloc : memref<2xf32, #gpuir.rmem>
gpuir.proc @stage_own_window(%n: index, %X: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64)>}) {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
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
    %x, %c = transform.gpuir.stage_mem %e "X" [2] #gpuir.rmem as "x" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
