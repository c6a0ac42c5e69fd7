// RUN: rake-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// Every rejection of the GpuIR verifiers, with its exact message.

// expected-error @+1 {{'gpuir.proc' op has 1 results; procedures return data through their buffer parameters}}
gpuir.proc @results() -> index {
}

// -----

// expected-error @+1 {{'gpuir.proc' op parameter #0 has type 'f32'; a procedure parameter is a control value (index) or a buffer (memref)}}
gpuir.proc @scalar_param(%x: f32) {
}

// -----

// expected-error @+1 {{'gpuir.proc' op parameter #0 has memory space 3 : i64, which is not a memory type; use one of #gpuir.host, #gpuir.gmem, #gpuir.smem, #gpuir.rmem, ... (a MemoryTypeAttrInterface)}}
gpuir.proc @bad_space(%x: memref<4xf32, 3>) {
}

// -----

gpuir.proc @computed_control(%n: index, %x: memref<?xf32, #gpuir.host>) {
  // expected-note @+1 {{computed here}}
  %c = arith.constant 1 : index
  // expected-error @+1 {{'gpuir.read' op operand #1 is a control value computed by an operation; control values are procedure parameters and loop variables, and arithmetic on them is written as an affine expression in the operation that uses them}}
  %v = gpuir.read %x[%c] : memref<?xf32, #gpuir.host>
}

// -----

gpuir.proc @value_leaves_block(%x: memref<4xf32, #gpuir.host>) {
  // expected-note @+1 {{value made here}}
  %v = gpuir.read %x[0] : memref<4xf32, #gpuir.host>
  gpuir.for %i = 0 to 4 : seq {
    // expected-error @+1 {{'gpuir.write' op uses a scalar data value made in another block; a data value that outlives its statement must be stored in a buffer (for example a register buffer indexed by thread)}}
    gpuir.write %v, %x[%i] : memref<4xf32, #gpuir.host>
  }
}

// -----

gpuir.proc @call_missing() {
  // expected-error @+1 {{'gpuir.call' op 'nowhere' does not name a gpuir.proc}}
  gpuir.call @nowhere() : () -> ()
}

// -----

gpuir.proc @callee(%n: index) {
}
gpuir.proc @call_arity() {
  // expected-error @+1 {{'gpuir.call' op passes 0 arguments to 'callee', which takes 1}}
  gpuir.call @callee() : () -> ()
}

// -----

gpuir.proc @callee(%x: memref<4xf32, #gpuir.gmem>) {
}
gpuir.proc @call_types(%x: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.call' op argument #0 has type 'memref<4xf32, #gpuir.host>' but 'callee' expects 'memref<4xf32, #gpuir.gmem>'}}
  gpuir.call @callee(%x) : (memref<4xf32, #gpuir.host>) -> ()
}

// -----

gpuir.proc @callee() {
}
gpuir.proc @call_on_device(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.call' op calls procedure 'callee' inside a device function; procedures are called only at CPU scope (outside gpuir.device_function)}}
      gpuir.call @callee() : () -> ()
    }
  }
}

// -----

gpuir.proc @unknown_mode() {
  // expected-error @+1 {{unknown loop mode 'parallel'; expected seq, cuda_tasks or cuda_threads<unit>}}
  gpuir.for %i = 0 to 4 : parallel {
  }
}

// -----

gpuir.proc @threads_without_unit() {
  // expected-error @+1 {{'gpuir.for' op a cuda_threads loop needs a collective unit: cuda_threads<#gpuir.unit<...>>}}
  "gpuir.for"() <{lowerMap = affine_map<() -> (0)>, upperMap = affine_map<() -> (4)>, mode = #gpuir.loop_mode<cuda_threads>, operandSegmentSizes = array<i32: 0, 0>}> ({
  ^bb0(%i: index):
  }) : () -> ()
}

// -----

gpuir.proc @seq_with_unit() {
  // expected-error @+1 {{'gpuir.for' op only cuda_threads loops take a collective unit}}
  "gpuir.for"() <{lowerMap = affine_map<() -> (0)>, upperMap = affine_map<() -> (4)>, mode = #gpuir.loop_mode<seq>, unit = #gpuir.unit<warp>, operandSegmentSizes = array<i32: 0, 0>}> ({
  ^bb0(%i: index):
  }) : () -> ()
}

// -----

gpuir.proc @two_bounds() {
  // expected-error @+1 {{'gpuir.for' op each bound is one affine expression}}
  "gpuir.for"() <{lowerMap = affine_map<() -> (0, 1)>, upperMap = affine_map<() -> (4)>, mode = #gpuir.loop_mode<seq>, operandSegmentSizes = array<i32: 0, 0>}> ({
  ^bb0(%i: index):
  }) : () -> ()
}

// -----

gpuir.proc @bound_operands(%n: index) {
  // expected-error @+1 {{'gpuir.for' op bound maps and operands disagree}}
  "gpuir.for"(%n) <{lowerMap = affine_map<() -> (0)>, upperMap = affine_map<() -> (4)>, mode = #gpuir.loop_mode<seq>, operandSegmentSizes = array<i32: 1, 0>}> ({
  ^bb0(%i: index):
  }) : (index) -> ()
}

