// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-sync-check="sizes=n=2"

// rake-sync-check interprets abstract machine programs written by hand as
// well: the thread mappings and qualitative timelines are spelled out.

amir.proc @racy(%n: index) {
  amir.guard threads(#amir.domain<[64]>) {
    amir.loop %task = 0 to %n tasks {
      %x = amir.alloc "x" [64] shared : !amir.data
      amir.loop %t = 0 to 64 threads(#amir.tile<dim = 0, offset = 0, step = 1, box = 1>) {
        // expected-note @+1 {{the earlier write of x[1]}}
        amir.record_mutate %x[%t] on cuda_in_order_ram : !amir.data
      }
      amir.loop %t = 0 to 64 threads(#amir.tile<dim = 0, offset = 0, step = 1, box = 1>) {
        // expected-error @+1 {{RAW hazard: thread 0 of task 0 read x[1] on cuda_in_order_ram, written by thread 1 of task 0 on cuda_in_order_ram without synchronization that orders it before}}
        amir.check_reads %x[(%t + 1) mod 64] on cuda_in_order_ram : !amir.data
      }
    }
  }
}

// -----

amir.proc @ordered(%n: index) {
  amir.guard threads(#amir.domain<[64]>) {
    amir.loop %task = 0 to %n tasks {
      %x = amir.alloc "x" [64] shared : !amir.data
      amir.loop %t = 0 to 64 threads(#amir.tile<dim = 0, offset = 0, step = 1, box = 1>) {
        amir.record_mutate %x[%t] on cuda_in_order_ram : !amir.data
      }
      amir.fence pre(cuda_in_order_ram) full(cuda_in_order_ram) temporal(cuda_in_order_ram)
      amir.loop %t = 0 to 64 threads(#amir.tile<dim = 0, offset = 0, step = 1, box = 1>) {
        amir.check_reads %x[(%t + 1) mod 64] on cuda_in_order_ram : !amir.data
        amir.record_read %x[(%t + 1) mod 64] on cuda_in_order_ram : !amir.data
      }
      amir.fence pre(cuda_in_order_ram) full(none) temporal(cuda_in_order_ram)
      amir.free %x : !amir.data
    }
  }
}

// -----

// expected-error @+1 {{the synchronization check needs a value for the control parameter 'm'; give it with --rake-sync-check="sizes=m=..." or the procedure's gpuir.check_sizes}}
amir.proc @unsized(%m: index) {
}

// -----

amir.proc @deep_domain() {
  // expected-error @+1 {{the synchronization check supports thread domains of at most 8 dimensions; this device function's has 9}}
  amir.guard threads(#amir.domain<[2, 2, 2, 2, 2, 2, 2, 2, 2]>) {
  }
}
