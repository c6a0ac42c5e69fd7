// A relay of data between CTAs: warp b of each CTA of a cluster of two
// writes its half of a row of X with plain stores and arrives on both
// CTAs' mbarrier rem; warp a awaits its CTA's rem and arrives on its CTA's
// loc; warp b then awaits loc and reads the other CTA's half. The check
// accepts it through the chain of the two barriers, so the remote arrive
// must release at cluster scope (and its wait acquire at cluster scope),
// although the warp that awaits it touches nothing: a CTA-scope release in
// one CTA does not synchronize with an acquire in another (found by an
// adversarial review: code generation chose .release.cta here).
// RUN: rake-opt %s --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared.b64
// CHECK: mbarrier.arrive.release.cluster.shared::cluster.b64
// CHECK: mbarrier.arrive.release.cluster.shared::cluster.b64
gpuir.proc @relay(%n: index,
    %X: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>},
    %Y: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>})
    attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function cluster(2) warps(a = 1, b = 1) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %rem = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %loc = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.warps "b" {
          gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            %v = gpuir.read %Y[%task, %c * 32 + %t] : memref<?x64xf32, #gpuir.gmem>
            gpuir.write %v, %X[%task, %c * 32 + %t] : memref<?x64xf32, #gpuir.gmem>
          }
          gpuir.arrive cuda_in_order >> %rem[0 : 2] : !gpuir.barrier<mbarrier [2]>
        }
      }
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.warps "a" {
          gpuir.await %rem[%c], cuda_in_order : !gpuir.barrier<mbarrier [2]>
          gpuir.arrive cuda_in_order >> %loc[%c] : !gpuir.barrier<mbarrier [2]>
        }
      }
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.warps "b" {
          gpuir.await %loc[%c], cuda_in_order : !gpuir.barrier<mbarrier [2]>
          gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            %w = gpuir.read %X[%task, 32 - %c * 32 + %t] : memref<?x64xf32, #gpuir.gmem>
            gpuir.write %w, %Y[%task, %c * 32 + %t] : memref<?x64xf32, #gpuir.gmem>
          }
        }
      }
      gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
      gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
    }
  }
}
