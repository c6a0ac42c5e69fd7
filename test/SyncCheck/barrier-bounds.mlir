// An mbarrier element outside the barrier array: code generation makes only
// the barriers the array declares, so another element's address is another
// barrier, or shared memory that holds none (a hang, or a neighbour's phases
// corrupted). The check evaluates a barrier's coordinates as it does a
// buffer's and refuses one outside its extents, for arrives, awaits and an
// instruction's trailing barrier (an adversarial review: the model took
// element 2 of an array of 2 for a barrier of its own, and accepted).
// RUN: sed 's/%%full\[%%k mod 2\]/%%full[%%k mod 3]/' %examples/ring_sums.mlir > %t.arrive.mlir
// RUN: not rake-opt %t.arrive.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=ARRIVE
// ARRIVE: error: out-of-bounds barrier element: threads 0..127 of task 0 arrive on full[2], but index 2 of dimension 0 is outside its extent 2 (code generation makes only those barriers: another element's address is another barrier or other memory) (at rows = 2, K = 5)
// ARRIVE: note: full is declared here
// RUN: sed 's/%%empty\[%%k mod 2\]/%%empty[%%k mod 2 + 1]/' %examples/ring_sums.mlir > %t.await.mlir
// RUN: not rake-opt %t.await.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=AWAIT
// AWAIT: error: out-of-bounds barrier element: threads 0..127 of task 0 await empty[2], but index 2 of dimension 0 is outside its extent 2
// A TMA copy completing on element 4 of 4 mbarriers.
// RUN: sed -e 's/>> %%full\[%%k mod 4\]/>> %%full[%%k mod 5]/' -e 's/%%full\[(%%k + 2) mod 4\]/%%full[(%%k + 3) mod 5]/' %examples/gemm_sm90a_tma.mlir > %t.tma.mlir
// RUN: not rake-opt %t.tma.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=TMA
// TMA: error: out-of-bounds barrier element: thread 0 of task 0 arrive on full[4], but index 4 of dimension 0 is outside its extent 4

// An arrive writes the mbarrier's word in shared memory, another CTA's for
// a remote arrive: it must be ordered before every thread that may reuse
// the memory, like any access of a shared buffer. Here each CTA releases a
// slot in both CTAs after the task's last cluster barrier, so the arrive
// may reach the other CTA after it moved on to its next task or exited (an
// adversarial review; before, the check accepted this kernel).
// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-check

gpuir.proc @late_remote_arrive(%n: index, %X: memref<?x2x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 2, 128)>}, %Y: memref<?x2x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 2, 128)>})
    attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function cluster(2) blocks_per_sm(1) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-error @+1 {{free without sync: e is freed while an arrive on e[0:2, 0] by threads 0..127 of task 0 on cuda_in_order_ram may still be unordered with the threads that free it (at n = 3)}}
      %e = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2, 1]>
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.await %e[%c, 0], cuda_in_order : !gpuir.barrier<mbarrier_prearrive [2, 1]>
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %x = gpuir.read %X[%task, %c, %t] : memref<?x2x128xf32, #gpuir.gmem>
          gpuir.write %x, %Y[%task, %c, %t] : memref<?x2x128xf32, #gpuir.gmem>
        }
      }
      gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
      gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        // expected-note @+1 {{the arrive}}
        gpuir.arrive cuda_in_order >> %e[0 : 2, 0] : !gpuir.barrier<mbarrier_prearrive [2, 1]>
      // expected-note @-3 {{freed here, at the end of its scope}}
      }
    }
  }
}

// -----

// The same release before the cluster barrier: accepted.
gpuir.proc @remote_arrive_then_cluster_barrier(%n: index, %X: memref<?x2x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 2, 128)>}, %Y: memref<?x2x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 2, 128)>})
    attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function cluster(2) blocks_per_sm(1) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %e = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2, 1]>
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.await %e[%c, 0], cuda_in_order : !gpuir.barrier<mbarrier_prearrive [2, 1]>
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %x = gpuir.read %X[%task, %c, %t] : memref<?x2x128xf32, #gpuir.gmem>
          gpuir.write %x, %Y[%task, %c, %t] : memref<?x2x128xf32, #gpuir.gmem>
        }
      }
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.arrive cuda_in_order >> %e[0 : 2, 0] : !gpuir.barrier<mbarrier_prearrive [2, 1]>
      }
      gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
      gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
    }
  }
}
