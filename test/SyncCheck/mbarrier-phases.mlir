// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-check

// mbarrier phases as the hardware counts them. Code generation initializes
// each mbarrier with the thread count of its arrive statement and waits with
// mbarrier.try_wait.parity, which sees only the parity of the current phase;
// each kernel here is accepted by a check that groups arrivals by loop
// iteration and compares phases with each other, and hangs on the GPU. Each
// is followed by its corrected twin.

// A two-slot ring with one "full" barrier: the producer may fill slot 1 and
// complete phase 1 before the consumer waits for phase 0, which it then
// takes for phase 2 (it waits for the parity of phase 0, seen as done and
// then as current again).
gpuir.proc @one_full_barrier(%rows: index, %K: index, %X: memref<?x?x128xf32, #gpuir.gmem>, %Y: memref<?x128xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{rows = 2, K = 5}]} {
  gpuir.device_function warps(producer = 4, consumer = 4) {
    gpuir.for %r = 0 to %rows : cuda_tasks {
      %ring = gpuir.alloc : memref<2x128xf32, #gpuir.smem>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier>
      %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2]>
      %acc = gpuir.alloc : memref<128xf32, #gpuir.rmem>
      gpuir.warps "consumer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %zero = arith.constant 0.0 : f32
          gpuir.write %zero, %acc[%t] : memref<128xf32, #gpuir.rmem>
        }
      }
      gpuir.for %k = 0 to %K : seq {
        gpuir.warps "producer" {
          gpuir.for %p = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.await %empty[%k mod 2], cuda_in_order : !gpuir.barrier<mbarrier_prearrive [2]>
            gpuir.for %i = 0 to 128 : seq {
              %x = gpuir.read %X[%r, %k, %i] : memref<?x?x128xf32, #gpuir.gmem>
              gpuir.write %x, %ring[%k mod 2, %i] : memref<2x128xf32, #gpuir.smem>
            }
            // expected-note @+1 {{an arrive of phase 1, not ordered after the await}}
            gpuir.arrive cuda_in_order >> %full : !gpuir.barrier<mbarrier>
          }
        }
        gpuir.warps "consumer" {
          // expected-error @+1 {{mbarrier phase run-ahead: phase 1 of full can complete before threads 128..255 of task 0 await phase 0: the wait sees only the parity of the current phase, so it would miss phase 0 and wait for a later one; order an arrive of phase 1 after this await}}
          gpuir.await %full, cuda_in_order : !gpuir.barrier<mbarrier>
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            %x = gpuir.read %ring[%k mod 2, %t] : memref<2x128xf32, #gpuir.smem>
            gpuir.reduce %x, %acc[%t] : memref<128xf32, #gpuir.rmem>
          }
          gpuir.arrive cuda_in_order >> %empty[%k mod 2] : !gpuir.barrier<mbarrier_prearrive [2]>
        }
      }
      gpuir.warps "consumer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %s = gpuir.read %acc[%t] : memref<128xf32, #gpuir.rmem>
          gpuir.write %s, %Y[%r, %t] : memref<?x128xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// The twin: a full barrier per slot. A slot's next phase is arrived on only
// after the consumer released the slot, which it does after its wait.
gpuir.proc @full_per_slot(%rows: index, %K: index, %X: memref<?x?x128xf32, #gpuir.gmem>, %Y: memref<?x128xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{rows = 2, K = 5}]} {
  gpuir.device_function warps(producer = 4, consumer = 4) {
    gpuir.for %r = 0 to %rows : cuda_tasks {
      %ring = gpuir.alloc : memref<2x128xf32, #gpuir.smem>
      %full = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [2]>
      %acc = gpuir.alloc : memref<128xf32, #gpuir.rmem>
      gpuir.warps "consumer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %zero = arith.constant 0.0 : f32
          gpuir.write %zero, %acc[%t] : memref<128xf32, #gpuir.rmem>
        }
      }
      gpuir.for %k = 0 to %K : seq {
        gpuir.warps "producer" {
          gpuir.for %p = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.await %empty[%k mod 2], cuda_in_order : !gpuir.barrier<mbarrier_prearrive [2]>
            gpuir.for %i = 0 to 128 : seq {
              %x = gpuir.read %X[%r, %k, %i] : memref<?x?x128xf32, #gpuir.gmem>
              gpuir.write %x, %ring[%k mod 2, %i] : memref<2x128xf32, #gpuir.smem>
            }
            gpuir.arrive cuda_in_order >> %full[%k mod 2] : !gpuir.barrier<mbarrier [2]>
          }
        }
        gpuir.warps "consumer" {
          gpuir.await %full[%k mod 2], cuda_in_order : !gpuir.barrier<mbarrier [2]>
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
            %x = gpuir.read %ring[%k mod 2, %t] : memref<2x128xf32, #gpuir.smem>
            gpuir.reduce %x, %acc[%t] : memref<128xf32, #gpuir.rmem>
          }
          gpuir.arrive cuda_in_order >> %empty[%k mod 2] : !gpuir.barrier<mbarrier_prearrive [2]>
        }
      }
      gpuir.warps "consumer" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %s = gpuir.read %acc[%t] : memref<128xf32, #gpuir.rmem>
          gpuir.write %s, %Y[%r, %t] : memref<?x128xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// Only the first warpgroup arrives, but the arrive statement is the
