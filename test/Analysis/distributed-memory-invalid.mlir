// RUN: rake-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect --rake-distributed-memory

// Every rejection of distributed memory analysis, with its exact message.

// The seed's broadcast through a register (section 2.1): each thread would
// write and read its own copy of tmp.
gpuir.proc @broadcast_through_tmp(%n: index, %A: memref<?xf32, #gpuir.gmem>, %B: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %tmp = gpuir.alloc : memref<f32, #gpuir.rmem>
      // expected-note @+1 {{the cuda_threads loop}}
      gpuir.for %i = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%task * 32 + %i] : memref<?xf32, #gpuir.gmem>
        // expected-error @+1 {{'gpuir.write' op accesses the rmem buffer (one copy per thread) from each iteration of a cuda_threads loop, but its indices do not depend on the loop's variable: each thread would use its own copy where the program means one; give the buffer a leading dimension indexed by the loop variable, or access it outside the loop}}
        gpuir.write %v, %tmp[] : memref<f32, #gpuir.rmem>
      }
      gpuir.for %i = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tmp[] : memref<f32, #gpuir.rmem>
        gpuir.write %v, %B[%task * 32 + %i] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// Another CTA's shared memory: CTA c reads the copy of CTA 1 - c.
gpuir.proc @other_cta(%n: index) {
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %s = gpuir.alloc : memref<2x128xf32, #gpuir.smem>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %s[%c, %t] : memref<2x128xf32, #gpuir.smem>
          // expected-note @-1 {{the other access}}
          // expected-error @+1 {{'gpuir.write' op accesses the smem buffer (one copy per CTA) with a different distribution (pitches [-128] from thread 128) than another access (pitches [128] from thread 0); every access must use the same copy for the same threads}}
          gpuir.write %v, %s[1 - %c, %t] : memref<2x128xf32, #gpuir.smem>
        }
      }
    }
  }
}

// -----

// A register read by a whole warp: its 32 threads hold 32 copies.
gpuir.proc @spans_copies(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %r = gpuir.alloc : memref<4xf32, #gpuir.rmem>
      gpuir.for %w = 0 to 4 : cuda_threads<#gpuir.unit<warp>> {
        // expected-error @+1 {{'gpuir.read' op accesses the rmem buffer (one copy per thread) from a collective of 32 threads (domain [128], box [32]), which spans several copies; access it from a scope within one thread}}
        %v = gpuir.read %r[%w] : memref<4xf32, #gpuir.rmem>
      }
    }
  }
}

// -----

gpuir.proc @interval_selects_copy(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %r = gpuir.alloc : memref<128x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %w = gpuir.window %r[0 : 128, %t mod 4] : memref<128x4xf32, #gpuir.rmem> -> memref<128xf32, strided<[4], offset: ?>, #gpuir.rmem>
        // expected-error @+1 {{'rtest.in_order_op' op accesses the rmem buffer (one copy per thread), but dimension 0 selects a copy but is indexed by an interval}}
        rtest.in_order_op %w unit <thread> : memref<128xf32, strided<[4], offset: ?>, #gpuir.rmem>
      }
    }
  }
}

// -----

gpuir.proc @nonlinear_index(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %r = gpuir.alloc : memref<128xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.read' op accesses the rmem buffer (one copy per thread), but the index of dimension 0, which selects a copy, is not a sum of loop variables times constants}}
        %v = gpuir.read %r[(%t + 1) mod 128] : memref<128xf32, #gpuir.rmem>
      }
    }
  }
}

// -----

gpuir.proc @other_variable(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %r = gpuir.alloc : memref<128x4xf32, #gpuir.rmem>
      gpuir.for %k = 0 to 4 : seq {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          // expected-error @+1 {{'gpuir.read' op accesses the rmem buffer (one copy per thread), but the index of dimension 0, which selects a copy, depends on a variable that does not select threads}}
          %v = gpuir.read %r[%t + %k, 0] : memref<128x4xf32, #gpuir.rmem>
        }
      }
    }
  }
}

// -----

