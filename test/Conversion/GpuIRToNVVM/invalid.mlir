// RUN: rake-opt %s -split-input-file -verify-diagnostics --convert-gpuir-to-nvvm

gpuir.proc @cpu_code(%n: index, %h: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{'gpuir.read' op is CPU code beside the device function; only a procedure whose body is one device function is lowered to a kernel yet}}
  %v = gpuir.read %h[0] : memref<4xf32, #gpuir.host>
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

// expected-error @+1 {{'gpuir.proc' op has no device function to lower}}
gpuir.proc @no_device(%n: index) {
}

// -----

gpuir.proc @dependent_bounds(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %i = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.for' op has bounds that depend on an enclosing task index; task loops with such bounds are not distributed yet}}
      gpuir.for %j = 0 to %i : cuda_tasks {
      }
    }
  }
}

// -----

gpuir.proc @setmaxnreg_over_budget(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op the warp groups' register counts need 34816 registers, but a CTA of 256 threads at 2 per SM holds 32768 (128 a thread); setmaxnreg.inc would wait forever}}
  gpuir.device_function blocks_per_sm(2) warps(producer = 4 dec(40), consumer = 4 inc(232)) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      gpuir.warps "producer" {
      }
    }
  }
}

// -----

gpuir.proc @setmaxnreg_not_warpgroups(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op warp group 'b' sets its register count, but setmaxnreg is executed by whole warpgroups and the group's warps [1, 5) are not whole aligned warpgroups}}
  gpuir.device_function warps(a = 1, b = 4 inc(232)) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      gpuir.warps "a" {
      }
    }
  }
}

// -----

gpuir.proc @split_barrier(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.alloc' op has no arrive statement; code generation initializes an mbarrier with the number of threads that arrive on it}}
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
    }
  }
}

// -----

gpuir.proc @instruction(%n: index, %x: memref<4xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'rtest.in_order_op' op is an instruction with no device lowering yet}}
        rtest.in_order_op %x unit <thread> : memref<4xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @async_fence(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.fence' op orders asynchronous timelines; only fences after in-order accesses, to in-order accesses or the async proxy, and wgmma fences are lowered yet}}
      gpuir.fence cuda_in_order -> wgmma_async
    }
  }
}

// -----

gpuir.proc @too_many_groups(%n: index) {
  gpuir.device_function block(1024) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %g = 0 to 16 : cuda_threads<#gpuir.unit<2 x warp>> {
        // expected-error @+1 {{'gpuir.fence' op synchronizes groups of 64 threads: 16 named barriers, but a CTA has 15 besides barrier 0}}
        gpuir.fence cuda_in_order -> cuda_in_order
      }
    }
  }
}

// -----

// expected-error @+1 {{'gpuir.proc' op parameter #1 is not in global memory; a kernel takes only global buffers and index values}}
gpuir.proc @host_param(%n: index, %h: memref<4xf32, #gpuir.host>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}


// -----

gpuir.proc @swizzled(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.alloc' op allocates shared memory in the 64-byte swizzle with rows of 64 bytes; only the 128-byte swizzle of 128-byte rows is lowered yet}}
      %s = gpuir.alloc : memref<64x32xf16, #gpuir.smem_swizzled<64>>
    }
  }
}

// -----

gpuir.proc @swizzled_rows(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.alloc' op allocates shared memory in the 128-byte swizzle with rows of 256 bytes; only the 128-byte swizzle of 128-byte rows is lowered yet}}
      %s = gpuir.alloc : memref<64x128xf16, #gpuir.smem_swizzled<128>>
    }
  }
}

// -----

// Plain reads and writes do not apply the swizzle to their addresses.
gpuir.proc @swizzled_element(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x64xf16, #gpuir.smem_swizzled<128>>
      gpuir.for %i = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f16
        // expected-error @+1 {{'gpuir.write' op accesses swizzled shared memory element by element; only the instructions that know the swizzle (cp.async, wgmma) access it yet}}
        gpuir.write %z, %s[%i, 0] : memref<64x64xf16, #gpuir.smem_swizzled<128>>
      }
    }
  }
}

