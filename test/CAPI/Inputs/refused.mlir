// Code generation refuses a swizzle it does not lower, at the op.
gpuir.proc @refused(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<64x32xf16, #gpuir.smem_swizzled<64>>
    }
  }
}
