// RUN: rake-opt %s -split-input-file --convert-gpuir-to-cpu | FileCheck %s
// RUN: rake-opt %s -split-input-file --convert-gpuir-to-cpu --lower-affine --convert-scf-to-cf --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// The sequential meaning of GpuIR: loops of every mode run in order,
// parallelism and synchronization vanish, accesses are loads and stores.
// It lowers on to LLVM with the upstream passes.

// LLVM-LABEL: llvm.func @reverse_tiles
// CHECK-LABEL: func.func @reverse_tiles(
// CHECK-SAME: %{{.*}}: index, %[[A:.*]]: memref<?xf32>, %[[B:.*]]: memref<?xf32>)
// CHECK: %[[LB:.*]] = affine.apply #{{.*}}()
// CHECK: %[[UB:.*]] = affine.apply #{{.*}}(%{{.*}})
// CHECK: scf.for %[[TASK:.*]] = %[[LB]] to %[[UB]] step %{{.*}} {
// CHECK: %[[TILE:.*]] = memref.alloc() : memref<256xf32>
// CHECK: scf.for %[[T:.*]] =
// CHECK: %[[I:.*]] = affine.apply #{{.*}}(%[[TASK]], %[[T]])
// CHECK: %[[V:.*]] = memref.load %[[A]][%[[I]]] : memref<?xf32>
// CHECK: memref.store %[[V]], %[[TILE]][%{{.*}}] : memref<256xf32>
// The fence does nothing.
// CHECK-NOT: gpuir.fence
// CHECK: scf.for
// CHECK: memref.load %[[TILE]]
// CHECK: memref.store %{{.*}}, %[[B]]
// The tile is freed at the end of the task's block.
// CHECK: memref.dealloc %[[TILE]] : memref<256xf32>
// CHECK: return
gpuir.proc @reverse_tiles(%n: index, %A: memref<?xf32, #gpuir.gmem>, %B: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n ceildiv 256 : cuda_tasks {
      %tile = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
        gpuir.write %v, %tile[%t] : memref<256xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tile[255 - %t] : memref<256xf32, #gpuir.smem>
        gpuir.write %v, %B[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// Warps regions run once; a reduction is a load, an add and a store; an if
// with an else is an scf.if; barriers and their synchronization vanish;
// windows are subviews (cast to the declared layout when it is more dynamic).
// LLVM-LABEL: llvm.func @pieces
// CHECK-LABEL: func.func @pieces(
// CHECK-SAME: %{{.*}}: index, %[[X:.*]]: memref<8x4xi32>)
// CHECK-NOT: barrier
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<4xi32>
// CHECK: %[[W:.*]] = memref.subview %[[X]][%{{.*}}, %{{.*}}] [1, 4] [1, 1] : memref<8x4xi32> to memref<4xi32, strided<[1], offset: ?>>
// CHECK: scf.for %[[J:.*]] =
// CHECK: %[[CMP:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[CMP]] {
// CHECK: %[[V:.*]] = memref.load %[[W]]
// CHECK: %[[OLD:.*]] = memref.load %[[ACC]]
// CHECK: %[[SUM:.*]] = arith.addi %[[OLD]], %[[V]] : i32
// CHECK: memref.store %[[SUM]], %[[ACC]]
// CHECK: } else {
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: memref.dealloc %[[ACC]]
gpuir.proc @pieces(%n: index, %X: memref<8x4xi32, #gpuir.gmem>) {
  gpuir.device_function warps(a = 1, b = 1) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %acc = gpuir.alloc : memref<4xi32, #gpuir.smem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier>
      gpuir.warps "a" {
        %w = gpuir.window %X[%task mod 8, 0 : 4] : memref<8x4xi32, #gpuir.gmem> -> memref<4xi32, strided<[1], offset: ?>, #gpuir.gmem>
        gpuir.for %j = 0 to 4 : seq {
          gpuir.if %j < 2 {
            %v = gpuir.read %w[%j] : memref<4xi32, strided<[1], offset: ?>, #gpuir.gmem>
            gpuir.reduce %v, %acc[%j] : memref<4xi32, #gpuir.smem>
          } else {
            %u = gpuir.read %w[%j] : memref<4xi32, strided<[1], offset: ?>, #gpuir.gmem>
            gpuir.write %u, %acc[%j] : memref<4xi32, #gpuir.smem>
          }
        }
        gpuir.arrive cuda_in_order >> %bar : !gpuir.barrier<mbarrier>
      }
      gpuir.warps "b" {
        gpuir.await %bar, cuda_in_order : !gpuir.barrier<mbarrier>
      }
    }
  }
}

// -----

// Procedures call procedures; host memory is plain memory.
// CHECK-LABEL: func.func @callee(%{{.*}}: memref<4xf32>)
// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[H:.*]]: memref<4xf32>)
// CHECK: call @callee(%[[H]]) : (memref<4xf32>) -> ()
gpuir.proc @callee(%h: memref<4xf32, #gpuir.host>) {
  %v = gpuir.read %h[0] : memref<4xf32, #gpuir.host>
  %two = arith.addf %v, %v : f32
  gpuir.write %two, %h[1] : memref<4xf32, #gpuir.host>
}
gpuir.proc @caller(%h: memref<4xf32, #gpuir.host>) {
  gpuir.call @callee(%h) : (memref<4xf32, #gpuir.host>) -> ()
}
