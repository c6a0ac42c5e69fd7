// The check assumes a CTA barrier at the end of every task that uses shared
// memory; an mbarrier lives there, and its phases carry over to the CTA's
// next task. A task whose only shared state is an mbarrier (two writer
// warps arrive, a reader warp awaits) got no barrier: a writer warp could
// arrive for its next task before the other had arrived for this one,
// completing the reader's phase early (found by an adversarial review).
// Each warp path's task loop now ends with the CTA's barrier.
// RUN: rake-opt %s --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s
// CHECK: mbarrier.init.shared.b64
// CHECK-COUNT-2: barrier.sync 0;
gpuir.proc @no_task_end_barrier_race(%n: index, %X: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>}, %Y: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>}, %Z: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>})
    attributes {gpuir.check_sizes = [{n = 4}]} {
  gpuir.device_function warps(r = 1, w = 2) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.warps "w" {
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %x = gpuir.read %X[%task, %t] : memref<?x64xf32, #gpuir.gmem>
          gpuir.write %x, %Y[%task, %t] : memref<?x64xf32, #gpuir.gmem>
        }
        gpuir.arrive cuda_in_order >> %b : !gpuir.barrier<mbarrier>
      }
      gpuir.warps "r" {
        gpuir.await %b, cuda_in_order : !gpuir.barrier<mbarrier>
        gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %h = 0 to 2 : seq {
            %y = gpuir.read %Y[%task, %h * 32 + %t] : memref<?x64xf32, #gpuir.gmem>
            gpuir.write %y, %Z[%task, %h * 32 + %t] : memref<?x64xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}
