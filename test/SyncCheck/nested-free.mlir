// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-check

// A shared buffer allocated in a block inside a task (a staging tile in a
// one-iteration loop or an if, or inside a warps region) is freed at the
// block's end, but its memory is reused only by a later allocation of the
// task (code generation lays such buffers out like a stack, so any later
// one may take its bytes) or by the CTA's next task, after the barrier that
// ends this one. The check judges the free there, where the reuse is.

// A staging tile scoped by a one-iteration loop, read after the loop by
// nothing: the task's closing barrier orders its accesses before the next
// task reuses the memory.
gpuir.proc @staging_tile(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>})
    attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %once = 0 to 1 : seq {
        %stage = gpuir.alloc : memref<128xf32, #gpuir.smem>
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %stage[%t] : memref<128xf32, #gpuir.smem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %stage[127 - %t] : memref<128xf32, #gpuir.smem>
          gpuir.write %v, %A[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// The same in a warps region, where no CTA-wide fence can be written.
gpuir.proc @warps_tile(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>})
    attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function warps(a = 4, b = 4) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.warps "a" {
        %stage = gpuir.alloc : memref<128xf32, #gpuir.smem>
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %stage[%t] : memref<128xf32, #gpuir.smem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %stage[127 - %t] : memref<128xf32, #gpuir.smem>
          gpuir.write %v, %A[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// Reused too early: the second staging tile may take the first one's bytes
// while the other warp group still reads the first.
gpuir.proc @reused_too_early(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 256)>})
    attributes {gpuir.check_sizes = [{n = 1}]} {
  gpuir.device_function warps(a = 4, b = 4) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.warps "a" {
        // expected-error @+1 {{free without sync: first is freed while a read of first[0] by thread 127 of task 0 on cuda_in_order_ram may still be unordered with the threads that reuse its memory}}
        %first = gpuir.alloc : memref<128xf32, #gpuir.smem>
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %first[%t] : memref<128xf32, #gpuir.smem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
        // expected-note @+1 {{freed here, at the end of its scope}}
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          // expected-note @+1 {{the access}}
          %v = gpuir.read %first[127 - %t] : memref<128xf32, #gpuir.smem>
          gpuir.write %v, %A[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
      gpuir.warps "b" {
        // expected-note @+1 {{a later allocation that may take its memory}}
        %second = gpuir.alloc : memref<128xf32, #gpuir.smem>
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%task * 256 + 128 + %t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %second[%t] : memref<128xf32, #gpuir.smem>
        }
      }
    }
  }
}
