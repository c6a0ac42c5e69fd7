// RUN: env RAKE_SYNC_CHECK_COMPARE=1 rake-opt %s -split-input-file -verify-diagnostics --rake-sync-check=summary
// RUN: env -u RAKE_SYNC_CHECK_COMPARE rake-opt %rake_src/examples/gemm_sm90a_tma.mlir --rake-sync-check="sizes=Mt=16,Nt=32,Kt=64 summary" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GEMM
// RUN: rake-opt %rake_src/examples/gemm_sm90a_tma.mlir --rake-sync-check="sizes=Mt=2,Nt=2,Kt=2 summary symmetry=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// The symmetry reduction across tasks (docs/SyncCheck.md, "Symmetry across
// tasks"): one representative of each class of equivalent tasks is
// interpreted, the others proven by translation; whatever the translation
// cannot prove is interpreted task by task. Each kernel here has a race
// that exists only between or in particular tasks, and the reduced check
// must report it exactly as the full one does (RAKE_SYNC_CHECK_COMPARE=1
// runs both and aborts on any difference).

// The TMA GEMM at 4096^3: 512 tasks, one class (not compared with the full
// check under check-rake-symmetry, which takes minutes at this size).
// GEMM: remark: synchronization check at Mt = 16, Nt = 32, Kt = 64: no hazard in 512 tasks; 1 class of equivalent tasks, 1 interpreted, the rest proven by translation
// OFF: remark: synchronization check at Mt = 2, Nt = 2, Kt = 2: no hazard in 4 tasks, each interpreted (the symmetry reduction is off)

