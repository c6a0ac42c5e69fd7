// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-collective-analysis

// Every rejection of collective analysis, with its exact message.

gpuir.proc @dynamic_bounds(%n: index) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.for' op a cuda_threads loop has constant bounds: its iterations are assigned to threads when the kernel is compiled}}
      gpuir.for %t = 0 to %n : cuda_threads<#gpuir.unit<thread>> {
      }
    }
  }
}

// -----

gpuir.proc @empty_range(%n: index) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.for' op a cuda_threads loop runs from a non-negative lower bound to a larger upper bound; found 4 to 4}}
      gpuir.for %t = 4 to 4 : cuda_threads<#gpuir.unit<thread>> {
      }
    }
  }
}

// -----

gpuir.proc @too_many_warps(%n: index) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.for' op cannot give each of its 16 iterations a #gpuir.unit<warp> of a collective of 256 threads (domain [256], box [256]): it needs 16 collectives of 32 along a dimension of which the scope has 256}}
      gpuir.for %w = 0 to 16 : cuda_threads<#gpuir.unit<warp>> {
      }
    }
  }
}

// -----

gpuir.proc @two_dimensions(%n: index) {
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.for' op cannot give each of its 8 iterations a #gpuir.unit<warp_in_cluster> of a collective of 256 threads (domain [2, 128], box [2, 128]): it would divide two dimensions of the scope at once (domain [2, 128], box [2, 128], unit box [1, 32]); tile one level of the hierarchy per loop}}
      gpuir.for %w = 0 to 8 : cuda_threads<#gpuir.unit<warp_in_cluster>> {
      }
    }
  }
}

// -----

gpuir.proc @unit_is_scope(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.for' op cannot give each of its 2 iterations a #gpuir.unit<cta_in_cluster> of a collective of 128 threads (domain [128], box [128]): its unit is already the whole scope (a collective of 128 threads (domain [128], box [128])), so it can only run one iteration, 0 to 1}}
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
      }
    }
  }
}

// -----

gpuir.proc @stride_does_not_divide(%n: index) {
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.for' op cannot give each of its 1 iterations a #gpuir.unit<cta_in_cluster_strided(4)> of a collective of 256 threads (domain [2, 128], box [2, 128]): its domain is not a whole number of threads for blockDim = 128, clusterDim = 2}}
      gpuir.for %c = 0 to 1 : cuda_threads<#gpuir.unit<cta_in_cluster_strided(4)>> {
      }
    }
  }
}

// -----

gpuir.proc @unaligned_unit(%n: index) {
  gpuir.device_function block(96) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.for' op cannot give each of its 1 iterations a #gpuir.unit<warpgroup> of a collective of 96 threads (domain [96], box [96]): one collective of the unit needs 128 along a dimension of 96}}
      gpuir.for %g = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
      }
    }
  }
}

// -----

gpuir.proc @warps_outside_scope(%n: index) {
  gpuir.device_function warps(producer = 4, consumer = 4) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %g = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
        // expected-error @+1 {{'gpuir.warps' op cannot select warps [4, 8) of the CTA in a collective of 128 threads (domain [256], box [128]): it needs 8 collectives of 32 along a dimension of which the scope has 128}}
        gpuir.warps "consumer" {
        }
      }
    }
  }
}

// -----

gpuir.proc @wgmma_at_warp_scope(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %D = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %A = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      gpuir.for %w = 0 to 4 : cuda_threads<#gpuir.unit<warp>> {
        // expected-error @+1 {{'rtest.example_wgmma' op runs as one collective of #gpuir.unit<warpgroup>, but its scope is a collective of 32 threads (domain [128], box [32]); move it out of the loops that narrow its scope below #gpuir.unit<warpgroup> (one collective of the unit is box [128] of domain [128], the scope's is box [32])}}
        rtest.example_wgmma %D, %A, %A : memref<128x32xf32, #gpuir.rmem>, memref<64x64xf16, #gpuir.smem>, memref<64x64xf16, #gpuir.smem>
      }
    }
  }
}

