// Control arithmetic that leaves 64 bits in some task only: the symmetry
// reduction must not take that task for its class's representative, and
// the all-sizes mode must not claim it (an adversarial review found each):
// - a guard whose sides each wrap in task 1, while their difference does
//   not depend on the task (the fence is skipped in task 1 only);
// - a task's translation that wraps past 2^63 (an index outside the
//   extent in task 1 only);
// - an index at or past 2^40 in task 2 only, which the concrete check
//   refuses (it handles indices below kUnboundedExtent) and the proof by
//   translation missed where no extent was declared.
// Each is interpreted task by task, and reported as the full check reports it.
// RUN: not rake-opt %s -split-input-file --rake-sync-check="summary" 2>&1 | FileCheck %s
// RUN: env RAKE_SYNC_CHECK_COMPARE=1 not rake-opt %s -split-input-file --rake-sync-check 2>&1 | FileCheck %s --check-prefix=COMPARE
// COMPARE-NOT: the symmetry reduction changed the check
// RUN: not rake-opt %s -split-input-file --rake-sync-check=all-sizes 2>&1 | FileCheck %s --check-prefix=ALL

// CHECK: error: RAW hazard: thread 0 of task 1 read tile[63] on cuda_in_order_ram, written by thread 63 of task 1 on cuda_in_order_ram without synchronization that orders it before
// CHECK: remark: synchronization check: 1 hazard in 2 tasks, each interpreted (a guard's arithmetic in the task may leave 64 bits in some task)
gpuir.proc @wrapping_guard(%C: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 4 : cuda_tasks {
      %tile = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %tile[%t] : memref<64xf32, #gpuir.smem>
      }
      gpuir.if %m * 4611686018427387904 < %m * 4611686018427387904 + 4611686018427387904 {
        gpuir.fence cuda_in_order -> cuda_in_order
      }
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tile[63 - %t] : memref<64xf32, #gpuir.smem>
        gpuir.write %v, %C[%m * 64 + %t] : memref<256xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// CHECK: error: out-of-bounds access: thread 0 of task 1 write C[9223372036854775800], but index 9223372036854775800 of dimension 0 is outside its extent 64
// CHECK: remark: synchronization check: 1 hazard in 2 tasks, each interpreted (task 1 may access C outside its extents)
gpuir.proc @wrapping_translation(%C: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 2 : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %C[%m * 9223372036854775800 + %t] : memref<64xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// CHECK: error: out-of-bounds access: thread 0 of task 2 write C[1099511627776]
// CHECK: remark: synchronization check at Mt = 3: 1 hazard in 3 tasks, each interpreted (task 2 may access C outside its extents)
gpuir.proc @past_the_marker(%Mt: index, %C: memref<?xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{Mt = 3}]} {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %C[%m * 549755813888 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// Loop bounds that wrap in task 2 (both ends alike: one iteration in
// every task); the reduction does not class tasks whose bounds the
// interpreter computes past 64 bits.
// CHECK: remark: synchronization check: no hazard in 3 tasks, each interpreted (a loop bound in the task may leave 64 bits in some task)
// ALL: error: the synchronization check cannot prove every size of the task grid: the procedure has no task loop over a parameter
gpuir.proc @wrapping_bound(%C: memref<192xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 3 : cuda_tasks {
      gpuir.for %i = %m * 4611686018427387904 to %m * 4611686018427387904 + 1 : seq {
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %C[%m * 64 + %t] : memref<192xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// Task 3 lies 3 * 2^62 elements from task 0, past 64 bits (its index
// wraps back to 2^62 in the interpreter): the proof stops at task 1, which
// already leaves the extent, so no wrapped translation is ever used.
// CHECK: error: out-of-bounds access: thread 0 of task 1 write C[4611686018427387904]
// CHECK: remark: synchronization check: 1 hazard in 4 tasks, each interpreted (task 1 may access C outside its extents)
gpuir.proc @wrapping_delta(%C: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 4 : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %C[%m * 4611686018427387904 + %t] : memref<64xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// For every grid size: the sides of the guard wrap from task 1 (so at
// Mt = 2 already), and task indices up to 2^32 make the all-sizes mode
// refuse.
// ALL: error: the synchronization check cannot prove every size of the task grid: a guard's arithmetic in the task may leave 64 bits in some task; check concrete sizes instead (without all-sizes)
// CHECK: error: RAW hazard: thread 0 of task 1 read tile[63]
// CHECK: remark: synchronization check at Mt = 2: 1 hazard in 2 tasks, each interpreted (a guard's arithmetic in the task may leave 64 bits in some task)
gpuir.proc @wrapping_guard_every_size(%Mt: index, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 64)>}) attributes {gpuir.check_sizes = [{Mt = 2}]} {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %tile = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %tile[%t] : memref<64xf32, #gpuir.smem>
      }
      gpuir.if %m * 4611686018427387904 < %m * 4611686018427387904 + 4611686018427387904 {
        gpuir.fence cuda_in_order -> cuda_in_order
      }
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tile[63 - %t] : memref<64xf32, #gpuir.smem>
        gpuir.write %v, %C[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
