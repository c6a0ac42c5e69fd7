// Constants near the limits of 64-bit arithmetic and of the check's own
// "to the end of the dimension" marker (kUnboundedExtent, 2^40) change no
// verdict (an adversarial review found both):
// - the symmetry reduction classes tasks by the outcome of each
//   task-dependent guard; its bounds were summed unchecked, so a guard of
//   3e18-sized terms wrapped and put task 2 (racy) in task 1's (clean)
//   class. A task whose bound overflows now gets a class of its own;
// - an index at or beyond 2^40 was taken for the marker, and the access
//   for empty: a read 2^40 past a buffer passed the check, and the
//   all-sizes mode claimed it inside the extents at every size.
// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-check
// RUN: env RAKE_SYNC_CHECK_COMPARE=1 not rake-opt %s -split-input-file --rake-check 2>&1 | FileCheck %s --check-prefix=COMPARE
// COMPARE-NOT: the symmetry reduction changed the check
// RUN: not rake-opt %s -split-input-file --rake-sync-check=all-sizes 2>&1 | FileCheck %s --check-prefix=ALL
// ALL: error: out-of-bounds access: thread 0 of task 0 read A[1099511627776], but index 1099511627776 of dimension 0 is outside its extent 64 (at Mt = 1)
// ALL-NOT: every task of every grid proven

gpuir.proc @overflow_class(%C: memref<192xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 3 : cuda_tasks {
      %tile = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        // expected-note @+1 {{the earlier write of tile[63]}}
        gpuir.write %z, %tile[%t] : memref<64xf32, #gpuir.smem>
      }
      gpuir.for %i = 0 to 4 : seq {
        gpuir.for %j = 0 to 4 : seq {
          gpuir.if %j < 1 {
            gpuir.if %i * 3000000000000000000 < %j * 3000000000000000000 + %m * 2000000000000000000 {
              gpuir.if %i == 1 {
                gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
                  // expected-error @+1 {{RAW hazard: thread 0 of task 2 read tile[63] on cuda_in_order_ram, written by thread 63 of task 2 on cuda_in_order_ram without synchronization that orders it before}}
                  %v = gpuir.read %tile[63 - %t] : memref<64xf32, #gpuir.smem>
                  gpuir.write %v, %C[%m * 64 + %t] : memref<192xf32, #gpuir.gmem>
                }
              }
            }
          }
        }
      }
    }
  }
}

// -----

// expected-note @+1 {{A is declared here}}
gpuir.proc @beyond_the_marker(%Mt: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 64)>}, %C: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 64)>})
    attributes {gpuir.check_sizes = [{Mt = 2}]} {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{out-of-bounds access: thread 0 of task 0 read A[1099511627776], but index 1099511627776 of dimension 0 is outside its extent 128 (at Mt = 2)}}
        %v = gpuir.read %A[%m * 64 + %t + 1099511627776] : memref<?xf32, #gpuir.gmem>
        gpuir.write %v, %C[%m * 64 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
