// gpuir.fused: it prints as written; the synchronization check sees through
// it (a race inside is still found); the sequential meaning runs its body;
// code generation unrolls its loops and marks its code in the line table
// (file rake-fused-regions, line 2 + the region's index, line 1 elsewhere),
// and a kernel without fused regions gets no line table at all.

// RUN: rake-opt %s -split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-sync-check
// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s --check-prefix=PTX

// ROUND-LABEL: gpuir.proc @two_regions
// ROUND: gpuir.fused {
// ROUND: gpuir.for %i = 0 to 8 : seq {
// ROUND: gpuir.fused {

// PTX-LABEL: .entry two_regions(
// PTX-NOT: bra
// PTX: .loc [[F:[0-9]+]] 1 0
// PTX: ld.global
// PTX: .loc [[F]] 2 0
// PTX-NOT: ld.global
// PTX-NOT: bra
// PTX: .loc [[F]] 3 0
// PTX-NOT: ld.global
// PTX-NOT: .loc [[F]] 0 0
// PTX: ret;

// Two regions around shared-memory traffic and a fence; the loop over i is
// unrolled (no branch back in the PTX).
gpuir.proc @two_regions(%X: memref<256xf32, #gpuir.gmem>, %Y: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      %r = gpuir.alloc : memref<256xf32, #gpuir.rmem>
      %s = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<256xf32, #gpuir.gmem>
        gpuir.write %x, %r[%t] : memref<256xf32, #gpuir.rmem>
      }
      gpuir.fused {
        gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %i = 0 to 8 : seq {
            %v = gpuir.read %r[%t] : memref<256xf32, #gpuir.rmem>
            %w = arith.mulf %v, %v : f32
            gpuir.write %w, %r[%t] : memref<256xf32, #gpuir.rmem>
          }
          %v = gpuir.read %r[%t] : memref<256xf32, #gpuir.rmem>
          gpuir.write %v, %s[%t] : memref<256xf32, #gpuir.smem>
        }
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.fused {
        gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %s[255 - %t] : memref<256xf32, #gpuir.smem>
          gpuir.write %v, %r[%t] : memref<256xf32, #gpuir.rmem>
        }
      }
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %r[%t] : memref<256xf32, #gpuir.rmem>
        gpuir.write %v, %Y[%t] : memref<256xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// A race between the threads of a fused region is found as anywhere else
// (the fence between writing and reading the shared tile is missing).
gpuir.proc @race_inside(%X: memref<256xf32, #gpuir.gmem>, %Y: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      %r = gpuir.alloc : memref<256xf32, #gpuir.rmem>
      %s = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<256xf32, #gpuir.gmem>
        gpuir.write %x, %r[%t] : memref<256xf32, #gpuir.rmem>
      }
      gpuir.fused {
        gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %r[%t] : memref<256xf32, #gpuir.rmem>
          // expected-note @+1 {{the earlier write of s[255]}}
          gpuir.write %v, %s[%t] : memref<256xf32, #gpuir.smem>
        }
        gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
          // expected-error @+1 {{RAW hazard: thread 0 of task 0 read s[255] on cuda_in_order_ram, written by thread 255 of task 0 on cuda_in_order_ram without synchronization that orders it before}}
          %v = gpuir.read %s[255 - %t] : memref<256xf32, #gpuir.smem>
          gpuir.write %v, %r[%t] : memref<256xf32, #gpuir.rmem>
        }
      }
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %r[%t] : memref<256xf32, #gpuir.rmem>
        gpuir.write %v, %Y[%t] : memref<256xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// PTX-LABEL: .entry plain(
// PTX-NOT: .loc
// PTX: ret;
// PTX: .file [[F]] "rake-fused-regions"
gpuir.proc @plain(%X: memref<256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %b = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<256xf32, #gpuir.gmem>
        %y = arith.addf %x, %x : f32
        gpuir.write %y, %X[%t] : memref<256xf32, #gpuir.gmem>
      }
    }
  }
}
