// RUN: rake-opt %s -split-input-file --rake-collective-analysis | FileCheck %s

// Collective analysis gives every scope of a device function its tiling
// (gpuir.tiling) and, when its collectives are one, its unit (gpuir.scope),
// printed once where they change: a task loop, a sequential loop or an if
// with the tiling of the scope around it gets none.

// One CTA of 256 threads: loops over threads, warps, warpgroups, quadpairs
// and groups of 8 threads.
// CHECK-LABEL: gpuir.proc @cta_units
gpuir.proc @cta_units(%n: index) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
      }
      gpuir.for %w = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        }
        gpuir.for %q = 0 to 4 : cuda_threads<#gpuir.unit<quadpair>> {
        }
      }
      gpuir.for %g = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
      }
      gpuir.for %e = 2 to 32 : cuda_threads<#gpuir.unit<8 x thread>> {
      }
      gpuir.for %i = 0 to 4 : seq {
      }
    }
  }
}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<thread>, gpuir.tiling = #gpuir.tiling<domain [256] ops [<0: d0 256 x 1>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<thread>, gpuir.tiling = #gpuir.tiling<domain [256] ops [<0: d0 8 x 32>, <1: d0 32 x 1>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<quadpair>, gpuir.tiling = #gpuir.tiling<domain [16, 16] ops [<0: d0 8 x 2>, <1: d1 4 x 4>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<warp>, gpuir.tiling = #gpuir.tiling<domain [256] ops [<0: d0 8 x 32>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<warpgroup>, gpuir.tiling = #gpuir.tiling<domain [256] ops [<0: d0 2 x 128>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<8 x thread>, gpuir.tiling = #gpuir.tiling<domain [256] ops [<0: d0 30 x 8, offset 16>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<cta_in_cluster>, gpuir.tiling = #gpuir.tiling<domain [256]>}
// CHECK-NOT: gpuir.tiling

// -----

// A cluster of 2 CTAs: the task is a cluster scope; a loop over CTAs gives
// CTA scopes, inside which warps of the CTA can be tiled.
// CHECK-LABEL: gpuir.proc @cluster_of_2
gpuir.proc @cluster_of_2(%n: index) {
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %w = 0 to 4 : cuda_threads<#gpuir.unit<warp_in_cluster>> {
        }
      }
      // A thread loop at cluster scope runs each iteration on one thread of
      // every CTA: its collectives are not a named unit.
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
      }
    }
  }
}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<warp>, gpuir.tiling = #gpuir.tiling<domain [2, 128] ops [<0: d0 2 x 1>, <1: d1 4 x 32>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<cta_in_cluster>, gpuir.tiling = #gpuir.tiling<domain [2, 128] ops [<0: d0 2 x 1>]>}
// CHECK: } attributes {gpuir.tiling = #gpuir.tiling<domain [2, 128] ops [<0: d1 128 x 1>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<cluster>, gpuir.tiling = #gpuir.tiling<domain [2, 128]>}

// -----

// A cluster of 4 CTAs: pairs of CTAs, then the strided unit inside a pair.
// CHECK-LABEL: gpuir.proc @cluster_of_4
gpuir.proc @cluster_of_4(%n: index) {
  gpuir.device_function cluster(4) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %c = 0 to 4 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
      }
      gpuir.for %p = 0 to 2 : cuda_threads<#gpuir.unit<2 x cta_in_cluster>> {
        gpuir.for %s = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster_strided(2)>> {
          gpuir.for %w = 0 to 4 : cuda_threads<#gpuir.unit<warp_in_cluster_strided(2)>> {
          }
        }
      }
    }
  }
}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<cta_in_cluster>, gpuir.tiling = #gpuir.tiling<domain [4, 128] ops [<0: d0 4 x 1>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<warp>, gpuir.tiling = #gpuir.tiling<domain [2, 2, 128] ops [<0: d0 2 x 1>, <1: d1 2 x 1>, <2: d2 4 x 32>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<cta_in_cluster>, gpuir.tiling = #gpuir.tiling<domain [2, 2, 128] ops [<0: d0 2 x 1>, <1: d1 2 x 1>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<2 x cta_in_cluster>, gpuir.tiling = #gpuir.tiling<domain [4, 128] ops [<0: d0 2 x 2>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<cluster>, gpuir.tiling = #gpuir.tiling<domain [4, 128]>}

// -----

// Warp specialization: each warps region is a slice of the CTA's warps
// (count 1); a slice of whole warpgroups is a warpgroup scope.
// CHECK-LABEL: gpuir.proc @warp_specialized
gpuir.proc @warp_specialized(%n: index) {
  gpuir.device_function warps(producer = 4 dec(40), consumer = 8 inc(232)) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.warps "producer"[0 : 1] {
      }
      gpuir.warps "consumer" {
        gpuir.for %wg = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
        }
      }
      gpuir.warps "consumer"[1 : 3] {
      }
    }
  }
}
// CHECK: attributes {gpuir.scope = #gpuir.unit<warp>, gpuir.tiling = #gpuir.tiling<domain [384] ops [<0: d0 1 x 32, step 0>]>}
// CHECK: attributes {gpuir.tiling = #gpuir.tiling<domain [384] ops [<0: d0 1 x 256, step 0, offset 128>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<warpgroup>, gpuir.tiling = #gpuir.tiling<domain [384] ops [<0: d0 1 x 256, step 0, offset 128>, <1: d0 2 x 128>]>}
// CHECK: attributes {gpuir.tiling = #gpuir.tiling<domain [384] ops [<0: d0 1 x 64, step 0, offset 160>]>}
// CHECK: } attributes {gpuir.scope = #gpuir.unit<cta_in_cluster>, gpuir.tiling = #gpuir.tiling<domain [384]>}
