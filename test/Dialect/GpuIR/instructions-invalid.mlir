// RUN: rake-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// Rejections of the instruction interface's verifier.

gpuir.proc @cuda_instr_on_cpu(%x: memref<4xf32, #gpuir.gmem>) {
  // expected-error @+1 {{'rtest.in_order_op' op is a CUDA instruction (cuda_in_order) used at CPU scope}}
  rtest.in_order_op %x unit <thread> : memref<4xf32, #gpuir.gmem>
}

// -----

gpuir.proc @cpu_instr_on_device(%n: index, %h: memref<4xf32, #gpuir.host>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{'rtest.host_op' op is a CPU instruction (cpu_in_order) used inside a device function}}
      rtest.host_op %h : memref<4xf32, #gpuir.host>
    }
  }
}

// -----

gpuir.proc @element_type(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %D = gpuir.alloc : memref<128x32xf16, #gpuir.rmem>
      %A = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      // expected-error @+1 {{'rtest.example_wgmma' op parameter 'd' takes 'f32' elements, found 'f16'}}
      rtest.example_wgmma %D, %A, %A : memref<128x32xf16, #gpuir.rmem>, memref<64x64xf16, #gpuir.smem>, memref<64x64xf16, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @memory_type(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %D = gpuir.alloc : memref<128x32xf32, #gpuir.smem>
      %A = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      // expected-error @+1 {{'rtest.example_wgmma' op parameter 'd' cannot take a buffer in smem memory}}
      rtest.example_wgmma %D, %A, %A : memref<128x32xf32, #gpuir.smem>, memref<64x64xf16, #gpuir.smem>, memref<64x64xf16, #gpuir.smem>
    }
  }
}

// -----

gpuir.proc @no_memory_type(%n: index, %x: memref<4xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %y = "test.plain"() : () -> memref<4xf32>
      // expected-error @+1 {{'rtest.in_order_op' op parameter 'buf' has no memory space; give it a memory type such as #gpuir.gmem, #gpuir.smem or #gpuir.rmem}}
      rtest.in_order_op %y unit <thread> : memref<4xf32>
    }
  }
}

// -----

gpuir.proc @barrier_mechanism(%n: index, %A: memref<64x64xf16, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %B = gpuir.alloc : memref<64x64xf16, #gpuir.smem>
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      // expected-error @+1 {{'rtest.example_tma_multicast' op completes through a mbarrier barrier, but the trailing barrier is cluster_sync}}
      rtest.example_tma_multicast %A, %B >> %cs : memref<64x64xf16, #gpuir.gmem>, memref<64x64xf16, #gpuir.smem>, !gpuir.barrier<cluster_sync>
    }
  }
}

// -----

gpuir.proc @window_shape(%n: index) {
  gpuir.device_function block(128) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %D = gpuir.alloc : memref<128x32xf32, #gpuir.rmem>
      %A = gpuir.alloc : memref<32x64xf16, #gpuir.smem>
      // expected-error @+1 {{'rtest.example_wgmma' op parameter 'a' takes a window of shape [64, ?], found [32, 64]}}
      rtest.example_wgmma %D, %A, %A : memref<128x32xf32, #gpuir.rmem>, memref<32x64xf16, #gpuir.smem>, memref<32x64xf16, #gpuir.smem>
    }
  }
}
