// RUN: rake-opt %s -split-input-file -verify-diagnostics --convert-gpuir-to-nvvm

gpuir.proc @cluster(%n: index) {
  // expected-error @+1 {{'gpuir.device_function' op runs clusters of 2 CTAs; clusters are not lowered yet}}
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

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
      // expected-error @+1 {{'gpuir.alloc' op allocates a barrier of mechanism mbarrier; only cp.async commit groups are lowered yet}}
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
      // expected-error @+1 {{'gpuir.fence' op orders asynchronous timelines; only fences between in-order accesses are lowered yet}}
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

// expected-error @+1 {{'gpuir.proc' op parameter #1 of type '!gpuir.tensor_map<f16, box [64, 64], swizzle 128>' cannot be passed to a kernel yet}}
gpuir.proc @tensor_map_param(%n: index, %tm: !gpuir.tensor_map<f16, box [64, 64], swizzle 128>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
    }
  }
}

// -----

gpuir.proc @swizzled(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'gpuir.alloc' op allocates #gpuir.smem_swizzled<128> memory, which is not lowered yet}}
      %s = gpuir.alloc : memref<64x64xf16, #gpuir.smem_swizzled<128>>
    }
  }
}
