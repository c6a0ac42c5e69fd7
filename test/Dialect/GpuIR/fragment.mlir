// RUN: rake-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// fragment(LAYOUT ...) after an access's coordinates adds the row and column
// of a register of a tensor-core accumulator to the last two coordinates; the
// op keeps, and prints, the sum (docs/GpuIR.md, "Fragment layouts").

// CHECK-LABEL: gpuir.proc @wgmma_epilogue
// CHECK: gpuir.write %{{.*}}, %C[%m * 64 + (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, %j * 8 + (%t mod 4) * 2 + %i mod 2]
gpuir.proc @wgmma_epilogue(%C: memref<128x64xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to 2 : cuda_tasks {
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %j = 0 to 8 : seq {
          gpuir.for %i = 0 to 4 : seq {
            %z = arith.constant 0.0 : f32
            gpuir.write %z, %C[%m * 64, 0] fragment(wgmma_d %t, %j, %i) : memref<128x64xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}

// -----

// CHECK-LABEL: gpuir.proc @mma_epilogue
// CHECK: gpuir.write %{{.*}}, %C[%w * 16 + %l floordiv 4 + (%r floordiv 2) * 8, (%l mod 4) * 2 + %r mod 2]
gpuir.proc @mma_epilogue(%C: memref<64x8xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      gpuir.for %w = 0 to 4 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %r = 0 to 4 : seq {
            %z = arith.constant 0.0 : f32
            gpuir.write %z, %C[%w * 16, 0] fragment(mma_m16n8_c %l, %r) : memref<64x8xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}

// -----

gpuir.proc @wrong_count(%C: memref<128x64xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        // expected-error @+1 {{fragment(wgmma_d ...) with 2 values: the layouts are wgmma_d (thread, j, i: register 4 j + i of a wgmma accumulator) and mma_m16n8_c (lane, register 0..3 of an mma.sync m16n8 accumulator)}}
        gpuir.write %z, %C[0, 0] fragment(wgmma_d %t, %t) : memref<128x64xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @unknown_layout(%C: memref<128x64xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        // expected-error @+1 {{fragment(wmma_c ...) with 2 values: the layouts are wgmma_d (thread, j, i: register 4 j + i of a wgmma accumulator) and mma_m16n8_c (lane, register 0..3 of an mma.sync m16n8 accumulator)}}
        gpuir.write %z, %C[0, 0] fragment(wmma_c %t, %t) : memref<128x64xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

gpuir.proc @one_coordinate(%C: memref<128xf32, #gpuir.gmem>) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        // expected-error @+1 {{fragment(...) adds a row and a column to the last two coordinates; the access has 1}}
        gpuir.write %z, %C[0] fragment(mma_m16n8_c %t, 0) : memref<128xf32, #gpuir.gmem>
      }
    }
  }
}