// A partial last tile, fenced everywhere: tasks 0-2 (every guard true) and
// task 3 (its threads' guard mixed) are two classes; no hazard.
// expected-remark @+1 {{synchronization check at n = 200, nt = 4: no hazard in 4 tasks; 2 classes of equivalent tasks, 2 interpreted, the rest proven by translation}}
gpuir.proc @edge_ok(%n: index, %nt: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n, nt) -> (n)>}, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n, nt) -> (n)>})
    attributes {gpuir.check_sizes = [{n = 200, nt = 4}]} {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %nt : cuda_tasks {
      %tile = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %tile[%t] : memref<64xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.if %m * 64 + %t < %n {
          %v = gpuir.read %tile[63 - %t] : memref<64xf32, #gpuir.smem>
          gpuir.write %v, %C[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// The fence only in full tiles: a race on the last, partial tile alone,
// found by its class's representative.
// expected-remark @+1 {{synchronization check at n = 200, nt = 4: 1 hazard in 4 tasks; 2 classes of equivalent tasks, 2 interpreted, the rest proven by translation}}
gpuir.proc @edge_race(%n: index, %nt: index, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n, nt) -> (n)>})
    attributes {gpuir.check_sizes = [{n = 200, nt = 4}]} {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %nt : cuda_tasks {
      %tile = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        // expected-note @+1 {{the earlier write of tile[63]}}
        gpuir.write %z, %tile[%t] : memref<64xf32, #gpuir.smem>
      }
      gpuir.if %m * 64 + 64 <= %n {
        gpuir.fence cuda_in_order -> cuda_in_order
      }
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.if %m * 64 + %t < %n {
          // expected-error @+1 {{RAW hazard: thread 0 of task 3 read tile[63] on cuda_in_order_ram, written by thread 63 of task 3 on cuda_in_order_ram without synchronization that orders it before}}
          %v = gpuir.read %tile[63 - %t] : memref<64xf32, #gpuir.smem>
          gpuir.write %v, %C[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// Task 2 writes one element past its tile, into task 3's: a race between
// two particular tasks, which the translation of the footprints finds.
// expected-remark @+1 {{synchronization check: 1 hazard in 4 tasks, each interpreted (tasks 2 and 3 both access elements of C that one of them writes)}}
gpuir.proc @neighbour(%C: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 4 : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        // expected-error @+1 {{WAW hazard: thread 0 of task 3 write C[192] on cuda_in_order_ram, written by thread 0 of task 2 on cuda_in_order_ram without synchronization that orders it before}}
        gpuir.write %z, %C[%m * 64 + %t] : memref<256xf32, #gpuir.gmem>
      }
      gpuir.if %m == 2 {
        gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 1.0 : f32
          // expected-note @+1 {{the earlier write of C[192]}}
          gpuir.write %z, %C[%m * 64 + 64] : memref<256xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// Split K without a reduction: tasks (m, 0) and (m, 1) write the same tile.
// expected-remark @+1 {{synchronization check: 1 hazard in 4 tasks, each interpreted (tasks 0 and 1 both access elements of C that one of them writes)}}
gpuir.proc @same_tile(%C: memref<128xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 2 : cuda_tasks {
      gpuir.for %k = 0 to 2 : cuda_tasks {
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 0.0 : f32
          // expected-error @+2 {{WAW hazard: thread 0 of task 1 write C[0] on cuda_in_order_ram, written by thread 0 of task 0 on cuda_in_order_ram without synchronization that orders it before}}
          // expected-note @+1 {{the earlier write of C[0]}}
          gpuir.write %z, %C[%m * 64 + %t] : memref<128xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// CTA 1 of each cluster reads its neighbour thread's element, CTA 0 only
// its own: a race at one cluster rank, inside every task.
// expected-remark @+1 {{synchronization check: 1 hazard in 3 tasks; 1 class of equivalent tasks, 1 interpreted, the rest proven by translation}}
gpuir.proc @one_rank(%Y: memref<3x2x64xf32, #gpuir.gmem>) {
  gpuir.device_function cluster(2) block(64) {
    gpuir.for %task = 0 to 3 : cuda_tasks {
      %s = gpuir.alloc : memref<2x64xf32, #gpuir.smem>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 0.0 : f32
          // expected-note @+1 {{the earlier write of s[1, 1]}}
          gpuir.write %z, %s[%c, %t] : memref<2x64xf32, #gpuir.smem>
        }
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          // expected-error @+1 {{RAW hazard: thread 64 of task 0 read s[1, 1] on cuda_in_order_ram, written by thread 65 of task 0 on cuda_in_order_ram without synchronization that orders it before}}
          %v = gpuir.read %s[%c, (%t + %c) mod 64] : memref<2x64xf32, #gpuir.smem>
          gpuir.write %v, %Y[%task, %c, %t] : memref<3x2x64xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// The last task's tile runs past the end of C.
// expected-note @+2 {{C is declared here}}
// expected-remark @+1 {{synchronization check at n = 200, nt = 4: 1 hazard in 4 tasks, each interpreted (task 3 may access C outside its extents)}}
gpuir.proc @oob_last(%n: index, %nt: index, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n, nt) -> (n)>})
    attributes {gpuir.check_sizes = [{n = 200, nt = 4}]} {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %nt : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        // expected-error @+1 {{out-of-bounds access: thread 8 of task 3 write C[200], but index 200 of dimension 0 is outside its extent 200}}
        gpuir.write %z, %C[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// A shared buffer indexed by the task: no translation argument, every
// task interpreted.
// expected-remark @+1 {{synchronization check: no hazard in 4 tasks, each interpreted (an index of the task's own variable depends on a task index)}}
gpuir.proc @refused(%C: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 4 : cuda_tasks {
      %s = gpuir.alloc : memref<2x64xf32, #gpuir.smem>
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %s[%m mod 2, %t] : memref<2x64xf32, #gpuir.smem>
        %v = gpuir.read %s[%m mod 2, %t] : memref<2x64xf32, #gpuir.smem>
        gpuir.write %v, %C[%m * 64 + %t] : memref<256xf32, #gpuir.gmem>
      }
    }
  }
}