// -----

gpuir.proc @no_induction_var() {
  // expected-error @+1 {{'gpuir.for' op the body takes one index argument, the loop variable}}
  "gpuir.for"() <{lowerMap = affine_map<() -> (0)>, upperMap = affine_map<() -> (4)>, mode = #gpuir.loop_mode<seq>, operandSegmentSizes = array<i32: 0, 0>}> ({
  ^bb0:
  }) : () -> ()
}

// -----

gpuir.proc @tasks_on_cpu(%n: index) {
  // expected-error @+1 {{'gpuir.for' op cuda_tasks loops appear only as the nest that forms the body of a gpuir.device_function; found one inside 'gpuir.proc'}}
  gpuir.for %t = 0 to %n : cuda_tasks {
  }
}

// -----

gpuir.proc @tasks_not_perfect(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.for' op a cuda_tasks loop nested in another must be its only statement; the device tasks are the iterations of a perfect nest}}
      gpuir.for %u = 0 to 2 : cuda_tasks {
      }
      gpuir.fence cuda_in_order -> cuda_in_order
    }
  }
}

// -----

gpuir.proc @tasks_inside_threads(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.for' op cuda_tasks loops appear only as the nest that forms the body of a gpuir.device_function; found one inside 'gpuir.for'}}
        gpuir.for %u = 0 to 2 : cuda_tasks {
        }
      }
    }
  }
}

// -----

gpuir.proc @threads_on_cpu() {
  // expected-error @+1 {{'gpuir.for' op cuda_threads loops run inside a device function; at CPU scope only seq loops are allowed}}
  gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
  }
}

// -----

gpuir.proc @if_no_comparison(%n: index) {
  // expected-error @+1 {{expected a comparison: <, <=, >, >= or ==}}
  gpuir.if %n {
  }
}

// -----

gpuir.proc @if_map_mismatch(%n: index) {
  // expected-error @+1 {{'gpuir.if' op needs two expressions for each comparison}}
  "gpuir.if"(%n) <{map = affine_map<(d0) -> (d0)>, predicates = array<i32: 1>}> ({
  ^bb0:
  }, {
  }) : (index) -> ()
}

// -----

gpuir.proc @if_operands(%n: index) {
  // expected-error @+1 {{'gpuir.if' op condition map and operands disagree}}
  "gpuir.if"(%n) <{map = affine_map<() -> (0, 1)>, predicates = array<i32: 1>}> ({
  ^bb0:
  }, {
  }) : (index) -> ()
}

// -----

gpuir.proc @if_unknown_predicate(%n: index) {
  // expected-error @+1 {{'gpuir.if' op unknown comparison 9}}
  "gpuir.if"(%n) <{map = affine_map<(d0) -> (d0, 1)>, predicates = array<i32: 9>}> ({
  ^bb0:
  }, {
  }) : (index) -> ()
}

// -----

gpuir.proc @if_empty_condition() {
  // expected-error @+1 {{'gpuir.if' op needs a condition}}
  "gpuir.if"() <{map = affine_map<() -> ()>, predicates = array<i32>}> ({
  ^bb0:
  }, {
  }) : () -> ()
}

// -----

gpuir.proc @if_two_else_blocks(%n: index) {
  // expected-error @+1 {{'gpuir.if' op the else region is one block}}
  "gpuir.if"(%n) <{map = affine_map<(d0) -> (d0, 1)>, predicates = array<i32: 1>}> ({
  ^bb0:
  }, {
  ^bb0:
    "gpuir.fence"() <{pre = #gpuir.sync<cpu_in_order>, post = #gpuir.sync<cpu_in_order>}> : () -> ()
  ^bb1:
    "gpuir.fence"() <{pre = #gpuir.sync<cpu_in_order>, post = #gpuir.sync<cpu_in_order>}> : () -> ()
  }) : (index) -> ()
}

// -----

gpuir.proc @if_block_args(%n: index) {
  // expected-error @+1 {{'gpuir.if' op branches take no arguments}}
  "gpuir.if"(%n) <{map = affine_map<(d0) -> (d0, 1)>, predicates = array<i32: 1>}> ({
  ^bb0(%a: index):
  }, {
  }) : (index) -> ()
}

// -----

gpuir.proc @cluster_not_pow2(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op cluster size must be a power of two from 1 to 16, found 3}}
  gpuir.device_function cluster(3) block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @blocks_per_sm(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op blocks_per_sm must be positive, found 0}}
  gpuir.device_function blocks_per_sm(0) block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @no_size(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op give the CTA size either as block(n) or as named warp groups warps(name = count, ...), not neither}}
  gpuir.device_function {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @both_sizes(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op give the CTA size either as block(n) or as named warp groups warps(name = count, ...), not both}}
  gpuir.device_function block(64) warps(a = 2) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @block_size(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op block size must be a multiple of 32 from 32 to 1024, found 100}}
  gpuir.device_function block(100) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @clause_twice(%n: index) {
  // expected-error @+1 {{'block' given twice}}
  gpuir.device_function block(64) block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @group_twice(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op warp group 'a' named twice}}
  gpuir.device_function warps(a = 1, a = 2) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @group_empty(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op warp group 'a' needs at least one warp, found 0}}
  gpuir.device_function warps(a = 0) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @setmaxnreg(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op warp group 'a' sets its register count to 250; setmaxnreg takes a multiple of 8 from 24 to 256}}
  gpuir.device_function warps(a = 4 inc(250)) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