// -----

// Two arrive statements from different numbers of threads: one count
// cannot complete both phases.
gpuir.proc @two_arrives(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
      gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
      gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
        // expected-error @+1 {{'gpuir.arrive' op arrives from 64 threads on an mbarrier array that another arrive statement arrives on from 128; code generation initializes each mbarrier with one count, so every arrive statement on it must come from as many threads}}
        gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
      }
      gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
    }
  }
}

// -----

gpuir.proc @nested_mbarrier(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      gpuir.for %k = 0 to 2 : seq {
        // expected-error @+1 {{'gpuir.alloc' op allocates an mbarrier inside a loop or region of a task; code generation keeps mbarriers for the whole kernel and needs them allocated at task scope}}
        %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
        gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
        gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
      }
    }
  }
}

// -----

gpuir.proc @too_many_mbarriers(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.alloc' op allocates 33 mbarriers; code generation keeps their phases in one 32-bit register and handles at most 32}}
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [33]>
      gpuir.arrive cuda_in_order >> %bar[0] : !gpuir.barrier<mbarrier [33]>
      gpuir.await %bar[0], cuda_in_order : !gpuir.barrier<mbarrier [33]>
    }
  }
}

// -----

gpuir.proc @lagged_await(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      gpuir.for %k = 0 to 4 : seq {
        gpuir.arrive cuda_in_order >> %bar[%k mod 2] : !gpuir.barrier<mbarrier [2]>
        // expected-error @+1 {{'gpuir.await' op awaits with lag(1); only lag 0 (and mbarrier_prearrive's first phase) is lowered yet}}
        gpuir.await %bar[%k mod 2], cuda_in_order, lag(1) : !gpuir.barrier<mbarrier [2]>
      }
    }
  }
}

// -----

gpuir.proc @multicast_arrive(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      // expected-error @+1 {{'gpuir.arrive' op names several mbarriers of one CTA at once, which is not lowered: name one element (an interval only over the cluster's CTAs, for a multicast)}}
      gpuir.arrive cuda_in_order >> %bar[0 : 2] : !gpuir.barrier<mbarrier [2]>
      gpuir.await %bar[0], cuda_in_order : !gpuir.barrier<mbarrier [2]>
    }
  }
}

// -----

gpuir.proc @async_await(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
      // expected-error @+1 {{'gpuir.await' op awaits an mbarrier for cuda_generic_and_async_proxy accesses; only cuda_in_order, tma_to_smem_async and wgmma_async awaits are lowered yet}}
      gpuir.await %bar, cuda_generic_and_async_proxy : !gpuir.barrier<mbarrier>
    }
  }
}

// -----

gpuir.proc @async_arrive(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      // expected-error @+1 {{'gpuir.arrive' op arrives on an mbarrier after wgmma_async accesses; only cuda_in_order and Sm80_cp_async arrives are lowered yet (a TMA copy completes on its own trailing mbarrier)}}
      gpuir.arrive wgmma_async >> %bar : !gpuir.barrier<mbarrier>
      gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
    }
  }
}

// -----

gpuir.proc @instruction_on_mbarrier(%n: index, %A: memref<?x64x64xf16, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %S = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %a = gpuir.window %A[%t, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
        // expected-error @+1 {{'rtest.example_tma_multicast' op asks for a tensor map, but the kernel's tensor maps are those of its gpuir.sm90a.tma_load copies (KernelABI)}}
        rtest.example_tma_multicast %a, %S >> %bar : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, #gpuir.smem>, !gpuir.barrier<mbarrier>
      }
      gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
    }
  }
}

// -----

