// Two CTAs of a cluster exchange data through global memory, ordered by a
// cluster-wide fence (barrier.cluster.arrive / barrier.cluster.wait): for
// each task, CTA c doubles row c of X through its own part of a shared
// buffer (the buffer is shared out over the cluster: one row per CTA) into
// Y, the cluster meets, then CTA c adds 1 to the row the other CTA wrote:
// Z[t, c, :] = Y[t, 1 - c, :] + 1 = 2 X[t, 1 - c, :] + 1. A CTA fence would
// not order the other CTA's writes; the check rejects it.
//
//   build/bin/rake-opt examples/cluster_exchange.mlir --rake-check
//   build/bin/rake-run --seq examples/cluster_exchange.mlir --sizes=n=3 --shape=X=3,Y=3,Z=3
//   build/bin/rake-translate --gpuir-to-ptx examples/cluster_exchange.mlir
gpuir.proc @cluster_exchange(%n: index, %X: memref<?x2x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 2, 128)>}, %Y: memref<?x2x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 2, 128)>}, %Z: memref<?x2x128xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 2, 128)>})
    attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function cluster(2) blocks_per_sm(2) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<2x128xf32, #gpuir.smem>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %x = gpuir.read %X[%task, %c, %t] : memref<?x2x128xf32, #gpuir.gmem>
          %two = arith.constant 2.0 : f32
          %d = arith.mulf %x, %two : f32
          gpuir.write %d, %s[%c, %t] : memref<2x128xf32, #gpuir.smem>
        }
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %s[%c, %t] : memref<2x128xf32, #gpuir.smem>
          gpuir.write %v, %Y[%task, %c, %t] : memref<?x2x128xf32, #gpuir.gmem>
        }
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %y = gpuir.read %Y[%task, 1 - %c, %t] : memref<?x2x128xf32, #gpuir.gmem>
          %one = arith.constant 1.0 : f32
          %z = arith.addf %y, %one : f32
          gpuir.write %z, %Z[%task, %c, %t] : memref<?x2x128xf32, #gpuir.gmem>
        }
      }
    }
  }
}
