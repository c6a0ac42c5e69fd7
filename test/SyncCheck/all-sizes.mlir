// RUN: rake-opt %examples/gemm_sm90a_tma.mlir --rake-sync-check=all-sizes -o /dev/null 2>&1 | FileCheck %s --check-prefix=TMA
// RUN: rake-opt %rake_src/bench/gemm_examples/gemm_sm90a_ws2.mlir --rake-sync-check="all-sizes sizes=Kt=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WS
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x256_g8_bf16.mlir --rake-sync-check=all-sizes -o /dev/null 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x256_g4c2_bf16.mlir --rake-sync-check=all-sizes -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLUSTER
// The flagship (its epilogue through TMA stores) and the split-K GEMM (its
// splits are a task loop of constant trip count, whose planes the
// disjointness proof tells apart).
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir --rake-sync-check=all-sizes -o /dev/null 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x256_k2m2_f32.mlir --rake-sync-check=all-sizes -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLITK
// SPLITK: remark: synchronization check for every Nt >= 1 at Kt = 3: no hazard; task 0 interpreted at grid size 1, every task of every grid proven by translation to stay inside the extents and apart from the others
// SPLITK: remark: synchronization check for every Nt >= 1 at Kt = 1: no hazard
// RUN: not rake-opt %examples/vector_add.mlir --rake-sync-check=all-sizes -o /dev/null 2>&1 | FileCheck %s --check-prefix=VADD
// RUN: not rake-opt %s -split-input-file --rake-sync-check=all-sizes -o /dev/null 2>&1 | FileCheck %s

// The all-sizes mode: the parameters the task loops run to are left free,
// the others keep their values; task 0 is interpreted at grid size 1 and
// every task of every grid is proven by translation (docs/SyncCheck.md,
// "Every size of the task grid").

// TMA: remark: synchronization check for every Mt >= 1, Nt >= 1 at Kt = 7: no hazard; task 0 interpreted at grid size 1, every task of every grid proven by translation to stay inside the extents and apart from the others (code generation runs fewer than 2^32 tasks; TMA coordinates are 32-bit: every dimension a TMA copy indexes below 2^31)
// TMA: remark: synchronization check for every Mt >= 1, Nt >= 1 at Kt = 1: no hazard
// WS: remark: synchronization check for every Mt >= 1, Nt >= 1 at Kt = 3: no hazard

// Tasks in groups (a task loop of constant trip count, here 8 tiles down M
// a group) are the same at every size: the group's loop is bounded by its
// trip count, the grid's sizes are left free. The cluster GEMM (groups of
// 4 clusters, multicast within each) too.
// GROUP: remark: synchronization check for every Mg >= 1, Nt >= 1 at Kt = 7: no hazard; task 0 interpreted at grid size 1, every task of every grid proven by translation to stay inside the extents and apart from the others
// GROUP: remark: synchronization check for every Mg >= 1, Nt >= 1 at Kt = 1: no hazard
// CLUSTER: remark: synchronization check for every Mg >= 1, Nt >= 1 at Kt = 7: no hazard
// CLUSTER: remark: synchronization check for every Mg >= 1, Nt >= 1 at Kt = 1: no hazard

// A grid of n ceildiv 256 tasks with a partial last tile does not fit.
// VADD: error: the synchronization check cannot prove every size of the task grid: a task loop does not run from 0 to a parameter of the procedure (write the grid's size as its own parameter, e.g. the number of tiles); check concrete sizes instead (without all-sizes)

// Each task writes one element of the next task's tile: no race at one
// task, a race at every larger grid.
// CHECK: error: the synchronization check cannot prove every size of the task grid: for some sizes two tasks access elements of C that one of them writes; check concrete sizes instead (without all-sizes)
gpuir.proc @overlap(%Mt: index, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 64 + 1)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %C[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
      }
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 1.0 : f32
        gpuir.write %z, %C[%m * 64 + 64] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// C grows by 32 a task while the tasks move by 64: in bounds up to two