// A quadpair loop inside a warp loop splits the thread dimension the warp
// loop narrowed into two (domain [16, 16]).
gpuir.proc @refined_dimension(%n: index) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %w = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
        // expected-error @+1 {{'gpuir.for' op tiles a dimension of the thread domain that splits one an enclosing loop already narrowed; such tilings are not lowered yet}}
        gpuir.for %q = 0 to 4 : cuda_threads<#gpuir.unit<quadpair>> {
          %r = gpuir.alloc : memref<4xf32, #gpuir.rmem>
        }
      }
    }
  }
}

// -----

// wgmma.fence is a warpgroup's: a wgmma fence over one warp is refused.
gpuir.proc @warp_wgmma_fence(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      gpuir.for %w = 0 to 4 : cuda_threads<#gpuir.unit<warp>> {
        // expected-error @+1 {{'gpuir.fence' op is a wgmma fence over 32 threads; wgmma.fence is executed by whole warpgroups}}
        gpuir.fence wgmma_fence_1 -> wgmma_fence_2
      }
    }
  }
}

// -----

// A swizzled wgmma operand must start at an 8-row swizzle atom: rows from
// %r * 4 may not.
gpuir.proc @swizzle_atom(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %D = gpuir.alloc : memref<128x64xf32, #gpuir.rmem>
      %As = gpuir.alloc : memref<128x64xbf16, #gpuir.smem_swizzled<128>>
      %Bs = gpuir.alloc : memref<128x64xbf16, #gpuir.smem_swizzled<128>>
      %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
      gpuir.for %r = 0 to 2 : seq {
        %a = gpuir.window %As[%r * 4 : %r * 4 + 64, 0 : 16] : memref<128x64xbf16, #gpuir.smem_swizzled<128>> -> memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>
        %b = gpuir.window %Bs[0 : 128, 0 : 16] : memref<128x64xbf16, #gpuir.smem_swizzled<128>> -> memref<128x16xbf16, strided<[64, 1]>, #gpuir.smem_swizzled<128>>
        // expected-error @+1 {{'gpuir.sm90a.wgmma' op cannot prove that its swizzled operand starts at a swizzle atom: its window's rows must start at multiples of 8 and its columns at multiples of 16}}
        gpuir.sm90a.wgmma %D, %a, %b : memref<128x64xf32, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<128x16xbf16, strided<[64, 1]>, #gpuir.smem_swizzled<128>>
      }
      gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
      gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
    }
  }
}

// -----

// A window of a window of swizzled memory.
gpuir.proc @swizzle_window_window(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %D = gpuir.alloc : memref<128x64xf32, #gpuir.rmem>
      %As = gpuir.alloc : memref<128x64xbf16, #gpuir.smem_swizzled<128>>
      %Bs = gpuir.alloc : memref<128x64xbf16, #gpuir.smem_swizzled<128>>
      %cg = gpuir.alloc : !gpuir.barrier<wgmma_group>
      %a0 = gpuir.window %As[0 : 64, 0 : 64] : memref<128x64xbf16, #gpuir.smem_swizzled<128>> -> memref<64x64xbf16, strided<[64, 1]>, #gpuir.smem_swizzled<128>>
      %a = gpuir.window %a0[0 : 64, 0 : 16] : memref<64x64xbf16, strided<[64, 1]>, #gpuir.smem_swizzled<128>> -> memref<64x16xbf16, strided<[64, 1]>, #gpuir.smem_swizzled<128>>
      %b = gpuir.window %Bs[0 : 128, 0 : 16] : memref<128x64xbf16, #gpuir.smem_swizzled<128>> -> memref<128x16xbf16, strided<[64, 1]>, #gpuir.smem_swizzled<128>>
      // expected-error @+1 {{'gpuir.sm90a.wgmma' op takes a window of a window of swizzled memory; code generation needs one window of the buffer to place the swizzle atoms}}
      gpuir.sm90a.wgmma %D, %a, %b : memref<128x64xf32, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1]>, #gpuir.smem_swizzled<128>>, memref<128x16xbf16, strided<[64, 1]>, #gpuir.smem_swizzled<128>>
      gpuir.arrive wgmma_async >> %cg : !gpuir.barrier<wgmma_group>
      gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
    }
  }
}