// setmaxnreg.inc may only raise the count a thread starts with, and .dec only
// lower it (the PTX ISA leaves the other way undefined). ptxas starts each
// thread at the largest count a warp group sets, at most what the launch
// bounds leave of the SM's 65536 registers (and at most 248). Refused by
// the op's verifier, so rake-check refuses what code generation cannot
// lower.

gpuir.proc @setmaxnreg_inc_lowers(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op warp group 'a' raises its register count to 24, but each thread starts with 200 (the largest count a group sets, at most what a CTA of 256 threads at 1 per SM may hold); setmaxnreg.inc cannot lower it: give inc(n) with n >= 200}}
  gpuir.device_function warps(a = 4 inc(24), b = 4 dec(200)) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @setmaxnreg_dec_raises(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op warp group 'producer' lowers its register count to 200, but each thread starts with 128 (the largest count a group sets, at most what a CTA of 256 threads at 2 per SM may hold); setmaxnreg.dec cannot raise it: give dec(n) with n <= 128}}
  gpuir.device_function blocks_per_sm(2) warps(producer = 4 dec(200), consumer = 4 inc(232)) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

// The groups' counts must fit in what the CTA holds, or an increase waits
// forever (the check was code generation's; rake-check refuses it now).
gpuir.proc @setmaxnreg_over_budget(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op the warp groups' register counts need 34816 registers, but a CTA of 256 threads at 2 per SM holds 32768 (128 a thread); setmaxnreg.inc would wait forever}}
  gpuir.device_function blocks_per_sm(2) warps(producer = 4 dec(40), consumer = 4 inc(232)) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @too_many_warps(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op the warp groups add up to 1056 threads; a CTA has at most 1024 (32 warps)}}
  gpuir.device_function warps(a = 30, b = 3) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @nested_device(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.device_function' op device functions cannot nest; a device function is launched from CPU code}}
      gpuir.device_function block(32) {
        gpuir.for %u = 0 to %n : cuda_tasks {
        }
      }
    }
  }
}

// -----

gpuir.proc @body_not_tasks(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op the body of a device function is one nest of cuda_tasks loops; found 1 statement(s), the first of which is not a cuda_tasks loop}}
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to %n : seq {
    }
  }
}

// -----

gpuir.proc @body_two_nests(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op the body of a device function is one nest of cuda_tasks loops; found 2 statement(s)}}
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @body_empty() {
  // expected-error @+1 {{'gpuir.device_function' op the body of a device function is one nest of cuda_tasks loops; found 0 statement(s)}}
  gpuir.device_function block(32) {
  }
}

// -----

gpuir.proc @warps_outside() {
  // expected-error @+1 {{'gpuir.warps' op selects warps of a device function and must be inside one}}
  gpuir.warps "a" {
  }
}

// -----

gpuir.proc @warps_missing_group(%n: index) {
  gpuir.device_function warps(producer = 1, consumer = 4) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.warps' op names warp group 'math', which the device function does not have; it has 'producer', 'consumer'}}
      gpuir.warps "math" {
      }
    }
  }
}

// -----

gpuir.proc @warps_without_groups(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.warps' op names warp group 'math', which the device function does not have (it declares block(n), no named warp groups)}}
      gpuir.warps "math" {
      }
    }
  }
}

// -----

gpuir.proc @warps_range(%n: index) {
  gpuir.device_function warps(consumer = 8) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.warps' op selects warps [4, 9) of group 'consumer', which has 8 warps; the range must be non-empty and within [0, 8)}}
      gpuir.warps "consumer"[4 : 9] {
      }
    }
  }
}

// -----

gpuir.proc @warps_half_range(%n: index) {
  gpuir.device_function warps(consumer = 8) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.warps' op a warp range needs both bounds}}
      "gpuir.warps"() <{group = "consumer", lo = 1 : i64}> ({
      }) : () -> ()
    }
  }
}

// -----

gpuir.proc @barrier_dynamic(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.alloc' op barrier arrays have static shapes}}
      %b = gpuir.alloc(%n) : !gpuir.barrier<mbarrier [2]>
    }
  }
}

// -----

gpuir.proc @barrier_on_cpu() {
  // expected-error @+1 {{'gpuir.alloc' op allocates a barrier at CPU scope; barriers are allocated inside a device function}}
  %b = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
}

// -----

