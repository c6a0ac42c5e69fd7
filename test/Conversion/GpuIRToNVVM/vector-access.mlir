// Vector accesses of global memory (gpuir.sm80.ld_global, st_global): one
// 8- or 16-byte load or store per thread where code generation proves the
// run aligned; refused, at the op, where it cannot.
// RUN: rake-opt %s -split-input-file -verify-diagnostics --convert-gpuir-to-nvvm

!g4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
!r4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>

// No declared alignment: the buffer's first element could be anywhere.
gpuir.proc @no_align(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 1024)>}) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %r = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %A[%task * 1024 + %t * 4 : %task * 1024 + %t * 4 + 4] : memref<?xf32, #gpuir.gmem> -> !g4
        %w = gpuir.window %r[%t, 0 : 4] : memref<256x4xf32, #gpuir.rmem> -> !r4
        // expected-error @+1 {{'gpuir.sm80.ld_global' op moves 16 bytes at once, which needs the first element of its buffer (parameter #1) aligned to 16 bytes; declare it with {gpuir.align = 16} (every launch must then pass a buffer so aligned)}}
        gpuir.sm80.ld_global %w, %g : !r4, !g4
      }
    }
  }
}

// -----

!g4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
!r4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>

// Declared 8-byte aligned, read 16 bytes at once: not enough.
gpuir.proc @too_little(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 1024)>, gpuir.align = 8}) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %r = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %A[%task * 1024 + %t * 4 : %task * 1024 + %t * 4 + 4] : memref<?xf32, #gpuir.gmem> -> !g4
        %w = gpuir.window %r[%t, 0 : 4] : memref<256x4xf32, #gpuir.rmem> -> !r4
        // expected-error @+1 {{'gpuir.sm80.ld_global' op moves 16 bytes at once, which needs the first element of its buffer (parameter #1) aligned to 16 bytes; declare it with {gpuir.align = 16}}}
        gpuir.sm80.ld_global %w, %g : !r4, !g4
      }
    }
  }
}

// -----

!g4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
!r4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>

// Runs that start one element in: never a multiple of 4.
gpuir.proc @shifted(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 1024 + 1)>, gpuir.align = 16}) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %r = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %A[%task * 1024 + %t * 4 + 1 : %task * 1024 + %t * 4 + 5] : memref<?xf32, #gpuir.gmem> -> !g4
        %w = gpuir.window %r[%t, 0 : 4] : memref<256x4xf32, #gpuir.rmem> -> !r4
        // expected-error @+1 {{'gpuir.sm80.ld_global' op moves 16 bytes at once, but its window can start at an element offset that is not a multiple of 4 for some values of the loops and sizes under its guards; start each run at a multiple of 4 elements, or read the elements one by one}}
        gpuir.sm80.ld_global %w, %g : !r4, !g4
      }
    }
  }
}

// -----

!g4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
!r4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>

// A run per row of 1001 floats: row r starts at 1001 r, which is a
// multiple of 4 only for some r.
gpuir.proc @odd_rows(%n: index, %A: memref<?x1001xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 1001)>, gpuir.align = 16}) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %r = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %A[%task, %t * 4 : %t * 4 + 4] : memref<?x1001xf32, #gpuir.gmem> -> !g4
        %w = gpuir.window %r[%t, 0 : 4] : memref<32x4xf32, #gpuir.rmem> -> !r4
        // expected-error @+1 {{'gpuir.sm80.ld_global' op moves 16 bytes at once, but its window can start at an element offset that is not a multiple of 4}}
        gpuir.sm80.ld_global %w, %g : !r4, !g4
      }
    }
  }
}

// -----

!g4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
!r4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>

