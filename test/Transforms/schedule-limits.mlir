// RUN: rake-opt %s -split-input-file --transform-interpreter | FileCheck %s

// simplify keeps a control expression with a constant of 2^31 or more as
// written: MLIR's simplifier is exact over the integers, not under 64-bit
// wrapping (an adversarial review: dividing out the common factor 2 of
// 3 * 6148914691236517206-sized terms changed which iterations the guard
// lets through, and Y).
// CHECK-LABEL: gpuir.proc @large_guard
// CHECK: gpuir.if (%{{.*}} * 6148914691236517206 + %{{.*}} * 6148914691236517206 + %{{.*}} * 6148914691236517206) floordiv 8 == 0
gpuir.proc @large_guard(%Y: memref<8xf32, #gpuir.host>) {
  gpuir.for %a = 0 to 2 : seq {
    gpuir.for %b = 0 to 2 : seq {
      gpuir.for %c = 0 to 2 : seq {
        gpuir.if (%a * 6148914691236517206 + %b * 6148914691236517206 + %c * 6148914691236517206) floordiv 8 == 0 {
          %one = arith.constant 1.0 : f32
          gpuir.write %one, %Y[%a * 4 + %b * 2 + %c] : memref<8xf32, #gpuir.host>
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["gpuir.proc"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %p : !transform.any_op
    transform.yield
  }
}

// -----

// replace evaluates the nest's integer arithmetic as GpuIR defines it:
// INT64_MIN / -1 wraps (before, rake-opt divided in C++ and died of SIGFPE).
// CHECK-LABEL: gpuir.proc @copy
// CHECK: gpuir.sm80.cp_async
gpuir.proc @copy(%Mt: index, %A: memref<?x32xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(Mt) -> (Mt * 128, 32)>}) {
  gpuir.device_function block(128) {
    gpuir.for %m = 0 to %Mt : cuda_tasks {
      %As = gpuir.alloc : memref<128x40xbf16, #gpuir.smem>
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.for %c = 0 to 4 : seq {
          gpuir.for %e = 0 to 8 : seq {
            %x = arith.constant -9223372036854775808 : i64
            %y = arith.constant -1 : i64
            %z = arith.divsi %x, %y : i64
            %v = gpuir.read %A[%m * 128 + %t, %c * 8 + %e] : memref<?x32xbf16, #gpuir.gmem>
            gpuir.write %v, %As[%t, %c * 8 + %e] : memref<128x40xbf16, #gpuir.smem>
          }
        }
      }
    }
  }
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.gpuir.loop "e" in %root : (!transform.any_op) -> !transform.any_op
    %cp = transform.gpuir.replace %e with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