// -----

// cp.async's zero fill into swizzled shared memory is not lowered.
gpuir.proc @swizzle_fill(%n: index, %A: memref<?x64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %As = gpuir.alloc : memref<8x64xbf16, #gpuir.smem_swizzled<128>>
      %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
      gpuir.for %i = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %s = gpuir.window %As[%i floordiv 4, (%i mod 4) * 8 : (%i mod 4) * 8 + 8] : memref<8x64xbf16, #gpuir.smem_swizzled<128>> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>
        %g = gpuir.window %A[%t * 8 + %i floordiv 4, (%i mod 4) * 8 : (%i mod 4) * 8 + 8] : memref<?x64xbf16, #gpuir.gmem> -> memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
        // expected-error @+1 {{'gpuir.sm80.cp_async' op zero-fills into swizzled shared memory; not lowered yet}}
        gpuir.sm80.cp_async %s, %g fill(%n) : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem_swizzled<128>>, memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
      }
      gpuir.arrive Sm80_cp_async >> %cg : !gpuir.barrier<cp_async_group>
      gpuir.await %cg, cuda_in_order, outstanding(0) : !gpuir.barrier<cp_async_group>
    }
  }
}

// -----

// A TMA copy is one arrival on its trailing mbarrier; an arrive statement
// on the same mbarrier would need a count of another kind.
gpuir.proc @tma_and_arrive(%n: index, %A: memref<?x?xbf16, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %As = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %A[%t * 64 : %t * 64 + 64, 0 : 64] : memref<?x?xbf16, #gpuir.gmem> -> memref<64x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>
        gpuir.sm90a.tma_load %As, %g >> %bar : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
        // expected-error @+1 {{'gpuir.arrive' op arrives on an mbarrier that instructions also complete on (their trailing barrier); code generation counts one kind of arrival per mbarrier: use an mbarrier of its own for each}}
        gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
      }
      gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
    }
  }
}

// -----

// The copies completing on one mbarrier in one loop body are a phase's
// arrivals: two loop bodies completing different numbers cannot share the
// count the mbarrier is initialized with.
gpuir.proc @tma_counts_differ(%n: index, %A: memref<?x?xbf16, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      %As = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %A[%t * 64 : %t * 64 + 64, 0 : 64] : memref<?x?xbf16, #gpuir.gmem> -> memref<64x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>
        gpuir.for %k = 0 to 2 : seq {
          gpuir.sm90a.tma_load %As, %g >> %bar : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
          gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
        }
        // expected-error @+1 {{'gpuir.for' op completes 2 instruction arrivals a phase on an mbarrier array on which another loop body completes 1; code generation initializes each mbarrier with one count, so every loop body must complete as many instructions on it}}
        gpuir.for %k = 0 to 2 : seq {
          gpuir.sm90a.tma_load %As, %g >> %bar : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
          gpuir.sm90a.tma_load %As, %g >> %bar : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
          gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
        }
      }
    }
  }
}

// -----

// The tensor map describes a buffer parameter: a window of a window is not one.
gpuir.proc @tma_window_window(%n: index, %A: memref<?x?xbf16, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %As = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %g0 = gpuir.window %A[%t * 64 : %t * 64 + 64, 0 : 128] : memref<?x?xbf16, #gpuir.gmem> -> memref<64x128xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>
        %g = gpuir.window %g0[0 : 64, 0 : 64] : memref<64x128xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem> -> memref<64x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op copies from a box that is not one window of a buffer parameter of the procedure; the tensor map describes a parameter}}
        gpuir.sm90a.tma_load %As, %g >> %bar : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
      gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
    }
  }
}

// -----

