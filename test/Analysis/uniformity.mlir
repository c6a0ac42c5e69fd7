// RUN: rake-opt %s -split-input-file --rake-uniformity | FileCheck %s
// RUN: not rake-opt %S/Inputs/uniformity-invalid.mlir -split-input-file --rake-uniformity -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// rake-check applies the rule, without the annotations:
// RUN: not rake-opt %S/Inputs/uniformity-invalid.mlir -split-input-file --rake-check -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rake-opt %examples/warp_sums.mlir --rake-check | FileCheck %s --check-prefix=CLEAN
// CLEAN-NOT: gpuir.uniformity
// RUN: for f in %examples/*.mlir %rake_src/bench/gemm/*.mlir; do rake-opt $f --rake-uniformity -o /dev/null || exit 1; done

// Uniformity (the profile's racks and lanes): loops over warps and task
// indices are the same for every lane of a warp; a loop over threads of a
// warp names lanes; a sequential loop or an if that uses a lane is
// lane-varying, and so is anything that uses its variable.
// CHECK-LABEL: gpuir.proc @marks
// CHECK: gpuir.for %r = 0 to %n : cuda_tasks {
// CHECK: gpuir.for %w = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
// CHECK: gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
// CHECK: gpuir.for %i = 0 to %l : seq {
// CHECK: gpuir.if %i >= 2 {
// CHECK: } attributes {gpuir.uniformity = "lane_varying"}
// CHECK: } attributes {gpuir.uniformity = "lane_varying"}
// CHECK: gpuir.if %w == 0 {
// CHECK: } attributes {gpuir.uniformity = "uniform"}
// CHECK: } attributes {gpuir.uniformity = "lanes"}
// CHECK: gpuir.for %j = 0 to %w : seq {
// CHECK: } attributes {gpuir.uniformity = "uniform"}
// CHECK: } attributes {gpuir.uniformity = "uniform"}
// CHECK: } attributes {gpuir.uniformity = "uniform"}
gpuir.proc @marks(%n: index, %X: memref<?x256xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %r = 0 to %n : cuda_tasks {
      gpuir.for %w = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
        gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
          gpuir.for %i = 0 to %l : seq {
            gpuir.if %i >= 2 {
              %z = arith.constant 0.0 : f32
              gpuir.write %z, %X[%r, %w * 32 + %l] : memref<?x256xf32, #gpuir.gmem>
            }
          }
          gpuir.if %w == 0 {
            %z = arith.constant 1.0 : f32
            gpuir.write %z, %X[%r, %l] : memref<?x256xf32, #gpuir.gmem>
          }
        }
        gpuir.for %j = 0 to %w : seq {
        }
      }
    }
  }
}

// BAD: :11:9: error: 'gpuir.sm80.shfl_bfly' op is a collective of 32 threads inside a loop over lanes; profile nvidia-ptx-sm90a: every lane of a warp reaches a collective with the same membership, so the control around it must be warp-uniform (move the instruction out, or make the loop or condition depend on warp-uniform values)
// BAD: :10:7: note: the loop over lanes
// BAD: :28:13: error: 'gpuir.sm80.shfl_bfly' op is a collective of 32 threads under lane-varying control (it depends on %l); profile nvidia-ptx-sm90a: every lane of a warp reaches a collective with the same membership, so the control around it must be warp-uniform (move the instruction out, or make the loop or condition depend on warp-uniform values)
// BAD: :26:9: note: the lane-varying control
// BAD: :48:13: error: 'gpuir.sm80.warp_sum' op is a collective of 32 threads whose index operand #2 may differ between the lanes of a warp; profile nvidia-ptx-sm90a: every lane of a warp must agree on which lanes take part, so the check could not establish the collective's lanes (compute the operand from procedure parameters, task indices, loops over warps and constants)

// -----

// A unit that is not whole warps (48 threads) splits a warp between two
// iterations: its variable tells lanes apart.
// CHECK-LABEL: gpuir.proc @half_warps
// CHECK: gpuir.for %h = 0 to 2 : cuda_threads<#gpuir.unit<48 x thread>> {
// CHECK: } attributes {gpuir.uniformity = "lanes"}
// CHECK-NEXT: } attributes {gpuir.uniformity = "lanes"}
// CHECK-NEXT: } attributes {gpuir.uniformity = "uniform"}
gpuir.proc @half_warps(%n: index, %X: memref<?x2xf32, #gpuir.gmem>) {
  gpuir.device_function block(96) {
    gpuir.for %r = 0 to %n : cuda_tasks {
      gpuir.for %h = 0 to 2 : cuda_threads<#gpuir.unit<48 x thread>> {
        gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 0.0 : f32
          gpuir.write %z, %X[%r, %h] : memref<?x2xf32, #gpuir.gmem>
        }
      }
    }
  }
}