gpuir.proc @alloc_space() {
  // expected-error @+1 {{'gpuir.alloc' op the buffer has no memory space; give it a memory type such as #gpuir.gmem, #gpuir.smem or #gpuir.rmem}}
  %x = gpuir.alloc : memref<4xf32>
}

// -----

gpuir.proc @alloc_layout() {
  // expected-error @+1 {{'gpuir.alloc' op allocates a buffer with a non-identity layout; the memory type decides the layout, so allocate it row-major and take windows of it}}
  %x = gpuir.alloc : memref<4xf32, strided<[2]>, #gpuir.host>
}

// -----

gpuir.proc @alloc_dynamic_count(%n: index) {
  // expected-error @+1 {{'gpuir.alloc' op the type has 1 dynamic sizes but 0 size operands are given}}
  %x = gpuir.alloc : memref<?xf32, #gpuir.gmem>
}

// -----

gpuir.proc @alloc_dynamic_smem(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.alloc' op smem buffers need static sizes; only host and global memory have sizes known at run time}}
      %x = gpuir.alloc(%n) : memref<?xf32, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @smem_on_cpu() {
  // expected-error @+1 {{'gpuir.alloc' op allocates smem memory at CPU scope; it is allocated inside a device function}}
  %x = gpuir.alloc : memref<4xf32, #gpuir.smem>
}

// -----

gpuir.proc @gmem_on_device(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.alloc' op allocates gmem memory inside a device function; allocate it on the CPU and pass it in}}
      %x = gpuir.alloc : memref<4xf32, #gpuir.gmem>
    }
  }
}

// -----

gpuir.proc @free_param(%x: memref<4xf32, #gpuir.gmem>) {
  // expected-error @+1 {{'gpuir.free' op frees a value that no gpuir.alloc made; only allocated buffers and barriers are freed}}
  gpuir.free %x : memref<4xf32, #gpuir.gmem>
}

// -----

gpuir.proc @read_rank(%x: memref<4x4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.read' op gives 1 indices for a buffer of rank 2}}
  %v = gpuir.read %x[0] : memref<4x4xf32, #gpuir.host>
}

// -----

gpuir.proc @read_bounds(%x: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.read' op index 4 of dimension 0 is out of bounds [0, 4)}}
  %v = gpuir.read %x[4] : memref<4xf32, #gpuir.host>
}

// -----

gpuir.proc @read_interval(%x: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{an interval is not allowed here; this operation accesses single elements}}
  %v = gpuir.read %x[0 : 2] : memref<4xf32, #gpuir.host>
}

// -----

gpuir.proc @read_result_type(%x: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.read' op result type does not match the element type}}
  %v = "gpuir.read"(%x) <{map = affine_map<() -> (0)>}> : (memref<4xf32, #gpuir.host>) -> i32
}

// -----

gpuir.proc @read_map(%x: memref<4xf32, #gpuir.host>, %i: index) {
  // expected-error @+1 {{'gpuir.read' op index map and operands disagree}}
  %v = "gpuir.read"(%x, %i) <{map = affine_map<() -> (0)>}> : (memref<4xf32, #gpuir.host>, index) -> f32
}

// -----

gpuir.proc @write_type(%x: memref<4xf32, #gpuir.host>, %y: memref<4xi32, #gpuir.host>) {
  %v = gpuir.read %y[0] : memref<4xi32, #gpuir.host>
  // expected-error @+1 {{'gpuir.write' op value of type 'i32' does not match the element type 'f32'}}
  "gpuir.write"(%v, %x) <{map = affine_map<() -> (0)>}> : (i32, memref<4xf32, #gpuir.host>) -> ()
}

// -----

gpuir.proc @reduce_type(%x: memref<4xvector<2xf32>, #gpuir.host>) {
  %v = gpuir.read %x[0] : memref<4xvector<2xf32>, #gpuir.host>
  // expected-error @+1 {{'gpuir.reduce' op reduces values of type 'vector<2xf32>'; only integer and float values are added}}
  gpuir.reduce %v, %x[1] : memref<4xvector<2xf32>, #gpuir.host>
}

// -----

gpuir.proc @gmem_on_cpu(%x: memref<4xf32, #gpuir.gmem>) {
  // expected-error @+1 {{'gpuir.read' op accesses gmem memory at CPU scope; only device code (inside gpuir.device_function) can access it}}
  %v = gpuir.read %x[0] : memref<4xf32, #gpuir.gmem>
}

// -----

gpuir.proc @host_on_device(%n: index, %x: memref<4xf32, #gpuir.host>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.read' op accesses host memory inside a device function; device code cannot see it}}
      %v = gpuir.read %x[0] : memref<4xf32, #gpuir.host>
    }
  }
}

// -----

gpuir.proc @window_coords(%x: memref<4x4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.window' op gives 1 coordinates for a buffer of rank 2}}
  %w = gpuir.window %x[0 : 4] : memref<4x4xf32, #gpuir.host> -> memref<4xf32, #gpuir.host>
}

// -----

gpuir.proc @window_empty_interval(%x: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.window' op interval of dimension 0 has extent 0; intervals are lo : hi with hi > lo}}
  %w = gpuir.window %x[2 : 2] : memref<4xf32, #gpuir.host> -> memref<0xf32, #gpuir.host>
}

// -----

gpuir.proc @window_too_large(%x: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.window' op interval of dimension 0 has extent 8, larger than the dimension's size 4}}
  %w = gpuir.window %x[0 : 8] : memref<4xf32, #gpuir.host> -> memref<8xf32, #gpuir.host>
}

