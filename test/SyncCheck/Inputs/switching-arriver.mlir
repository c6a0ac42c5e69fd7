// Tasks below 100 arrive on each CTA's element from that CTA; tasks from
// 100 on arrive on both elements from CTA 1 (see
// ../arrive-same-threads-every-task.mlir).
gpuir.proc @switching_arriver(%n: index)
    attributes {gpuir.check_sizes = [{n = 200}]} {
  gpuir.device_function cluster(2) block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      gpuir.if %task < 100 {
        gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          gpuir.arrive cuda_in_order >> %bar[%c] : !gpuir.barrier<mbarrier [2]>
        }
        gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
        gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
        gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          gpuir.await %bar[%c], cuda_in_order : !gpuir.barrier<mbarrier [2]>
        }
      }
      gpuir.if %task >= 100 {
        gpuir.for %c = 1 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          gpuir.arrive cuda_in_order >> %bar[0 : 2] : !gpuir.barrier<mbarrier [2]>
        }
        gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
          gpuir.await %bar[%c], cuda_in_order : !gpuir.barrier<mbarrier [2]>
        }
        gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
        gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
      }
    }
  }
}
