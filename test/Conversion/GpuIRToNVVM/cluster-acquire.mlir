// Data one CTA publishes to another through a remote arrive: each CTA of a
// cluster of two writes its rows of G with plain stores and arrives on
// both CTAs' mbarriers; each then waits and reads the other's rows. The
// release is at cluster scope (the awaiting threads read what was written)
// and so must the acquire be: the wait is mbarrier.try_wait.parity with
// .acquire.cluster (the default .acquire.cta does not synchronize with
// another CTA's release; found by review). ptxas assembles it.
// RUN: rake-opt %s --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s
// CHECK: mbarrier.arrive.release.cluster.shared::cluster.b64
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared.b64
// The cluster GEMM with plain stores of C releases its stages at cluster
// scope too: the producer that awaits a stage passes the ordering on (the
// cluster barrier around the epilogue is run by every thread), and the
// consumers' generic writes of C reach other CTAs, so a CTA-scope release
// could break a chain the check relies on (test/Conversion/GpuIRToNVVM/
// cluster-relay.mlir; found by an adversarial review).
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/gemm/gemm_128x256_g4c2_bf16.mlir | FileCheck %s --check-prefix=GEMM
// GEMM: mbarrier.try_wait.parity.acquire.cluster
// GEMM: arrive.release.cluster
gpuir.proc @clus2(%n: index,
    %G: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 256)>},
    %H: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 256)>})
    attributes {gpuir.check_sizes = [{n = 4}]} {
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<mbarrier [2, 1]>
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %i = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = arith.constant 1.0 : f32
          gpuir.write %v, %G[%t * 256 + %c * 128 + %i] : memref<?xf32, #gpuir.gmem>
        }
        gpuir.arrive cuda_in_order >> %b[0 : 2, 0] : !gpuir.barrier<mbarrier [2, 1]>
      }
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.await %b[%c, 0], cuda_in_order : !gpuir.barrier<mbarrier [2, 1]>
        gpuir.for %i = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %G[%t * 256 + 128 - %c * 128 + %i] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %H[%t * 256 + %c * 128 + %i] : memref<?xf32, #gpuir.gmem>
        }
      }
      gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
      gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
    }
  }
}