// -----

gpuir.proc @window_space(%x: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.window' op a window keeps its source's element type and memory type; expected a memref of 'f32' in #gpuir.host}}
  %w = gpuir.window %x[0 : 2] : memref<4xf32, #gpuir.host> -> memref<2xf32, #gpuir.gmem>
}

// -----

gpuir.proc @window_rank(%x: memref<4x4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.window' op the window has 1 intervals, so its type must have rank 1, not 2}}
  %w = gpuir.window %x[0, 0 : 4] : memref<4x4xf32, #gpuir.host> -> memref<1x4xf32, #gpuir.host>
}

// -----

gpuir.proc @window_extent(%x: memref<4x4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.window' op dimension 0 of the window has size 2 but the result type says 4}}
  %w = gpuir.window %x[1, 0 : 2] : memref<4x4xf32, #gpuir.host> -> memref<4xf32, strided<[1], offset: ?>, #gpuir.host>
}

// -----

gpuir.proc @window_dynamic_extent(%x: memref<?xf32, #gpuir.host>, %n: index) {
  // expected-error @+1 {{'gpuir.window' op dimension 0 of the window has a size known at run time but the result type says 4}}
  %w = gpuir.window %x[0 : %n] : memref<?xf32, #gpuir.host> -> memref<4xf32, #gpuir.host>
}

// -----

gpuir.proc @window_map(%x: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.window' op window map has 1 expressions, expected 2}}
  %w = "gpuir.window"(%x) <{map = affine_map<() -> (0)>, intervals = array<i1: true>}> : (memref<4xf32, #gpuir.host>) -> memref<2xf32, #gpuir.host>
}

// -----

gpuir.proc @window_operands(%x: memref<4xf32, #gpuir.host>, %i: index) {
  // expected-error @+1 {{'gpuir.window' op window map and operands disagree}}
  %w = "gpuir.window"(%x, %i) <{map = affine_map<() -> (0, 2)>, intervals = array<i1: true>}> : (memref<4xf32, #gpuir.host>, index) -> memref<2xf32, #gpuir.host>
}

// -----

gpuir.proc @fence_empty() {
  // expected-error @+1 {{'gpuir.fence' op a fence with an empty timeline orders nothing; name the accesses it orders on both sides}}
  gpuir.fence empty -> cpu_in_order
}

// -----

gpuir.proc @fence_cpu() {
  // expected-error @+1 {{'gpuir.fence' op at CPU scope a fence is cuda_stream_sync -> cpu_in_order (wait for the device) or cpu_in_order -> cpu_in_order; found cuda_in_order -> cuda_in_order}}
  gpuir.fence cuda_in_order -> cuda_in_order
}

// -----

gpuir.proc @fence_device_cpu_timeline(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.fence' op uses cpu_in_order as its second timeline inside a device function; it names CPU-side accesses, use a CUDA timeline such as cuda_in_order}}
      gpuir.fence cuda_in_order -> cpu_in_order
    }
  }
}

// -----

gpuir.proc @fence_stream_sync_on_device(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.fence' op uses cuda_stream_sync as its first timeline inside a device function; it names CPU-side accesses, use a CUDA timeline such as cuda_in_order}}
      gpuir.fence cuda_stream_sync -> cuda_in_order
    }
  }
}

// -----

gpuir.proc @unknown_timeline() {
  // expected-error @+1 {{unknown sync timeline 'cuda_everything'; expected one of empty, cpu_in_order, cuda_stream_sync, cuda_in_order, cuda_temporal, Sm80_cp_async, Sm80_generic, tma_to_smem_async, tma_to_gmem_async, wgmma_async_smem, wgmma_fence_1, wgmma_fence_2, wgmma_async, cuda_async_proxy, cuda_async_proxy_wgmma, cuda_generic_and_async_proxy}}
  gpuir.fence cuda_everything -> cpu_in_order
}

// -----

gpuir.proc @arrive_on_cpu(%b: memref<1xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.arrive' op arrive is a device statement; at CPU scope use gpuir.fence cuda_stream_sync -> cpu_in_order}}
  "gpuir.arrive"() <{pre = #gpuir.sync<cuda_in_order>, maps = [], intervals = [], operandSegmentSizes = array<i32: 0, 0>}> : () -> ()
}

// -----

gpuir.proc @arrive_cpu_timeline(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cluster_sync>
      // expected-error @+1 {{'gpuir.arrive' op uses cpu_in_order as its first timeline inside a device function; it names CPU-side accesses, use a CUDA timeline such as cuda_in_order}}
      gpuir.arrive cpu_in_order >> %b : !gpuir.barrier<cluster_sync>
    }
  }
}