gpuir.proc @tma_rank3(%n: index, %A: memref<?x64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %As = gpuir.alloc : memref<64x64xbf16, #gpuir.smem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %g = gpuir.window %A[%t, 0 : 64, 0 : 64] : memref<?x64x64xbf16, #gpuir.gmem> -> memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
        // expected-error @+1 {{'gpuir.sm90a.tma_load' op copies from parameter #1 of type 'memref<?x64x64xbf16, #gpuir.gmem>'; code generation makes tensor maps of two-dimensional row-major buffers}}
        gpuir.sm90a.tma_load %As, %g >> %bar : memref<64x64xbf16, #gpuir.smem>, memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
      }
      gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
    }
  }
}

// -----

// Reads and reductions of swizzled memory are refused like writes.
gpuir.proc @swizzled_read(%n: index, %A: memref<?xf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x64xf16, #gpuir.smem_swizzled<128>>
      gpuir.for %i = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.read' op accesses swizzled shared memory element by element; only the instructions that know the swizzle (cp.async, wgmma) access it yet}}
        %v = gpuir.read %s[%i, 0] : memref<64x64xf16, #gpuir.smem_swizzled<128>>
        gpuir.write %v, %A[%t * 32 + %i] : memref<?xf16, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @swizzled_reduce(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x64xf16, #gpuir.smem_swizzled<128>>
      gpuir.for %i = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 1.0 : f16
        // expected-error @+1 {{'gpuir.reduce' op accesses swizzled shared memory element by element; only the instructions that know the swizzle (cp.async, wgmma) access it yet}}
        gpuir.reduce %z, %s[%i, 0] : memref<64x64xf16, #gpuir.smem_swizzled<128>>
      }
    }
  }
}


// -----

// Groups of 64 and of 128 threads in a CTA of 1024: 16 + 8 ids.
gpuir.proc @too_many_group_sizes(%n: index) {
  gpuir.device_function block(1024) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %g = 0 to 8 : cuda_threads<#gpuir.unit<warpgroup>> {
        gpuir.fence cuda_in_order -> cuda_in_order
      }
      gpuir.for %g = 0 to 16 : cuda_threads<#gpuir.unit<2 x warp>> {
        // expected-error @+1 {{'gpuir.fence' op synchronizes groups of 64 threads: with the other group sizes of this device function it needs 24 named barriers (16 of 64, 8 of 128 threads), but a CTA has 15 besides barrier 0}}
        gpuir.fence cuda_in_order -> cuda_in_order
      }
    }
  }
}

// -----

// Each stage fits, but the four live at once do not.
gpuir.proc @shared_over_limit(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op needs 262144 bytes of shared memory per CTA for the buffers that are live at once; a CTA has at most 232448 (227 KiB on sm_90a): use fewer stages or smaller tiles}}
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %a = gpuir.alloc : memref<16384xf32, #gpuir.smem>
      %b = gpuir.alloc : memref<16384xf32, #gpuir.smem>
      %c = gpuir.alloc : memref<16384xf32, #gpuir.smem>
      %d = gpuir.alloc : memref<16384xf32, #gpuir.smem>
      gpuir.for %i = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %a[%i] : memref<16384xf32, #gpuir.smem>
        gpuir.write %z, %b[%i] : memref<16384xf32, #gpuir.smem>
        gpuir.write %z, %c[%i] : memref<16384xf32, #gpuir.smem>
        gpuir.write %z, %d[%i] : memref<16384xf32, #gpuir.smem>
      }
    }
  }
}

// -----

gpuir.proc @two_kernels(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
    }
  }
  // expected-error @+1 {{'gpuir.device_function' op is a second device function in the procedure; code generation lowers one device function per procedure to a kernel: write each kernel as a procedure of its own}}
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
    }
  }
}

// -----

// A ring index taken mod 3 in a ring of two stages: at the sizes the check
// ran it may stay inside (K = 2), but code generation compiles for every K.
gpuir.proc @ring_mod_3(%K: index, %X: memref<?x128xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %ring = gpuir.alloc : memref<2x128xf32, #gpuir.smem>
      gpuir.for %k = 0 to %K : seq {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %x = gpuir.read %X[%k, %t] : memref<?x128xf32, #gpuir.gmem>
          // expected-error @+1 {{'gpuir.write' op the index of dimension 0 can leave the extent 2 of its buffer for some sizes (the synchronization check proves accesses in bounds only at the sizes it runs); keep the index inside the buffer for every value, with a guard or a larger buffer}}
          gpuir.write %x, %ring[(%k + 1) mod 3, %t] : memref<2x128xf32, #gpuir.smem>
        }
      }
    }
  }
}

