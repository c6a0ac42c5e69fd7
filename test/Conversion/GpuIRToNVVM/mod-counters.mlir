// RUN: rake-opt %s --pass-pipeline='builtin.module(gpu.module(rake-mod-counters))' | FileCheck %s

// Rings index stages by `(k + c) mod n`; rake-mod-counters (in the PTX
// pipeline, before affine maps are lowered) carries such remainders through
// the K loop instead of dividing every iteration.

// CHECK-DAG: #[[MOD6:.*]] = affine_map<(d0) -> (d0 mod 6)>
// CHECK-DAG: #[[NEXT6:.*]] = affine_map<(d0) -> ((d0 + 5) mod 6)>
// CHECK-DAG: #[[USE:.*]] = affine_map<(d0)[s0] -> (s0)>
// CHECK-DAG: #[[SCALED:.*]] = affine_map<(d0)[s0] -> (s0 * 1024 + 64)>
// CHECK-DAG: #[[BYSYM:.*]] = affine_map<(d0)[s0] -> ((d0 * s0) mod 8)>
// CHECK-DAG: #[[MOD4:.*]] = affine_map<(d0) -> ((d0 * 3) mod 4)>

gpu.module @kernels {
  // A stage, its release one behind, and an address that scales the
  // stage: two remainders, each from the loop's (dynamic) lower bound.
  // CHECK-LABEL: func.func @ring
  // CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[BUF:.*]]: memref<6xf32>)
  // CHECK: %[[S0:.*]] = affine.apply #[[MOD6]](%[[LB]])
  // CHECK: %[[R0:.*]] = affine.apply #[[NEXT6]](%[[LB]])
  // CHECK: scf.for %[[K:.*]] = %[[LB]] to %[[UB]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[S:.*]] = %[[S0]], %[[R:.*]] = %[[R0]]) -> (index, index, index)
  // CHECK: %[[STAGE:.*]] = affine.apply #[[USE]](%[[K]])[%[[S]]]
  // CHECK: %[[PREV:.*]] = affine.apply #[[USE]](%[[K]])[%[[R]]]
  // CHECK: affine.apply #[[SCALED]](%[[K]])[%[[S]]]
  // CHECK: %[[V:.*]] = memref.load %[[BUF]][%[[STAGE]]]
  // CHECK: memref.store %[[V]], %[[BUF]][%[[PREV]]]
  // CHECK: %[[SN:.*]] = arith.addi %[[S]], %[[ONE:.*]] : index
  // CHECK: %[[SIX:.*]] = arith.constant 6 : index
  // CHECK: %[[SW:.*]] = arith.cmpi uge, %[[SN]], %[[SIX]] : index
  // CHECK: %[[SL:.*]] = arith.subi %[[SN]], %[[SIX]] : index
  // CHECK: %[[SNEXT:.*]] = arith.select %[[SW]], %[[SL]], %[[SN]] : index
  // CHECK: scf.yield %{{.*}}, %[[SNEXT]], %{{.*}} : index, index, index
  func.func @ring(%lb: index, %ub: index, %buf: memref<6xf32>) -> index {
    %c1 = arith.constant 1 : index
    %last = scf.for %k = %lb to %ub step %c1 iter_args(%acc = %c1) -> (index) {
      %s = affine.apply affine_map<(d0) -> (d0 mod 6)>(%k)
      %r = affine.apply affine_map<(d0) -> ((d0 + 5) mod 6)>(%k)
      %a = affine.apply affine_map<(d0) -> ((d0 mod 6) * 1024 + 64)>(%k)
      %v = memref.load %buf[%s] : memref<6xf32>
      memref.store %v, %buf[%r] : memref<6xf32>
      scf.yield %a : index
    }
    return %last : index
  }

  // Step 2, dividend 3k: the remainder grows by 6 mod 4 = 2 a step.
  // CHECK-LABEL: func.func @stride
  // CHECK: affine.apply #[[MOD4]]
  // CHECK: scf.for {{.*}} iter_args(%[[Q:.*]] = {{.*}}) -> (index)
  // CHECK: arith.constant 2 : index
  // CHECK: arith.addi %[[Q]]
  func.func @stride(%ub: index, %buf: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %f = arith.constant 1.0 : f32
    scf.for %k = %c0 to %ub step %c2 {
      %s = affine.apply affine_map<(d0) -> ((d0 * 3) mod 4)>(%k)
      memref.store %f, %buf[%s] : memref<4xf32>
    }
    return
  }

  // Not carried: a dividend that grows by a value known only at run time.
  // CHECK-LABEL: func.func @runtime_growth
  // CHECK: scf.for
  // CHECK-NOT: iter_args
  // CHECK: affine.apply #[[BYSYM]]
  func.func @runtime_growth(%ub: index, %n: index, %buf: memref<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    scf.for %k = %c0 to %ub step %c1 {
      %s = affine.apply affine_map<(d0)[s0] -> ((d0 * s0) mod 8)>(%k)[%n]
      memref.store %f, %buf[%s] : memref<8xf32>
    }
    return
  }

  // Nested loops: the dividend reads the inner loop's IV, so the inner
  // loop carries (k + j) mod 4 from its start, k mod 4, which the outer
  // loop carries in turn.
  // CHECK-LABEL: func.func @nested
  // CHECK: %[[O0:.*]] = affine.apply #{{.*}}(%c0{{.*}}, %c0{{.*}})
  // CHECK: scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%[[OK:.*]] = %[[O0]]) -> (index)
  // CHECK: %[[I0:.*]] = affine.apply #{{.*}}(%[[K]], %{{.*}})[%[[OK]]]
  // CHECK: scf.for %[[J:[^ ]*]] = {{.*}} iter_args(%[[IJ:.*]] = %[[I0]]) -> (index)
  // CHECK: affine.apply #{{.*}}(%[[K]], %[[J]])[%[[IJ]]]
  func.func @nested(%ub: index, %buf: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f = arith.constant 1.0 : f32
    scf.for %k = %c0 to %ub step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %s = affine.apply affine_map<(d0, d1) -> ((d0 + d1) mod 4)>(%k, %j)
        memref.store %f, %buf[%s] : memref<4xf32>
      }
    }
    return
  }

  // Not carried: the dividend reads a value loaded in the body.
  // CHECK-LABEL: func.func @loaded
  // CHECK: scf.for
  // CHECK-NOT: iter_args
  // CHECK: affine.apply #{{.*}}(%{{.*}}, %{{.*}})
  func.func @loaded(%ub: index, %buf: memref<4xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %k = %c0 to %ub step %c1 {
      %x = memref.load %buf[%c0] : memref<4xindex>
      %s = affine.apply affine_map<(d0, d1) -> ((d0 + d1) mod 4)>(%k, %x)
      memref.store %k, %buf[%s] : memref<4xindex>
    }
    return
  }
}