// -----

gpuir.proc @arrive_maps(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cluster_sync>
      // expected-error @+1 {{'gpuir.arrive' op needs one index map and interval list per barrier}}
      "gpuir.arrive"(%b) <{pre = #gpuir.sync<cuda_in_order>, maps = [], intervals = [], operandSegmentSizes = array<i32: 1, 0>}> : (!gpuir.barrier<cluster_sync>) -> ()
    }
  }
}

// -----

gpuir.proc @arrive_operands(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cluster_sync>
      // expected-error @+1 {{'gpuir.arrive' op index maps and operands disagree}}
      "gpuir.arrive"(%b, %t) <{pre = #gpuir.sync<cuda_in_order>, maps = [affine_map<() -> ()>], intervals = [array<i1>], operandSegmentSizes = array<i32: 1, 1>}> : (!gpuir.barrier<cluster_sync>, index) -> ()
    }
  }
}

// -----

gpuir.proc @arrive_rank(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<mbarrier [4]>
      // expected-error @+1 {{'gpuir.arrive' op gives 0 coordinates for a barrier array of rank 1}}
      gpuir.arrive cuda_in_order >> %b : !gpuir.barrier<mbarrier [4]>
    }
  }
}

// -----

// A point coordinate takes one expression, an interval two.
gpuir.proc @arrive_coord_exprs(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<mbarrier [4]>
      // expected-error @+1 {{'gpuir.arrive' op barrier coordinates need one expression a point and two an interval: 1 for 1 coordinates}}
      "gpuir.arrive"(%b) <{pre = #gpuir.sync<cuda_in_order>, maps = [affine_map<() -> (0)>], intervals = [array<i1: true>], operandSegmentSizes = array<i32: 1, 0>}> : (!gpuir.barrier<mbarrier [4]>) -> ()
    }
  }
}

// -----

gpuir.proc @arrive_bounds(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<mbarrier [4]>
      // expected-error @+1 {{'gpuir.arrive' op barrier coordinate 4 of dimension 0 is out of bounds [0, 4)}}
      gpuir.arrive cuda_in_order >> %b[4] : !gpuir.barrier<mbarrier [4]>
    }
  }
}

// -----

gpuir.proc @arrive_multicast_commit(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cp_async_group [2]>
      // expected-error @+1 {{'gpuir.arrive' op arrives on several barriers at once; only mbarriers take multicast arrives, this one is cp_async_group}}
      gpuir.arrive Sm80_cp_async >> %b[0 : 2] : !gpuir.barrier<cp_async_group [2]>
    }
  }
}

// -----

gpuir.proc @arrive_commit_timeline(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<wgmma_group>
      // expected-error @+1 {{'gpuir.arrive' op commits a wgmma_group group, whose arrive timeline is wgmma_async, not cuda_in_order}}
      gpuir.arrive cuda_in_order >> %b : !gpuir.barrier<wgmma_group>
    }
  }
}

// -----

gpuir.proc @arrive_cluster_empty(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cluster_sync>
      // expected-error @+1 {{'gpuir.arrive' op a cluster sync arrive orders the accesses before it; give a timeline such as cuda_in_order}}
      gpuir.arrive empty >> %b : !gpuir.barrier<cluster_sync>
    }
  }
}

// -----

gpuir.proc @arrive_types(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cluster_sync>
      // expected-error @+1 {{expected one type for each of the 2 barriers}}
      gpuir.arrive cuda_in_order >> %b, %b : !gpuir.barrier<cluster_sync>
    }
  }
}

// -----

gpuir.proc @await_on_cpu() {
  %b = "test.make_barrier"() : () -> !gpuir.barrier<cluster_sync>
  // expected-error @+1 {{'gpuir.await' op await is a device statement; at CPU scope use gpuir.fence cuda_stream_sync -> cpu_in_order}}
  "gpuir.await"(%b) <{post = #gpuir.sync<cuda_in_order>, map = affine_map<() -> ()>}> : (!gpuir.barrier<cluster_sync>) -> ()
}

// -----

gpuir.proc @await_cpu_timeline(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cluster_sync>
      // expected-error @+1 {{'gpuir.await' op uses cpu_in_order as its second timeline inside a device function; it names CPU-side accesses, use a CUDA timeline such as cuda_in_order}}
      gpuir.await %b, cpu_in_order : !gpuir.barrier<cluster_sync>
    }
  }
}

// -----

gpuir.proc @await_interval(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      // expected-error @+1 {{an interval is not allowed here; this operation accesses single elements}}
      gpuir.await %b[0 : 2], cuda_in_order : !gpuir.barrier<mbarrier [2]>
    }
  }
}

// -----

gpuir.proc @await_rank(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      // expected-error @+1 {{'gpuir.await' op gives 0 coordinates for a barrier array of rank 1}}
      gpuir.await %b, cuda_in_order : !gpuir.barrier<mbarrier [2]>
    }
  }
}