// tasks, out of bounds from three.
// CHECK: error: the synchronization check cannot prove every size of the task grid: for some sizes a task accesses C outside dimension 0 of its extent; check concrete sizes instead (without all-sizes)
gpuir.proc @outgrown(%Mt: index, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 32 + 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %C[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// The grid's size used inside the task (the last task differs).
// CHECK: error: the synchronization check cannot prove every size of the task grid: Mt sizes the task grid but is used inside the tasks too (by amir.guard); the argument needs the grid's sizes only in the task loops and the extents of global variables; check concrete sizes instead (without all-sizes)
gpuir.proc @last_differs(%Mt: index, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.if %m == %Mt - 1 {
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %C[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// A guard on the task index alone: the tasks' classes could depend on the
// sizes, so the argument does not apply.
// CHECK: error: the synchronization check cannot prove every size of the task grid: a guard or loop bound in the task depends on the task indices (a partial tile, or a task that differs), so the tasks' classes depend on the sizes; check concrete sizes instead (without all-sizes)
gpuir.proc @first_differs(%Mt: index, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.if %m == 0 {
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %C[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// A race inside the task is a race at grid size 1, reported as such.
// CHECK: error: RAW hazard: thread 0 of task 0 read tile[63] on cuda_in_order_ram, written by thread 63 of task 0 on cuda_in_order_ram without synchronization that orders it before (at Mt = 1)
gpuir.proc @race(%Mt: index, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %tile = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %tile[%t] : memref<64xf32, #gpuir.smem>
      }
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tile[63 - %t] : memref<64xf32, #gpuir.smem>
        gpuir.write %v, %C[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// One parameter for two task loops: the grid's sizes must be independent.
// CHECK: error: the synchronization check cannot prove every size of the task grid: Mt bounds two task loops; check concrete sizes instead (without all-sizes)
gpuir.proc @twice(%Mt: index, %C: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 64, Mt * 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %n = 0 to %Mt : cuda_tasks {
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %C[%m * 64 + %t, %n] : memref<?x?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// An extent that is not a linear form in the grid's size.
// CHECK: error: the synchronization check cannot prove every size of the task grid: the extent of dimension 0 of C is not linear in the grid's sizes; check concrete sizes instead (without all-sizes)
gpuir.proc @nonlinear(%Mt: index, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> ((Mt floordiv 2) * 128 + 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %C[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// Groups of 4 tasks down M whose tiles overlap by one element: within a
// group, tasks i and i + 1 write the same element (only task 0 is
// interpreted; the group's loop bounds the tasks' differences).
// CHECK: error: the synchronization check cannot prove every size of the task grid: for some sizes two tasks access elements of C that one of them writes; check concrete sizes instead (without all-sizes)
gpuir.proc @group_overlap(%Mg: index, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mg) -> (Mg * 256 + 1)>}) {
  gpuir.device_function block(64) {
    gpuir.for %mg = 0 to %Mg : cuda_tasks {
      gpuir.for %mi = 0 to 4 : cuda_tasks {
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %C[%mg * 256 + %mi * 64 + %t] : memref<?xf32, #gpuir.gmem>
        }
        gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 1.0 : f32
          gpuir.write %z, %C[%mg * 256 + %mi * 64 + 64] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// A group of 4 tiles of 128 in a group of 256 elements: the last tasks of
// each group leave C's extent.
// CHECK: error: the synchronization check cannot prove every size of the task grid: for some sizes a task accesses C outside dimension 0 of its extent; check concrete sizes instead (without all-sizes)
gpuir.proc @group_outgrown(%Mg: index, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mg) -> (Mg * 256)>}) {
  gpuir.device_function block(64) {
    gpuir.for %mg = 0 to %Mg : cuda_tasks {
      gpuir.for %mi = 0 to 4 : cuda_tasks {
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %C[%mg * 256 + %mi * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// A grid of constant size has no size to leave free.
// CHECK: error: the synchronization check cannot prove every size of the task grid: the procedure has no task loop over a parameter; check concrete sizes instead (without all-sizes)
gpuir.proc @fixed_grid(%C: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 4 : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %C[%m * 64 + %t] : memref<256xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// No device function at all.
// CHECK: error: the synchronization check cannot prove every size of the task grid: the procedure has no task loop over a parameter; check concrete sizes instead (without all-sizes)
gpuir.proc @host(%n: index, %A: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n)>}) {
  gpuir.for %i = 0 to %n : seq {
    %z = arith.constant 0.0 : f32
    gpuir.write %z, %A[%i] : memref<?xf32, #gpuir.host>
  }
}

// -----

// Where a buffer declares no extent, the check still bounds its indices
// at 0 and 2^40 (at a concrete size it refuses an index past 2^40 or
// below 0), so the proof must too: over tasks below 2^32, task m writes
// up to m * 2^20 + 63, past 2^40 from m = 2^20 on (found by a review: the
// mode claimed this kernel for every size).
// CHECK: error: the synchronization check cannot prove every size of the task grid: for some sizes a task accesses C in dimension 0, which declares no extent, below 0 or at 2^40 or more (the check's limit); check concrete sizes instead (without all-sizes)
gpuir.proc @past_2_40_without_extent(%Mt: index, %C: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %C[%m * 1048576 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// Below 0 from task 1 on.
// CHECK: error: the synchronization check cannot prove every size of the task grid: for some sizes a task accesses C in dimension 0, which declares no extent, below 0 or at 2^40 or more (the check's limit); check concrete sizes instead (without all-sizes)
gpuir.proc @negative_without_extent(%Mt: index, %C: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %C[%t - %m * 64] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// Every task below 2^32 stays below 2^38: proven.
// CHECK: remark: synchronization check for every Mt >= 1: no hazard; task 0 interpreted at grid size 1, every task of every grid proven by translation to stay inside the extents and apart from the others (code generation runs fewer than 2^32 tasks)
gpuir.proc @inside_2_40_without_extent(%Mt: index, %C: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %C[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
