// RUN: rake-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'amir.proc' op parameter #0 has type 'memref<4xf32>'; an abstract-machine procedure takes only control parameters (index)}}
amir.proc @data_param(%x: memref<4xf32>) {
}

// -----

// expected-error @+1 {{'amir.proc' op an abstract-machine procedure has no results}}
amir.proc @results() -> index {
}

// -----

amir.proc @loop_mapping() {
  // expected-error @+1 {{'amir.loop' op a loop's thread mapping is a #amir.tile or a list of them}}
  amir.loop %i = 0 to 4 threads(#amir.domain<[32]>) {
  }
}

// -----

amir.proc @guard_mapping() {
  // expected-error @+1 {{'amir.guard' op a guard's thread mapping is a #amir.domain or #amir.slice}}
  amir.guard threads(#amir.tile<dim = 0, offset = 0, step = 1, box = 1>) {
  }
}

// -----

amir.proc @loop_tasks_threads() {
  // expected-error @+1 {{'amir.loop' op a loop over tasks has no thread mapping}}
  amir.loop %i = 0 to 4 threads(#amir.tile<dim = 0, offset = 0, step = 1, box = 1>) tasks {
  }
}

// -----

amir.proc @loop_bounds() {
  // expected-error @+1 {{'amir.loop' op each bound is one affine expression}}
  "amir.loop"() <{lowerMap = affine_map<() -> (0, 1)>, upperMap = affine_map<() -> (4)>, operandSegmentSizes = array<i32: 0, 0>}> ({
  ^bb0(%i: index):
  }) : () -> ()
}

// -----

amir.proc @loop_operands(%n: index) {
  // expected-error @+1 {{'amir.loop' op bound maps and operands disagree}}
  "amir.loop"(%n) <{lowerMap = affine_map<() -> (0)>, upperMap = affine_map<() -> (4)>, operandSegmentSizes = array<i32: 1, 0>}> ({
  ^bb0(%i: index):
  }) : (index) -> ()
}

// -----

amir.proc @loop_arg() {
  // expected-error @+1 {{'amir.loop' op the body takes one index argument}}
  "amir.loop"() <{lowerMap = affine_map<() -> (0)>, upperMap = affine_map<() -> (4)>, operandSegmentSizes = array<i32: 0, 0>}> ({
  ^bb0:
  }) : () -> ()
}

// -----

amir.proc @guard_pairs(%n: index) {
  // expected-error @+1 {{'amir.guard' op needs two expressions for each comparison}}
  "amir.guard"(%n) <{map = affine_map<(d0) -> (d0)>, predicates = array<i32: 1>}> ({
  ^bb0:
  }, {
  }) : (index) -> ()
}

// -----

amir.proc @guard_operands(%n: index) {
  // expected-error @+1 {{'amir.guard' op condition map and operands disagree}}
  "amir.guard"(%n) <{map = affine_map<() -> (0, 1)>, predicates = array<i32: 1>}> ({
  ^bb0:
  }, {
  }) : (index) -> ()
}

// -----

amir.proc @window_operands(%n: index) {
  %x = amir.alloc "x" [4] : !amir.data
  // expected-error @+1 {{'amir.record_read' op window map and operands disagree}}
  "amir.record_read"(%x, %n) <{map = affine_map<() -> (0)>, intervals = array<i1: false>, quals = #gpuir.quals<cuda_in_order_ram>}> : (!amir.data, index) -> ()
}

// -----

amir.proc @window_results() {
  %x = amir.alloc "x" [4] : !amir.data
  // expected-error @+1 {{'amir.record_mutate' op window map has 1 expressions, expected 2}}
  "amir.record_mutate"(%x) <{map = affine_map<() -> (0)>, intervals = array<i1: true>, quals = #gpuir.quals<cuda_in_order_ram>}> : (!amir.data) -> ()
}

// -----


amir.proc @await_interval() {
  %b = amir.alloc "b" [4] : !amir.barrier<mbarrier>
  // expected-error @+1 {{'amir.await' op awaits one barrier; intervals are for arrives}}
  amir.await %b[0 : 2] full(cuda_in_order_ram) temporal(cuda_in_order_ram) : !amir.barrier<mbarrier>
}

// -----

amir.proc @await_both() {
  %b = amir.alloc "b" [] : !amir.barrier<mbarrier>
  // expected-error @+1 {{'amir.await' op takes lag(n) or outstanding(n), not both}}
  amir.await %b full(cuda_in_order_ram) temporal(cuda_in_order_ram) lag(1) outstanding(1) : !amir.barrier<mbarrier>
}

// -----

amir.proc @unknown_qual() {
  %x = amir.alloc "x" [4] : !amir.data
  // expected-error @+1 {{unknown qualitative timeline 'cuda_ram'}}
  amir.record_read %x[0] on cuda_ram : !amir.data
}

// -----

amir.proc @level() {
  %x = amir.alloc "x" [4] : !amir.data
  // expected-error @+1 {{unknown visibility level 'sometimes'; expected invisible, atomic_only, unordered, temporally_ordered or fully_ordered}}
  amir.check_reads %x[0 : 4] on cuda_in_order_ram at sometimes : !amir.data
}

// -----

amir.proc @await_read_wgmma() {
  %b = amir.alloc "b" [] : !amir.barrier<wgmma_group>
  // expected-error @+1 {{'amir.await' op read waits for the source reads of bulk copies; only a tma_store_group has them}}
  amir.await %b full(cuda_in_order_ram) temporal(cuda_in_order_ram) outstanding(0) read : !amir.barrier<wgmma_group>
}