// -----

gpuir.proc @await_map(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cluster_sync>
      // expected-error @+1 {{'gpuir.await' op index map and operands disagree}}
      "gpuir.await"(%b, %t) <{post = #gpuir.sync<cuda_in_order>, map = affine_map<() -> ()>}> : (!gpuir.barrier<cluster_sync>, index) -> ()
    }
  }
}

// -----

gpuir.proc @lag_on_commit_group(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cp_async_group>
      // expected-error @+1 {{'gpuir.await' op lag(n) counts phases of an mbarrier ring; this barrier is cp_async_group}}
      gpuir.await %b, cuda_in_order, lag(1) : !gpuir.barrier<cp_async_group>
    }
  }
}

// -----

gpuir.proc @negative_lag(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      // expected-error @+1 {{'gpuir.await' op lag must not be negative, found -1}}
      gpuir.await %b[0], cuda_in_order, lag(-1) : !gpuir.barrier<mbarrier [2]>
    }
  }
}

// -----

gpuir.proc @outstanding_on_mbarrier(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      // expected-error @+1 {{'gpuir.await' op outstanding(n) counts unfinished commit groups; this barrier is mbarrier}}
      gpuir.await %b[0], cuda_in_order, outstanding(1) : !gpuir.barrier<mbarrier [2]>
    }
  }
}

// -----

gpuir.proc @negative_outstanding(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cp_async_group>
      // expected-error @+1 {{'gpuir.await' op outstanding must not be negative, found -2}}
      gpuir.await %b, cuda_in_order, outstanding(-2) : !gpuir.barrier<cp_async_group>
    }
  }
}

// -----

gpuir.proc @await_empty(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cluster_sync>
      // expected-error @+1 {{'gpuir.await' op an await with an empty timeline orders nothing after it}}
      gpuir.await %b, empty : !gpuir.barrier<cluster_sync>
    }
  }
}

// -----

// Only bulk copies (a TMA store group) have source reads to wait for.
gpuir.proc @read_on_cp_async_group(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cp_async_group>
      // expected-error @+1 {{'gpuir.await' op read waits until bulk copies have read their sources (cp.async.bulk.wait_group.read), which only a tma_store_group has; this barrier is cp_async_group}}
      gpuir.await %b, cuda_in_order, outstanding(0), read : !gpuir.barrier<cp_async_group>
    }
  }
}

// -----

gpuir.proc @await_clause(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cluster_sync>
      // expected-error @+1 {{expected lag(n), outstanding(n), read or skip, found 'count'}}
      gpuir.await %b, cuda_in_order, count(1) : !gpuir.barrier<cluster_sync>
    }
  }
}

// -----

// Grid constants are kernel parameters: the device only reads them.
gpuir.proc @write_grid_constant(%n: index, %g: memref<f32, #gpuir.grid_constant>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %one = arith.constant 1.0 : f32
      // expected-error @+1 {{'gpuir.write' op writes its buffer in grid_constant memory inside a device function; grid constants are kernel parameters that the device only reads: write the value at CPU scope before the launch, or keep it in #gpuir.gmem}}
      gpuir.write %one, %g[] : memref<f32, #gpuir.grid_constant>
    }
  }
}

// -----

gpuir.proc @reduce_grid_constant(%n: index, %g: memref<4xf32, #gpuir.grid_constant>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %one = arith.constant 1.0 : f32
      // expected-error @+1 {{'gpuir.reduce' op writes its buffer in grid_constant memory inside a device function}}
      gpuir.reduce %one, %g[0] : memref<4xf32, #gpuir.grid_constant>
    }
  }
}

// -----

// Writing a grid constant at CPU scope, before the launch, is how it gets
// its value.
gpuir.proc @set_grid_constant(%n: index, %g: memref<f32, #gpuir.grid_constant>) {
  %one = arith.constant 1.0 : f32
  gpuir.write %one, %g[] : memref<f32, #gpuir.grid_constant>
}

// -----

gpuir.proc @huge_shared(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.alloc' op allocates 17179869184 bytes of shared memory; a CTA has at most 232448 (227 KiB on sm_90a): tile the buffer or keep it in #gpuir.gmem}}
      %s = gpuir.alloc : memref<4294967296xf32, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @overflowing_shared(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.alloc' op allocates more than 2^63 bytes of shared memory}}
      %s = gpuir.alloc : memref<4294967296x4294967296xf32, #gpuir.smem>
    }
  }
}

// -----

// expected-error @+1 {{'gpuir.proc' op parameter #1 has gpuir.extents = 3 : i64; expected an affine map over the procedure's 1 control parameters, in order, for example affine_map<(M, N) -> (M, N * 64)>}}
gpuir.proc @extents_not_a_map(%n: index, %x: memref<?xf32, #gpuir.gmem> {gpuir.extents = 3}) {
}

// -----