gpuir.proc @wrong_scale(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %r = gpuir.alloc : memref<4x32xf32, #gpuir.rmem>
      gpuir.for %w = 0 to 4 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          // expected-error @+1 {{'gpuir.read' op accesses the rmem buffer (one copy per thread), but the index of dimension 0 does not follow the threads of the loops it uses}}
          %v = gpuir.read %r[%w + %l * 3, 0] : memref<4x32xf32, #gpuir.rmem>
        }
      }
    }
  }
}

// -----

gpuir.proc @constant_before(%n: index) {
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %s = gpuir.alloc : memref<4x2xf32, #gpuir.smem>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          // expected-error @+1 {{'gpuir.read' op accesses the smem buffer (one copy per CTA), but dimension 0 comes before the dimensions that select a copy but is indexed by a constant}}
          %v = gpuir.read %s[0, %c] : memref<4x2xf32, #gpuir.smem>
        }
      }
    }
  }
}

// -----

gpuir.proc @unknown_use(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %r = gpuir.alloc : memref<128xf32, #gpuir.rmem>
      // expected-error @+1 {{'test.opaque' op uses the rmem buffer (one copy per thread), but cannot see how 'test.opaque' accesses it; distributed memory analysis understands GpuIR accesses and instructions (InstrOpInterface)}}
      "test.opaque"(%r) : (memref<128xf32, #gpuir.rmem>) -> ()
    }
  }
}

// -----

gpuir.proc @fragment_without_interval(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %r = gpuir.alloc : memref<128x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
        %w = gpuir.window %r[0 : %n, 0 : 4] : memref<128x4xf32, #gpuir.rmem> -> memref<?x4xf32, strided<[4, 1], offset: ?>, #gpuir.rmem>
        // expected-error @+1 {{'rtest.in_order_op' op passes the rmem buffer (one copy per thread) to a parameter distributed over threads, but the window has no interval of constant size for the distributed dimension}}
        rtest.in_order_op %w unit <warpgroup> over <thread> : memref<?x4xf32, strided<[4, 1], offset: ?>, #gpuir.rmem>
      }
    }
  }
}

// -----

gpuir.proc @fragment_too_large(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %r = gpuir.alloc : memref<256x4xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
        // expected-error @+1 {{'rtest.in_order_op' op cannot distribute the rmem buffer (one copy per thread) over the 256 collectives its parameter asks for: it needs 256 collectives of 1 along a dimension of which the scope has 128}}
        rtest.in_order_op %r unit <warpgroup> over <thread> : memref<256x4xf32, #gpuir.rmem>
      }
    }
  }
}

// -----

// Two accesses agree on the pitches but index different dimensions:
// R[32 w + l, 0] and R[l, w] both read as pitches [1, 32], yet R[32 + l, 0]
// and R[l, 1] are two elements of thread 32 + l, which code generation
// would keep in one register (it drops the distributed dimensions). The
// element-to-thread map must be one-to-one over the distributed extents
// (found by an adversarial review: the GPU wrote Y where the program
// means X).
gpuir.proc @two_elements_one_register(%n: index,
    %X: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>},
    %Y: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>},
    %Z: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %R = gpuir.alloc : memref<64x2xf32, #gpuir.rmem>
      gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %x = gpuir.read %X[%task, %w * 32 + %l] : memref<?x64xf32, #gpuir.gmem>
          gpuir.write %x, %R[%w * 32 + %l, 0] : memref<64x2xf32, #gpuir.rmem>
          %y = gpuir.read %Y[%task, %w * 32 + %l] : memref<?x64xf32, #gpuir.gmem>
          // expected-error @+1 {{'gpuir.write' op distributes the rmem buffer (one copy per thread) with pitches [1, 32] from thread 0 over its leading extents [64, 2], which gives elements [0, 1] and [32, 0] to the same thread (32); each thread must own one element of the distributed dimensions (index them by the same loop variables in every access, or make a dimension's pitch at least the lower dimensions' pitch times extent)}}
          gpuir.write %y, %R[%l, %w] : memref<64x2xf32, #gpuir.rmem>
          %v = gpuir.read %R[%w * 32 + %l, 0] : memref<64x2xf32, #gpuir.rmem>
          gpuir.write %v, %Z[%task, %w * 32 + %l] : memref<?x64xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// A point coordinate over the CTAs names a copy by CTA rank: producer c
