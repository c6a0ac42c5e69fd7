// Negative cases of --rake-uniformity (test/Analysis/uniformity.mlir).

// A warp shuffle inside a loop over lanes: each lane would run a whole
// warp's collective.
gpuir.proc @shuffle_in_lanes(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %r = 0 to %n : cuda_tasks {
      %a = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      %b = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.sm80.shfl_bfly %b, %a, 16 : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
      }
    }
  }
}

// -----

// A warp shuffle under a sequential loop whose bound is a lane index.
gpuir.proc @shuffle_lane_bound(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %r = 0 to %n : cuda_tasks {
      %a = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      %b = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to %l : seq {
          gpuir.for %w = 0 to 1 : cuda_threads<#gpuir.unit<warp>> {
            gpuir.sm80.shfl_bfly %b, %a, 16 : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
          }
        }
      }
    }
  }
}

// -----

// A warp sum whose data lanes (active) depend on a lane index: the lanes
// could disagree on which of them take part.
gpuir.proc @active_lane_varying(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %r = 0 to %n : cuda_tasks {
      %a = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      %b = gpuir.alloc : memref<32xf32, #gpuir.rmem>
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to %l : seq {
          gpuir.for %w = 0 to 1 : cuda_threads<#gpuir.unit<warp>> {
            gpuir.sm80.warp_sum %b, %a active(%i + 1) : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
          }
        }
      }
    }
  }
}
