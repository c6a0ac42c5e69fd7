// A copy through shared memory, derived: stage X in shared memory, turn the
// copy-in into cp.async (replace), commit it to a group and wait for it
// before the reads (alloc_barrier, insert_arrive, insert_await). The check
// proves the result; without the await it finds the race.
//
// RUN: rake-opt %s --transform-interpreter | FileCheck %s
// RUN: rake-opt %s --transform-interpreter --rake-check -o /dev/null
// RUN: sed '/insert_await/d' %s | not rake-opt --transform-interpreter --rake-check -o /dev/null 2>&1 | FileCheck %s --check-prefix=RACE

// CHECK:      %Xs = gpuir.alloc : memref<256xbf16, #gpuir.smem>
// CHECK-NEXT: %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
// CHECK-NEXT: gpuir.for %ct = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
// CHECK-NEXT:   %[[D:.*]] = gpuir.window %Xs[%ct * 8 : %ct * 8 + 8]
// CHECK-NEXT:   %[[S:.*]] = gpuir.window %X[%b * 256 + %ct * 8 : %b * 256 + %ct * 8 + 8]
// CHECK-NEXT:   gpuir.sm80.cp_async %[[D]], %[[S]]
// CHECK-NEXT: }
// CHECK-NEXT: gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
// CHECK-NEXT: gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<cp_async_group>
// CHECK-NEXT: gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
// CHECK:          gpuir.read %Xs[%t * 8 + %e]

// RACE: error: RAW hazard: thread 0 of task 0 read Xs[0:8] on cuda_in_order_ram, written by thread 0 of task 0 on Sm80_cp_async without synchronization that orders it before (at n = 2)
gpuir.proc @copy(%n: index, %X: memref<?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 256)>}, %Y: memref<?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 256)>})
    attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(32) {
    gpuir.for %b = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %e = 0 to 8 : seq {
          %v = gpuir.read %X[%b * 256 + %t * 8 + %e] : memref<?xbf16, #gpuir.gmem>
          gpuir.write %v, %Y[%b * 256 + %t * 8 + %e] : memref<?xbf16, #gpuir.gmem>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.gpuir.loop "t" in %root : (!transform.any_op) -> !transform.any_op
    %xs, %copy = transform.gpuir.stage_mem %t "X" [256] #gpuir.smem as "Xs" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ct, %ce = transform.gpuir.divide_loop %copy by 8 names("ct", "ce") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.gpuir.set_loop_mode %ct cuda_threads<#gpuir.unit<thread>> : !transform.any_op
    %cp = transform.gpuir.replace %ce with "gpuir.sm80.cp_async" ["Xs", "X"] : (!transform.any_op) -> !transform.any_op
    %cg = transform.gpuir.alloc_barrier before %ct !gpuir.barrier<cp_async_group> as "cg" : (!transform.any_op) -> !transform.any_op
    %a = transform.gpuir.insert_arrive after %ct Sm80_cp_async >> "cg" : (!transform.any_op) -> !transform.any_op
    %w = transform.gpuir.insert_await before %t "cg" cuda_in_order outstanding(0) : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
