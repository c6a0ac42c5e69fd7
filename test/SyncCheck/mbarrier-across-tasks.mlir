// An mbarrier's phases carry over from task to task (code generation
// initializes it once per kernel), and the barrier that ends a task orders
// the threads of one CTA only. Here CTA 1 arrives on CTA 0's mbarrier every
// task and never waits for anything: it can arrive for the next task before
// CTA 0 has waited in this one, both phases complete, and CTA 0's parity wait
// then misses one and hangs on its last task (found by an adversarial
// review; the same run-ahead within one task was already refused). The twin
// that ends each task with a cluster barrier passes.
// RUN: not rake-opt %s --rake-check 2>&1 | FileCheck %s
// CHECK: mbarrier-across-tasks.mlir:[[@LINE+26]]:11: error: mbarrier phase run-ahead across tasks: threads 0..31 of task 0 await phase 0 of rem[0] last in the task, and nothing orders that await before threads 32..63 of task 0, which arrive on it again in the next task: the barrier is initialized once per kernel and its phases carry over, while the barrier that ends a task orders one CTA's threads only, so the next task's arrivals could complete two phases before this wait; end the task with a cluster barrier (gpuir.arrive and gpuir.await on a cluster_sync barrier) (at n = 4)
// CHECK: mbarrier-across-tasks.mlir:[[@LINE+20]]:11: note: an arrive by threads 32..63 of task 0
// RUN: sed -e 's/^\( *\)%%rem = .*/&\n\1%%cs = gpuir.alloc : !gpuir.barrier<cluster_sync>/' -e 's/^\( *\)\/\/ END OF TASK$/\1gpuir.arrive cuda_in_order >> %%cs : !gpuir.barrier<cluster_sync>\n\1gpuir.await %%cs, cuda_in_order : !gpuir.barrier<cluster_sync>/' %s > %t.mlir
// RUN: rake-opt %t.mlir --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %t.mlir | FileCheck %s --check-prefix=TWIN
// TWIN-COUNT-2: barrier.cluster.arrive.aligned;
// TWIN: mbarrier.arrive.release.cluster.shared::cluster.b64
// TWIN: mbarrier.try_wait.parity
gpuir.proc @remote(%n: index,
    %X: memref<?x32xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 32)>},
    %Y: memref<?x32xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 32)>})
    attributes {gpuir.check_sizes = [{n = 4}]} {
  gpuir.device_function cluster(2) block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %rem = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.if %c == 1 {
          gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            %one = arith.constant 1.0 : f32
            gpuir.write %one, %X[%task, %t] : memref<?x32xf32, #gpuir.gmem>
          }
          gpuir.arrive cuda_in_order >> %rem[%c - 1 : %c] : !gpuir.barrier<mbarrier [2]>
        }
      }
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.if %c == 0 {
          gpuir.await %rem[%c], cuda_in_order : !gpuir.barrier<mbarrier [2]>
          gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            %w = gpuir.read %X[%task, %t] : memref<?x32xf32, #gpuir.gmem>
            gpuir.write %w, %Y[%task, %t] : memref<?x32xf32, #gpuir.gmem>
          }
        }
      }
      // END OF TASK
    }
  }
}