// Rows of a dynamic width: the row stride is not known, so neither is the
// alignment of a row's runs.
gpuir.proc @dynamic_rows(%n: index, %m: index, %A: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n, m) -> (n, m * 128)>, gpuir.align = 16}) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %r = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %A[%task, %t * 4 : %t * 4 + 4] : memref<?x?xf32, #gpuir.gmem> -> !g4
        %w = gpuir.window %r[%t, 0 : 4] : memref<32x4xf32, #gpuir.rmem> -> !r4
        // expected-error @+1 {{'gpuir.sm80.ld_global' op is a vector access of 16 bytes through dimension 0 of 'memref<?x?xf32, #gpuir.gmem>', whose stride is not static; its alignment cannot be proven (give the buffer static inner extents)}}
        gpuir.sm80.ld_global %w, %g : !r4, !g4
      }
    }
  }
}

// -----

!g4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
!r4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>

// A store whose run is proven aligned only under its guard: t even.
gpuir.proc @guarded(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 1024)>, gpuir.align = 16}) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %r = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %w = gpuir.window %r[%t, 0 : 4] : memref<256x4xf32, #gpuir.rmem> -> !r4
        gpuir.if %t mod 2 == 0 {
          %g = gpuir.window %A[%task * 1024 + %t * 2 : %task * 1024 + %t * 2 + 4] : memref<?xf32, #gpuir.gmem> -> !g4
          gpuir.sm80.st_global %g, %w : !g4, !r4
        }
        gpuir.if %t mod 2 == 1 {
          %g = gpuir.window %A[%task * 1024 + %t * 2 : %task * 1024 + %t * 2 + 4] : memref<?xf32, #gpuir.gmem> -> !g4
          // expected-error @+1 {{'gpuir.sm80.st_global' op moves 16 bytes at once, but its window can start at an element offset that is not a multiple of 4}}
          gpuir.sm80.st_global %g, %w : !g4, !r4
        }
      }
    }
  }
}

// -----

!g4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
!r4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>

// A parameter whose layout puts its first element 3 floats in: the static
// offset is part of every address.
gpuir.proc @parameter_offset(%n: index, %A: memref<1027xf32, strided<[1], offset: 3>, #gpuir.gmem> {gpuir.align = 16}) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %r = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %A[%t * 4 : %t * 4 + 4] : memref<1027xf32, strided<[1], offset: 3>, #gpuir.gmem> -> !g4
        %w = gpuir.window %r[%t, 0 : 4] : memref<256x4xf32, #gpuir.rmem> -> !r4
        // expected-error @+1 {{'gpuir.sm80.ld_global' op moves 16 bytes at once, but its window can start at an element offset that is not a multiple of 4}}
        gpuir.sm80.ld_global %w, %g : !r4, !g4
      }
    }
  }
}

// -----

!r4 = memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>

// A window of a window, the inner one at a static offset: 8 + 4 = 12 floats,
// a multiple of 4: accepted (the proof follows both windows).
gpuir.proc @nested_window(%A: memref<1024xf32, #gpuir.gmem> {gpuir.align = 16}, %B: memref<1024xf32, #gpuir.gmem> {gpuir.align = 16}) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %r = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %outer = gpuir.window %A[8 : 40] : memref<1024xf32, #gpuir.gmem> -> memref<32xf32, strided<[1], offset: 8>, #gpuir.gmem>
      %inner = gpuir.window %outer[4 : 8] : memref<32xf32, strided<[1], offset: 8>, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: 12>, #gpuir.gmem>
      %odd = gpuir.window %outer[2 : 6] : memref<32xf32, strided<[1], offset: 8>, #gpuir.gmem> -> memref<4xf32, strided<[1], offset: 10>, #gpuir.gmem>
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %w = gpuir.window %r[%t, 0 : 4] : memref<32x4xf32, #gpuir.rmem> -> !r4
        gpuir.sm80.ld_global %w, %inner : !r4, memref<4xf32, strided<[1], offset: 12>, #gpuir.gmem>
        // expected-error @+1 {{'gpuir.sm80.ld_global' op moves 16 bytes at once, but its window can start at an element offset that is not a multiple of 4}}
        gpuir.sm80.ld_global %w, %odd : !r4, memref<4xf32, strided<[1], offset: 10>, #gpuir.gmem>
      }
    }
  }
}
