// RUN: rake-opt %s | FileCheck %s
// RUN: rake-opt %s | rake-opt | FileCheck %s
// RUN: rake-opt %s --convert-gpuir-to-cpu | FileCheck %s --check-prefix=CPU
// RUN: not rake-opt %s --rake-sync-check 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: sed -n "/^gpuir.proc @race_on_or/,\$p" %s > %t.mlir && rake-opt %t.mlir --convert-gpuir-to-nvvm | FileCheck %s --check-prefix=DEVICE

// Conditions combine comparisons with `and`, `or`, `not` and parentheses
// (`and` binds tighter than `or`); they are kept and printed as an `or` of
// `and`s, which parses back to the same op.

// CHECK-LABEL: gpuir.proc @conditions
gpuir.proc @conditions(%n: index, %A: memref<64xf32, #gpuir.host>) {
  gpuir.for %i = 0 to 64 : seq {
    // CHECK: gpuir.if %i == 0 or %i >= %n {
    gpuir.if %i == 0 or %i >= %n {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %A[%i] : memref<64xf32, #gpuir.host>
    }
    // `not` is pushed into the comparisons.
    // CHECK: gpuir.if %i >= 32 {
    gpuir.if not (%i < 32) {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %A[%i] : memref<64xf32, #gpuir.host>
    }
    // CHECK: gpuir.if %i < %n or %i > %n {
    gpuir.if not (%i == %n) {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %A[%i] : memref<64xf32, #gpuir.host>
    }
    // Parentheses group conditions, or expressions, as they come.
    // CHECK: gpuir.if %i >= 1 and %i < 8 or %i >= 1 and %i >= 16 {
    gpuir.if %i >= 1 and (%i < 8 or %i >= 16) {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %A[%i] : memref<64xf32, #gpuir.host>
    }
    // CHECK: gpuir.if (%i floordiv 4) * 2 + 1 < %n or %i mod 8 == 3 {
    gpuir.if ((%i floordiv 4) * 2 + 1 < %n or (%i mod 8) == 3) {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %A[%i] : memref<64xf32, #gpuir.host>
    }
    // De Morgan: not (a and b) = not a or not b.
    // CHECK: gpuir.if %i < 4 or %i > 9 {
    gpuir.if not (%i >= 4 and %i <= 9) {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %A[%i] : memref<64xf32, #gpuir.host>
    } else {
      %z = arith.constant 0.0 : f32
      gpuir.write %z, %A[63 - %i] : memref<64xf32, #gpuir.host>
    }
  }
}

// The sequential meaning: an `or` of `and`s of signed comparisons.
// CPU-LABEL: func.func @conditions
// CPU: %[[A:.*]] = arith.cmpi eq
// CPU: %[[B:.*]] = arith.cmpi sge
// CPU: arith.ori %[[A]], %[[B]] : i1
// CPU: arith.cmpi sge
// CPU: arith.cmpi slt
// CPU: arith.andi

// Code generation lowers the same or of ands inside the kernel.
// DEVICE: gpu.func @race_on_or
// DEVICE: %[[A:.*]] = arith.cmpi eq
// DEVICE-NEXT: %[[B:.*]] = arith.cmpi eq
// DEVICE-NEXT: %[[AB:.*]] = arith.andi %[[A]], %[[B]] : i1
// DEVICE-NEXT: %[[C:.*]] = arith.cmpi eq
// DEVICE-NEXT: %[[ANY:.*]] = arith.ori %[[AB]], %[[C]] : i1
// DEVICE-NEXT: scf.if %[[ANY]]

// The synchronization check follows every alternative: the race is only
// on the `or` branch (thread 0 reads what thread 63 wrote).
// SYNC: error: RAW hazard: thread 0 of task 0 read tile[63] on cuda_in_order_ram, written by thread 63 of task 0 on cuda_in_order_ram without synchronization that orders it before
gpuir.proc @race_on_or(%B: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %tile = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %tile[%t] : memref<64xf32, #gpuir.smem>
      }
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        gpuir.if %t == 0 and %t == 63 or %t == 0 {
          %v = gpuir.read %tile[63 - %t] : memref<64xf32, #gpuir.smem>
          gpuir.write %v, %B[%t] : memref<64xf32, #gpuir.gmem>
        }
      }
    }
  }
}