// -----

// A window reaching one element past its buffer.
gpuir.proc @window_past_end(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<4x128xf32, #gpuir.smem>
      gpuir.for %t = 0 to 4 : cuda_threads<#gpuir.unit<warp>> {
        // expected-error @+1 {{'gpuir.window' op the index of dimension 1 can leave the extent 128 of its buffer for some sizes}}
        %w = gpuir.window %s[%t, 1 : 129] : memref<4x128xf32, #gpuir.smem> -> memref<128xf32, strided<[1], offset: ?>, #gpuir.smem>
      }
    }
  }
}

// -----

// A guard that keeps the index inside: accepted (the guard's condition
// bounds the index).
gpuir.proc @guarded(%n: index, %A: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.if %t < 64 {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %s[%t] : memref<64xf32, #gpuir.smem>
        }
      }
    }
  }
}

// -----

// 256 floats per thread: more than a thread's 255 registers.
gpuir.proc @too_many_registers(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.alloc' op needs 256 32-bit registers per thread; a thread has at most 255: use smaller fragments or shared memory}}
      %r = gpuir.alloc : memref<32x256xf32, #gpuir.rmem>
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %i = 0 to 256 : seq {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %r[%t, %i] : memref<32x256xf32, #gpuir.rmem>
        }
      }
    }
  }
}

// -----

// In the else branch of a comparison, its negation bounds the index.
gpuir.proc @guarded_else(%n: index, %A: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.if %t >= 64 {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %s[%t - 64] : memref<64xf32, #gpuir.smem>
        } else {
          %z = arith.constant 1.0 : f32
          gpuir.write %z, %s[%t] : memref<64xf32, #gpuir.smem>
        }
      }
    }
  }
}

// -----

// One arrive statement on two mbarrier arrays.
gpuir.proc @arrive_two_arrays(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %a = gpuir.alloc : !gpuir.barrier<mbarrier>
      %b = gpuir.alloc : !gpuir.barrier<mbarrier>
      // expected-error @+1 {{'gpuir.arrive' op arrives on several mbarrier arrays at once, which is not lowered: arrive on each separately}}
      gpuir.arrive cuda_in_order >> %a, %b : !gpuir.barrier<mbarrier>, !gpuir.barrier<mbarrier>
      gpuir.await %a, cuda_in_order : !gpuir.barrier<mbarrier>
      gpuir.await %b, cuda_in_order : !gpuir.barrier<mbarrier>
    }
  }
}

// -----

// cp.async's arrive completes on its own CTA's mbarrier only.
gpuir.proc @cp_async_remote_arrive(%n: index) {
  gpuir.device_function cluster(2) block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        // expected-error @+1 {{'gpuir.arrive' op arrives on other CTAs' mbarriers after cp.async copies, which is not lowered: cp.async arrives on its own CTA's}}
        gpuir.arrive Sm80_cp_async >> %bar[0 : 2] : !gpuir.barrier<mbarrier [2]>
        gpuir.await %bar[%c], cuda_in_order : !gpuir.barrier<mbarrier [2]>
      }
    }
  }
}

// -----

// An interval over the cluster's CTAs of dynamic length.
gpuir.proc @cta_interval_dynamic(%n: index, %m: index) {
  gpuir.device_function cluster(2) block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        // expected-error @+1 {{'gpuir.arrive' op names the mbarriers of several CTAs by an interval that code generation cannot lower: one dimension over the cluster's CTAs, an interval of constant length}}
        gpuir.arrive cuda_in_order >> %bar[0 : %m] : !gpuir.barrier<mbarrier [2]>
        gpuir.await %bar[%c], cuda_in_order : !gpuir.barrier<mbarrier [2]>
      }
    }
  }
}

