// RUN: rake-opt %s -split-input-file -verify-diagnostics --convert-gpuir-to-cpu

gpuir.proc @instruction(%n: index, %x: memref<4xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        // expected-error @+1 {{'rtest.in_order_op' op has no sequential behavior yet; instructions' behaviors come with their instruction sets}}
        rtest.in_order_op %x unit <thread> : memref<4xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @tensor_map(%A: memref<64x64xf16, #gpuir.gmem>) {
  // expected-error @+1 {{'gpuir.tensor_map' op the sequential meaning of tensor maps is not lowered yet}}
  %tm = gpuir.tensor_map %A[0 : 64, 0 : 64] : memref<64x64xf16, #gpuir.gmem> -> !gpuir.tensor_map<f16, box [64, 64], swizzle 128>
}

// -----

// expected-error @+1 {{'gpuir.proc' op takes a tensor map; the sequential meaning of TMA instructions is not lowered yet}}
gpuir.proc @tensor_map_param(%tm: !gpuir.tensor_map<f16, box [64, 64], swizzle 128>) {
}
