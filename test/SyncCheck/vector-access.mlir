// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-sync-check

// Vector accesses of global memory are accesses of each element of their
// window, like the reads and writes they replace: overlapping runs of two
// threads race, and a run past the end of its buffer is out of bounds.

!g4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
!r4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>

// Runs of 4 floats 2 apart: thread t + 1 writes half of thread t's run.
gpuir.proc @overlap(%A: memref<520xf32, #gpuir.gmem> {gpuir.align = 16}) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %r = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 4 : seq {
          %z = arith.constant 1.0 : f32
          gpuir.write %z, %r[%t, %j] : memref<256x4xf32, #gpuir.rmem>
        }
        %w = gpuir.window %r[%t, 0 : 4] : memref<256x4xf32, #gpuir.rmem> -> !r4
        %g = gpuir.window %A[%t * 2 : %t * 2 + 4] : memref<520xf32, #gpuir.gmem> -> !g4
        // expected-error @+2 {{WAW hazard: thread 1 of task 0 write A[2:6] on cuda_in_order_ram, written by thread 0 of task 0 on cuda_in_order_ram without synchronization that orders it before}}
        // expected-note @+1 {{the earlier write of A[0:4]}}
        gpuir.sm80.st_global %g, %w : !g4, !r4
      }
    }
  }
}

// -----

!g4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
!r4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>

// The last thread's run ends 4 floats past a buffer of 1020.
// expected-note @+1 {{A is declared here}}
gpuir.proc @past_the_end(%A: memref<1020xf32, #gpuir.gmem> {gpuir.align = 16}, %B: memref<1024xf32, #gpuir.gmem> {gpuir.align = 16}) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %r = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %w = gpuir.window %r[%t, 0 : 4] : memref<256x4xf32, #gpuir.rmem> -> !r4
        %g = gpuir.window %A[%t * 4 : %t * 4 + 4] : memref<1020xf32, #gpuir.gmem> -> !g4
        // expected-error @+1 {{out-of-bounds access: thread 255 of task 0 read A[1020:1024], but index 1023 of dimension 0 is outside its extent 1020}}
        gpuir.sm80.ld_global %w, %g : !r4, !g4
        %h = gpuir.window %B[%t * 4 : %t * 4 + 4] : memref<1024xf32, #gpuir.gmem> -> !g4
        gpuir.sm80.st_global %h, %w : !g4, !r4
      }
    }
  }
}

// -----

!g4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
!r4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>

// The corrected twin: runs 4 apart, in bounds.
gpuir.proc @copy(%A: memref<1024xf32, #gpuir.gmem> {gpuir.align = 16}, %B: memref<1024xf32, #gpuir.gmem> {gpuir.align = 16}) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %r = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %w = gpuir.window %r[%t, 0 : 4] : memref<256x4xf32, #gpuir.rmem> -> !r4
        %g = gpuir.window %A[%t * 4 : %t * 4 + 4] : memref<1024xf32, #gpuir.gmem> -> !g4
        gpuir.sm80.ld_global %w, %g : !r4, !g4
        %h = gpuir.window %B[%t * 4 : %t * 4 + 4] : memref<1024xf32, #gpuir.gmem> -> !g4
        gpuir.sm80.st_global %h, %w : !g4, !r4
      }
    }
  }
}