// -----

// A multicast into a buffer that is not shared out over the cluster: the
// leading interval is two stages of one CTA, which TMA cannot fill at once.
gpuir.proc @multicast_not_over_ctas(%n: index, %A: memref<64x64xbf16, #gpuir.gmem>) {
  gpuir.device_function cluster(2) block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        %s = gpuir.alloc : memref<2x64x64xbf16, #gpuir.smem>
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %w = gpuir.window %s[0 : 2, 0 : 64, 0 : 64] : memref<2x64x64xbf16, #gpuir.smem> -> memref<2x64x64xbf16, strided<[4096, 64, 1]>, #gpuir.smem>
          %g = gpuir.window %A[0 : 64, 0 : 64] : memref<64x64xbf16, #gpuir.gmem> -> memref<64x64xbf16, strided<[64, 1]>, #gpuir.gmem>
          // expected-error @+1 {{'gpuir.sm90a.tma_load' op multicasts into a buffer that is not shared out over the cluster's CTAs (its leading dimension indexed by the cta_in_cluster loop), or completes on mbarriers that are not; code generation lands a multicast in the CTAs its mbarriers name}}
          gpuir.sm90a.tma_load %w, %g >> %bar[0 : 2] : memref<2x64x64xbf16, strided<[4096, 64, 1]>, #gpuir.smem>, memref<64x64xbf16, strided<[64, 1]>, #gpuir.gmem>, !gpuir.barrier<mbarrier [2]>
        }
        gpuir.await %bar[%c], cuda_in_order : !gpuir.barrier<mbarrier [2]>
      }
    }
  }
}

// -----

// TMA needs its shared address 128-byte aligned: a store from rows 1..64 of
// a buffer of 32-byte rows starts 32 bytes in (found by review).
gpuir.proc @tma_unaligned(%n: index,
    %C: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 16)>}) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %Cs = gpuir.alloc : memref<65x16xbf16, #gpuir.smem>
      %g = gpuir.alloc : !gpuir.barrier<tma_store_group>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %w = gpuir.window %C[%t * 64 : %t * 64 + 64, 0 : 16] : memref<?x?xbf16, #gpuir.gmem> -> memref<64x16xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>
        %s = gpuir.window %Cs[1 : 65, 0 : 16] : memref<65x16xbf16, #gpuir.smem> -> memref<64x16xbf16, strided<[16, 1], offset: 16>, #gpuir.smem>
        // expected-error @+1 {{'gpuir.sm90a.tma_store' op cannot prove that its shared operand starts at a multiple of 128 bytes, which TMA needs: its window's start in dimension 0 must be a multiple of 4}}
        gpuir.sm90a.tma_store %w, %s : memref<64x16xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x16xbf16, strided<[16, 1], offset: 16>, #gpuir.smem>
        gpuir.arrive tma_to_gmem_async >> %g : !gpuir.barrier<tma_store_group>
        gpuir.await %g, cuda_in_order, outstanding(0) : !gpuir.barrier<tma_store_group>
      }
    }
  }
}

// -----

// The same for a TMA load into a window of plain shared memory (rows of 32
// bytes) at a row that moves by 1.
gpuir.proc @tma_load_unaligned(%n: index,
    %A: memref<?x?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 16)>}) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %As = gpuir.alloc : memref<66x16xbf16, #gpuir.smem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.for %r = 0 to 2 : seq {
        gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %g = gpuir.window %A[%t * 64 : %t * 64 + 64, 0 : 16] : memref<?x?xbf16, #gpuir.gmem> -> memref<64x16xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>
          %s = gpuir.window %As[%r : %r + 64, 0 : 16] : memref<66x16xbf16, #gpuir.smem> -> memref<64x16xbf16, strided<[16, 1], offset: ?>, #gpuir.smem>
          // expected-error @+1 {{'gpuir.sm90a.tma_load' op cannot prove that its shared operand starts at a multiple of 128 bytes, which TMA needs: its window's start in dimension 0 must be a multiple of 4}}
          gpuir.sm90a.tma_load %s, %g >> %bar : memref<64x16xbf16, strided<[16, 1], offset: ?>, #gpuir.smem>, memref<64x16xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier>
        }
        gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
      }
    }
  }
}

