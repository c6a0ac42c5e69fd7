// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-check

// Every access is proven inside its buffer at each checked size: an index
// that leaves its buffer lands in whatever code generation placed next to
// it (another buffer's ring stage, another task's rows), a race that no
// record of that buffer shows. Static extents are always known; a dynamic
// one is declared with gpuir.extents over the control parameters.

// A ring index taken mod 3 in a ring of two stages: step 2 reads past the
// ring, into the shared memory placed after it.
gpuir.proc @ring_mod_3(%K: index, %X: memref<?x128xf32, #gpuir.gmem>, %Y: memref<128xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{K = 4}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      // expected-note @+1 {{ring is declared here}}
      %ring = gpuir.alloc : memref<2x128xf32, #gpuir.smem>
      %acc = gpuir.alloc : memref<128xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %zero = arith.constant 0.0 : f32
        gpuir.write %zero, %acc[%t] : memref<128xf32, #gpuir.rmem>
      }
      gpuir.for %k = 0 to %K : seq {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %x = gpuir.read %X[%k, %t] : memref<?x128xf32, #gpuir.gmem>
          gpuir.write %x, %ring[%k mod 2, %t] : memref<2x128xf32, #gpuir.smem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          // expected-error @+1 {{out-of-bounds access: thread 0 of task 0 read ring[2, 0], but index 2 of dimension 0 is outside its extent 2}}
          %x = gpuir.read %ring[%k mod 3, %t] : memref<2x128xf32, #gpuir.smem>
          gpuir.reduce %x, %acc[%t] : memref<128xf32, #gpuir.rmem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
      }
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %s = gpuir.read %acc[%t] : memref<128xf32, #gpuir.rmem>
        gpuir.write %s, %Y[%t] : memref<128xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// A stencil whose guard is off by one (<= for <): the last thread of the
// row reads X[n].
gpuir.proc @stencil_off_by_one(%n: index,
                    // expected-note @+1 {{X is declared here}}
                    %X: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>},
                    %Y: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>})
    attributes {gpuir.check_sizes = [{n = 300}]} {
  gpuir.device_function block(128) {
    gpuir.for %b = 0 to %n ceildiv 128 : cuda_tasks {
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.if %b * 128 + %t >= 1 and %b * 128 + %t + 1 <= %n {
          %l = gpuir.read %X[%b * 128 + %t - 1] : memref<?xf32, #gpuir.gmem>
          %c = gpuir.read %X[%b * 128 + %t] : memref<?xf32, #gpuir.gmem>
          // expected-error @+1 {{out-of-bounds access: thread 43 of task 2 read X[300], but index 300 of dimension 0 is outside its extent 300}}
          %r = gpuir.read %X[%b * 128 + %t + 1] : memref<?xf32, #gpuir.gmem>
          %s = arith.addf %l, %c : f32
          %v = arith.addf %s, %r : f32
          gpuir.write %v, %Y[%b * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// The twin: the guard keeps i + 1 < n; at n = 300 and n = 256 (no partial
// task) every read is in X.
gpuir.proc @stencil(%n: index,
                    %X: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>},
                    %Y: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>})
    attributes {gpuir.check_sizes = [{n = 300}, {n = 256}]} {
  gpuir.device_function block(128) {
    gpuir.for %b = 0 to %n ceildiv 128 : cuda_tasks {
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.if %b * 128 + %t >= 1 and %b * 128 + %t + 1 < %n {
          %l = gpuir.read %X[%b * 128 + %t - 1] : memref<?xf32, #gpuir.gmem>
          %c = gpuir.read %X[%b * 128 + %t] : memref<?xf32, #gpuir.gmem>
          %r = gpuir.read %X[%b * 128 + %t + 1] : memref<?xf32, #gpuir.gmem>
          %s = arith.addf %l, %c : f32
          %v = arith.addf %s, %r : f32
          gpuir.write %v, %Y[%b * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// A tile window that reaches past the rows of the matrix: the window's
// accesses are composed into the matrix's coordinates and checked there.
gpuir.proc @window_past_the_end(%M: index,
                    // expected-note @+1 {{A is declared here}}
                    %A: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(M) -> (M, 64)>})
    attributes {gpuir.check_sizes = [{M = 100}]} {
  gpuir.device_function block(64) {
    gpuir.for %b = 0 to %M ceildiv 64 : cuda_tasks {
      %tile = gpuir.window %A[%b * 64 : %b * 64 + 64, 0 : 64] : memref<?x64xf32, #gpuir.gmem> -> memref<64x64xf32, strided<[64, 1], offset: ?>, #gpuir.gmem>
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 64 : seq {
          %zero = arith.constant 0.0 : f32
          // expected-error @+1 {{out-of-bounds access: thread 36 of task 1 write A[100, 0:64], but index 100 of dimension 0 is outside its extent 100}}
          gpuir.write %zero, %tile[%t, %j] : memref<64x64xf32, strided<[64, 1], offset: ?>, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// A buffer passed whole to an instruction covers its declared extents.
gpuir.proc @whole_buffer(%n: index, %A: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>})
    attributes {gpuir.check_sizes = [{n = 4}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      rtest.in_order_op %A unit <cta_in_cluster> read_only : memref<?x64xf32, #gpuir.gmem>
    }
  }
}

// -----

// A buffer without declared extents still starts at index 0: a negative
// index is outside it whatever its size (found by a review: the check
// bounded only indices past 2^40 where no extent was declared, and the
// symmetry reduction proved task 1 by translation without looking).
gpuir.proc @negative_without_extent(%Mt: index, %C: memref<?xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{Mt = 2}]} {
  // expected-note @-2 {{C is declared here}}
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        // expected-error @+1 {{out-of-bounds access: thread 0 of task 1 write C[-64], but index -64 of dimension 0 is outside it (no extent is declared for it; its indices start at 0)}}
        gpuir.write %z, %C[%t - %m * 64] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