// expected-error @+1 {{'gpuir.proc' op parameter #2 has 1 extents for 2 dimensions}}
gpuir.proc @extents_rank(%m: index, %n: index, %x: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(m, n) -> (m)>}) {
}

// -----

// expected-error @+1 {{'gpuir.proc' op parameter #1 declares extent d0 for dimension 1, whose static size is 64}}
gpuir.proc @extents_static(%n: index, %x: memref<?x64xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, n)>}) {
}

// -----

// Control expressions are quasi-affine: division and mod by a positive
// constant only (in loop bounds, indices and every other control map).
gpuir.proc @divide_by_negative(%n: index) {
  // expected-error @+1 {{'gpuir.for' op divides by -2 in a control expression; floordiv, ceildiv and mod take a positive constant}}
  gpuir.for %i = 0 to %n mod -2 : seq {
  }
}

// -----

gpuir.proc @divide_by_zero(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    // expected-error @+1 {{'gpuir.read' op divides by 0 in a control expression; floordiv, ceildiv and mod take a positive constant}}
    %v = gpuir.read %X[%i floordiv 0] : memref<?xf32, #gpuir.host>
  }
}

// -----

// expected-error @+1 {{'gpuir.proc' op parameter #1 declares an extent that divides by 0; floordiv, ceildiv and mod take a positive constant}}
gpuir.proc @extents_divisor(%n: index, %x: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n mod 0)>}) {
}

// -----

// One buffer passed as two parameters: a procedure's buffer parameters are
// distinct (its check, its sequential meaning and the rewrites of its body
// take them so; an adversarial review reordered the callee's writes to A and
// B, which changed X).
gpuir.proc @two_writes(%A: memref<4xf32, #gpuir.host>, %B: memref<4xf32, #gpuir.host>) {
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  gpuir.write %c1, %B[0] : memref<4xf32, #gpuir.host>
  gpuir.write %c2, %A[0] : memref<4xf32, #gpuir.host>
}
gpuir.proc @aliased(%X: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.call' op passes one buffer (or overlapping windows of it) as arguments #0 and #1 of 'two_writes'; a procedure's buffer parameters are distinct buffers (its check, its sequential meaning and the rewrites of its body take them so): pass a copy, or windows that are apart}}
  gpuir.call @two_writes(%X, %X) : (memref<4xf32, #gpuir.host>, memref<4xf32, #gpuir.host>) -> ()
}

// -----

// Overlapping windows of one buffer are the same mistake.
gpuir.proc @two_writes(%A: memref<4xf32, strided<[1], offset: ?>, #gpuir.host>, %B: memref<4xf32, strided<[1], offset: ?>, #gpuir.host>) {
  %c1 = arith.constant 1.0 : f32
  gpuir.write %c1, %B[0] : memref<4xf32, strided<[1], offset: ?>, #gpuir.host>
}
gpuir.proc @overlapping(%X: memref<8xf32, #gpuir.host>) {
  %a = gpuir.window %X[0 : 4] : memref<8xf32, #gpuir.host>
  %b = gpuir.window %X[2 : 6] : memref<8xf32, #gpuir.host>
  // expected-error @+1 {{'gpuir.call' op passes one buffer (or overlapping windows of it) as arguments #0 and #1 of 'two_writes'}}
  gpuir.call @two_writes(%a, %b) : (memref<4xf32, strided<[1], offset: ?>, #gpuir.host>, memref<4xf32, strided<[1], offset: ?>, #gpuir.host>) -> ()
}

// -----

// Windows that are apart are distinct buffers: accepted.
gpuir.proc @two_writes(%A: memref<4xf32, strided<[1], offset: ?>, #gpuir.host>, %B: memref<4xf32, strided<[1], offset: ?>, #gpuir.host>) {
  %c1 = arith.constant 1.0 : f32
  gpuir.write %c1, %B[0] : memref<4xf32, strided<[1], offset: ?>, #gpuir.host>
}
gpuir.proc @apart(%X: memref<8xf32, #gpuir.host>) {
  %a = gpuir.window %X[0 : 4] : memref<8xf32, #gpuir.host>
  %b = gpuir.window %X[4 : 8] : memref<8xf32, #gpuir.host>
  gpuir.call @two_writes(%a, %b) : (memref<4xf32, strided<[1], offset: ?>, #gpuir.host>, memref<4xf32, strided<[1], offset: ?>, #gpuir.host>) -> ()
}

// -----

gpuir.proc @skip_not_mbarrier(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<cp_async_group>
      // expected-error @+1 {{'gpuir.await' op skip passes over a phase of an mbarrier element; this barrier is cp_async_group}}
      gpuir.await %b, cuda_in_order, skip : !gpuir.barrier<cp_async_group>
    }
  }
}

// -----

gpuir.proc @skip_with_lag(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %b = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      // expected-error @+1 {{'gpuir.await' op skip counts the next phase; it takes no lag}}
      gpuir.await %b[0], cuda_in_order, lag(1), skip : !gpuir.barrier<mbarrier [2]>
    }
  }
}