// -----

gpuir.proc @thread_instr_at_cta_scope(%n: index, %x: memref<4xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'rtest.in_order_op' op runs as one collective of #gpuir.unit<thread>, but its scope is a collective of 128 threads (domain [128], box [128]); put it in a cuda_threads loop over #gpuir.unit<thread> (one collective of the unit is box [1] of domain [128], the scope's is box [128])}}
      rtest.in_order_op %x unit <thread> : memref<4xf32, #gpuir.gmem>
    }
  }
}

// -----

gpuir.proc @tma_on_other_ctas(%n: index, %A: memref<64x64xf16, #gpuir.gmem>) {
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %B = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'rtest.example_tma_multicast' op runs as one collective of #gpuir.unit<thread>, but its scope is a collective of 2 threads (domain [2, 128], box [2, 1]); put it in a cuda_threads loop over #gpuir.unit<thread> (one collective of the unit is box [1, 1] of domain [2, 128], the scope's is box [2, 1])}}
        rtest.example_tma_multicast %A, %B >> %bar : memref<64x64xf16, #gpuir.gmem>, memref<64x64xf16, #gpuir.smem>, !gpuir.barrier<mbarrier>
      }
    }
  }
}

// -----

gpuir.proc @fence_in_thread_loop(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.fence' op a fence synchronizes whole warps of one CTA, a CTA or a cluster; here it would run on a collective of 1 thread (domain [128], box [1])}}
        gpuir.fence cuda_in_order -> cuda_in_order
      }
    }
  }
}

// -----

gpuir.proc @fence_diverges(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the cuda_threads loop}}
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        // expected-note @+1 {{the condition that depends on the thread loop}}
        gpuir.if %t < 32 {
          // expected-error @+1 {{'gpuir.fence' op a fence synchronizes whole warps of one CTA, a CTA or a cluster; here it would run on a collective of 1 thread (domain [128], box [1]); its threads may diverge: it is under a gpuir.if on the variable of a cuda_threads loop, so it runs on the threads of single iterations rather than on the whole collective}}
          gpuir.fence cuda_in_order -> cuda_in_order
        }
      }
    }
  }
}

// -----

gpuir.proc @wgmma_diverges(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %D = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %A = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      // expected-note @+1 {{the cuda_threads loop}}
      gpuir.for %w = 0 to 4 : cuda_threads<#gpuir.unit<warp>> {
        // expected-note @+1 {{the condition that depends on the thread loop}}
        gpuir.if %w == 0 {
          // expected-error @+1 {{its threads may diverge}}
          rtest.example_wgmma %D, %A, %A : memref<128x32xf32, #gpuir.rmem>, memref<64x64xf16, #gpuir.smem>, memref<64x64xf16, #gpuir.smem>
        }
      }
    }
  }
}

// -----

gpuir.proc @cluster_sync_at_cta_scope(%n: index) {
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        // expected-error @+1 {{'gpuir.arrive' op arrives on a cluster barrier, which every thread of the cluster does together; here it would run on a collective of 128 threads (domain [2, 128], box [1, 128])}}
        gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
        // expected-error @+1 {{'gpuir.await' op awaits a cluster barrier, which every thread of the cluster does together; here it would run on a collective of 128 threads (domain [2, 128], box [1, 128])}}
        gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
      }
    }
  }
}

// -----

// The same unit on an instruction: it cannot be evaluated in this cluster.
gpuir.proc @instr_stride_does_not_divide(%n: index, %x: memref<4xf32, #gpuir.gmem>) {
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'rtest.in_order_op' op runs as a collective of #gpuir.unit<cta_in_cluster_strided(4)>, but its domain is not a whole number of threads for blockDim = 128, clusterDim = 2}}
      rtest.in_order_op %x unit <cta_in_cluster_strided(4)> : memref<4xf32, #gpuir.gmem>
    }
  }
}