// -----

// A TMA store's tensor map describes its destination, one window of a
// two-dimensional row-major buffer parameter (KernelABI).
gpuir.proc @whole(%n: index, %C: memref<64x32xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %Cs = gpuir.alloc : memref<64x32xf32, #gpuir.smem>
      %g = gpuir.alloc : !gpuir.barrier<tma_store_group>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'gpuir.sm90a.tma_store' op copies to a box that is not one window of a buffer parameter of the procedure; the tensor map describes a parameter}}
        gpuir.sm90a.tma_store %C, %Cs : memref<64x32xf32, #gpuir.gmem>, memref<64x32xf32, #gpuir.smem>
        gpuir.arrive tma_to_gmem_async >> %g : !gpuir.barrier<tma_store_group>
        gpuir.await %g, cuda_in_order, outstanding(0) : !gpuir.barrier<tma_store_group>
      }
    }
  }
}

// -----

gpuir.proc @rank3(%n: index, %C: memref<4x64x32xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to 4 : cuda_tasks {
      %Cs = gpuir.alloc : memref<64x32xf32, #gpuir.smem>
      %g = gpuir.alloc : !gpuir.barrier<tma_store_group>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %w = gpuir.window %C[%t, 0 : 64, 0 : 32] : memref<4x64x32xf32, #gpuir.gmem> -> memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.gmem>
        // expected-error @+1 {{'gpuir.sm90a.tma_store' op copies to parameter #1 of type 'memref<4x64x32xf32, #gpuir.gmem>'; code generation makes tensor maps of two-dimensional row-major buffers}}
        gpuir.sm90a.tma_store %w, %Cs : memref<64x32xf32, strided<[32, 1], offset: ?>, #gpuir.gmem>, memref<64x32xf32, #gpuir.smem>
        gpuir.arrive tma_to_gmem_async >> %g : !gpuir.barrier<tma_store_group>
        gpuir.await %g, cuda_in_order, outstanding(0) : !gpuir.barrier<tma_store_group>
      }
    }
  }
}

// -----

// The alignment proof reads one window of the buffer.
gpuir.proc @winwin(%n: index, %C: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 64, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %Cs = gpuir.alloc : memref<2x64x32xf32, #gpuir.smem>
      %g = gpuir.alloc : !gpuir.barrier<tma_store_group>
      gpuir.for %i = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %w = gpuir.window %C[%t * 64 : %t * 64 + 64, 0 : 32] : memref<?x?xf32, #gpuir.gmem> -> memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>
        %s1 = gpuir.window %Cs[1, 0 : 64, 0 : 32] : memref<2x64x32xf32, #gpuir.smem> -> memref<64x32xf32, strided<[32, 1], offset: 2048>, #gpuir.smem>
        %s2 = gpuir.window %s1[0 : 64, 0 : 32] : memref<64x32xf32, strided<[32, 1], offset: 2048>, #gpuir.smem> -> memref<64x32xf32, strided<[32, 1], offset: 2048>, #gpuir.smem>
        // expected-error @+1 {{'gpuir.sm90a.tma_store' op takes a window of a window of shared memory; code generation needs one window of the buffer to prove its address 128-byte aligned}}
        gpuir.sm90a.tma_store %w, %s2 : memref<64x32xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x32xf32, strided<[32, 1], offset: 2048>, #gpuir.smem>
        gpuir.arrive tma_to_gmem_async >> %g : !gpuir.barrier<tma_store_group>
        gpuir.await %g, cuda_in_order, outstanding(0) : !gpuir.barrier<tma_store_group>
      }
    }
  }
}