// awaits the empty mbarrier of CTA 3 - c (released, in the program, by the
// consumers of c's own pair), but code generation lowers a point
// coordinate as the thread's own CTA, so on the GPU each producer would
// wait on its own mbarrier, which its own consumer never releases, and
// overwrite buf while that consumer still reads it (found by an
// adversarial review).
gpuir.proc @await_of_another_cta(%n: index, %K: index,
    %X: memref<?x?x4x32xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n, K) -> (n, K, 4, 32)>},
    %Y: memref<?x?x4x32xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n, K) -> (n, K, 4, 32)>}) {
  gpuir.device_function cluster(4) blocks_per_sm(1) warps(producer = 1, consumer = 1) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %buf = gpuir.alloc : memref<4x32xf32, #gpuir.smem>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier [4, 1]>
      // expected-note @+1 {{the buffer is allocated here}}
      %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [4, 1]>
      gpuir.for %k = 0 to %K : seq {
        gpuir.for %p = 0 to 2 : cuda_threads<#gpuir.unit<2 x cta_in_cluster>> {
          gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
            gpuir.warps "producer" {
              // expected-error @+1 {{'gpuir.await' op names a copy of the mbarrier array (one copy per CTA) other than its own CTA's by a point coordinate (pitches [-64] from thread 192); code generation would use the thread's own copy: index the CTA dimensions by the CTA's own coordinates, and name another CTA's copy only by an interval (a multicast or a remote arrive)}}
              gpuir.await %empty[3 - 2 * %p - %c, 0], cuda_in_order : !gpuir.barrier<mbarrier_prearrive [4, 1]>
              gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
                %v = gpuir.read %X[%task, %k, 2 * %p + %c, %l] : memref<?x?x4x32xf32, #gpuir.gmem>
                gpuir.write %v, %buf[2 * %p + %c, %l] : memref<4x32xf32, #gpuir.smem>
              }
              gpuir.arrive cuda_in_order >> %full[2 * %p + %c, 0] : !gpuir.barrier<mbarrier [4, 1]>
            }
            gpuir.warps "consumer" {
              gpuir.await %full[2 * %p + %c, 0], cuda_in_order : !gpuir.barrier<mbarrier [4, 1]>
              gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
                %v = gpuir.read %buf[2 * %p + %c, %l] : memref<4x32xf32, #gpuir.smem>
                gpuir.write %v, %Y[%task, %k, 2 * %p + %c, %l] : memref<?x?x4x32xf32, #gpuir.gmem>
              }
              gpuir.arrive cuda_in_order >> %empty[2 - 2 * %p : 4 - 2 * %p, 0] : !gpuir.barrier<mbarrier_prearrive [4, 1]>
            }
          }
        }
      }
      gpuir.fence cuda_in_order -> cuda_in_order
    }
  }
}

// -----

// The same for a shared buffer: every access of buf names the other CTA's
// copy (buf[1 - c]). Consistent, but a copy is named by CTA rank, and code
// generation gives each CTA its own.
gpuir.proc @buffer_of_another_cta(%n: index,
    %X: memref<?x2x32xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 2, 32)>},
    %Y: memref<?x2x32xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 2, 32)>}) {
  gpuir.device_function cluster(2) block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-note @+1 {{the buffer is allocated here}}
      %buf = gpuir.alloc : memref<2x32xf32, #gpuir.smem>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %X[%task, %c, %l] : memref<?x2x32xf32, #gpuir.gmem>
          // expected-error @+1 {{'gpuir.write' op names a copy of the smem buffer (one copy per CTA) other than its own CTA's by a point coordinate (pitches [-32] from thread 32); code generation would use the thread's own copy: index the CTA dimensions by the CTA's own coordinates, and name another CTA's copy only by an interval (a multicast or a remote arrive)}}
          gpuir.write %v, %buf[1 - %c, %l] : memref<2x32xf32, #gpuir.smem>
          %w = gpuir.read %buf[1 - %c, %l] : memref<2x32xf32, #gpuir.smem>
          gpuir.write %w, %Y[%task, %c, %l] : memref<?x2x32xf32, #gpuir.gmem>
        }
      }
    }
  }
}