// warpgroup loop's: code generation initializes the barrier for 256 arrivals
// (a guard does not change the count), so no phase completes.
gpuir.proc @half_arrives(%n: index) attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 2 : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %k = 0 to %n : seq {
        gpuir.for %g = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
          gpuir.if %g == 0 {
            // expected-note @+1 {{the arrive}}
            gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
          }
        }
        // expected-error @+1 {{arrive count mismatch: phase 0 of bar gets 128 thread arrivals, but code generation initializes the mbarrier to complete a phase at 256 (the threads of its arrive statement); a phase with fewer never completes, one with more completes early}}
        gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
      }
    }
  }
}

// -----

// The twin: both warpgroups arrive.
gpuir.proc @all_arrive(%n: index) attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to 2 : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %k = 0 to %n : seq {
        gpuir.for %g = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
          gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
        }
        gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
      }
    }
  }
}

// -----

// One warpgroup arrives in every step and never waits: its threads' second
// arrivals may reach the barrier before the last of their first ones, and
// count toward phase 0.
gpuir.proc @arrive_each_step(%n: index) attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function warps(signal = 4, wait = 4) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %k = 0 to %n : seq {
        gpuir.warps "signal" {
          // expected-error @+2 {{arrive into an unfinished phase: threads 0..127 of task 0 arrive on bar for phase 1, but nothing orders the arrive after phase 0 completes, so the hardware may count it toward phase 0; await phase 0 (or synchronize with its awaiters) before arriving}}
          // expected-note @+1 {{an arrive of phase 0}}
          gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
        }
        gpuir.warps "wait" {
          gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
        }
      }
    }
  }
}

// -----

// The twin: the waiting group acknowledges each phase, and the signalling
// group waits for the acknowledgement before its next arrive.
gpuir.proc @arrive_after_ack(%n: index) attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.device_function warps(signal = 4, wait = 4) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %ack = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive>
      gpuir.for %k = 0 to %n : seq {
        gpuir.warps "signal" {
          gpuir.await %ack, cuda_in_order : !gpuir.barrier<mbarrier_prearrive>
          gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
        }
        gpuir.warps "wait" {
          gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
          gpuir.arrive cuda_in_order >> %ack : !gpuir.barrier<mbarrier_prearrive>
        }
      }
    }
  }
}

// -----

// The cluster barrier counts each thread once per phase too: arriving again
// before waiting may count toward the phase the thread already arrived on.
gpuir.proc @cluster_arrive_twice(%n: index) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function cluster(2) block(64) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      gpuir.for %k = 0 to %n : seq {
        // expected-error @+2 {{arrive into an unfinished phase: threads 0..127 of task 0 arrive on cs for phase 1, but nothing orders the arrive after phase 0 completes, so the hardware may count it toward phase 0; await phase 0 (or synchronize with its awaiters) before arriving}}
        // expected-note @+1 {{an arrive of phase 0}}
        gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
      }
      gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
    }
  }
}

// -----

// The twin: each arrive is followed by its wait.
gpuir.proc @cluster_arrive_wait(%n: index) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function cluster(2) block(64) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      gpuir.for %k = 0 to %n : seq {
        gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
        gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
      }
    }
  }
}
