// RUN: rake-opt %s -split-input-file --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s

// The first example: a persistent loop over the tasks, one shared buffer (a
// view of the dynamic shared memory, whose size the kernel records for the
// launch), bar.sync where the CTA fence stands and at the end of each task
// (the next task of the CTA reuses the buffer).
// CHECK-LABEL: gpu.module @reverse_tiles_device
// CHECK: gpu.func @reverse_tiles(%[[N:.*]]: index, %[[A:.*]]: memref<?xf32>, %[[B:.*]]: memref<?xf32>)
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 256, 1, 1>, rake.abi = {block = 256 : i64, blocks_per_sm = 2 : i64, cluster = 1 : i64, dynamic_shared_bytes = 1024 : i64, roles = ["arg0.index", "arg1.allocated", "arg1.aligned", "arg1.offset", "arg1.size0", "arg1.stride0", "arg2.allocated", "arg2.aligned", "arg2.offset", "arg2.size0", "arg2.stride0"], shared_alignment = 128 : i64, tensor_maps = []}, rake.blocks_per_sm = 2 : i64, rake.shared_bytes = 1024 : i64}
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[TILE:.*]] = memref.view %[[SMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[TASKS:.*]] = affine.apply #{{.*}}()[%[[N]]]
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[GRID:.*]] = gpu.grid_dim x
// CHECK: scf.for %[[TASK:.*]] = %[[BID]] to %{{.*}} step %[[GRID]] {
// CHECK: scf.if
// CHECK: memref.load %[[A]]
// CHECK: memref.store %{{.*}}, %[[TILE]]
// CHECK: nvvm.barrier{{$}}
// CHECK: scf.if
// CHECK: memref.load %[[TILE]]
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK: nvvm.barrier{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
gpuir.proc @reverse_tiles(%n: index, %A: memref<?xf32, #gpuir.gmem>, %B: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function blocks_per_sm(2) block(256) {
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

// A 2-D task nest is walked in lexicographic order (n fastest); warps and
// lanes are index functions of the thread index under guards; a fence over
// a warp is bar.warp.sync; a reduction is a load, an add and a store; a
// register buffer is an alloca at the kernel's entry (where LLVM promotes
// it to registers).
// CHECK-LABEL: gpu.func @warps(
// CHECK-DAG: memref.alloca() : memref<1xf32>
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// More than 2^32 - 1 tasks trap; the split into loop indices is 32-bit.
// CHECK: arith.cmpi ugt, %{{.*}}, %c4294967295 : index
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: llvm.intr.trap
// CHECK: scf.for %[[LIN:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[LIN32:.*]] = arith.index_cast %[[LIN]] : index to i32
// CHECK: %[[NI32:.*]] = arith.remui %[[LIN32]], %{{.*}} : i32
// CHECK: %[[NI:.*]] = arith.index_castui %[[NI32]] : i32 to index
// CHECK: %[[REST:.*]] = arith.divui %[[LIN32]], %{{.*}} : i32
// CHECK: %[[MI32:.*]] = arith.remui %[[REST]], %{{.*}} : i32
// CHECK: %[[MI:.*]] = arith.index_castui %[[MI32]] : i32 to index
// CHECK: %[[T:.*]] = affine.apply #{{.*}}()[%[[TID]]]
// CHECK: %[[WARP:.*]] = arith.floordivsi %[[T]], %[[C32]] : index
// CHECK: scf.if
// CHECK: %[[LANE:.*]] = arith.subi %[[T]], %{{.*}} : index
// CHECK: scf.if
// CHECK: %[[V:.*]] = memref.load %{{.*}}[%[[MI]], %{{.*}}] : memref<?x?xf32>
// CHECK: memref.store %[[V]], %{{.*}}[%[[WARP]], %[[LANE]]] : memref<2x32xf32, #gpu.address_space<workgroup>>
// CHECK: nvvm.bar.warp.sync %{{.*}} : i32
// CHECK: scf.if
// CHECK: scf.for
// CHECK: %[[X:.*]] = memref.load %{{.*}} : memref<2x32xf32, #gpu.address_space<workgroup>>
// CHECK: %[[OLD:.*]] = memref.load %{{.*}} : memref<1xf32>
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[X]] : f32
// CHECK: memref.store %[[NEW]], %{{.*}} : memref<1xf32>
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<?x?xf32>
// CHECK: nvvm.barrier{{$}}
gpuir.proc @warps(%M: index, %N: index, %X: memref<?x?xf32, #gpuir.gmem>, %Y: memref<?x?xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to %M : cuda_tasks {
      gpuir.for %n = 0 to %N : cuda_tasks {
        %stage = gpuir.alloc : memref<2x32xf32, #gpuir.smem>
        gpuir.for %w = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
          gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            %v = gpuir.read %X[%m, %n * 64 + %w * 32 + %l] : memref<?x?xf32, #gpuir.gmem>
            gpuir.write %v, %stage[%w, %l] : memref<2x32xf32, #gpuir.smem>
          }
          gpuir.fence cuda_in_order -> cuda_in_order
          gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
            %sum = gpuir.alloc : memref<1xf32, #gpuir.rmem>
            %zero = arith.constant 0.0 : f32
            gpuir.write %zero, %sum[0] : memref<1xf32, #gpuir.rmem>
            gpuir.for %j = 0 to 32 : seq {
              %x = gpuir.read %stage[%w, %j] : memref<2x32xf32, #gpuir.smem>
              gpuir.reduce %x, %sum[0] : memref<1xf32, #gpuir.rmem>
            }
            %s = gpuir.read %sum[0] : memref<1xf32, #gpuir.rmem>
            gpuir.write %s, %Y[%m, %n * 2 + %w] : memref<?x?xf32, #gpuir.gmem>
          }
        }
      }
    }
  }
}

// -----

// A register buffer of one thread is private memory; without shared memory
// a task needs no barrier at its end.
// CHECK-LABEL: gpu.func @one_thread
// CHECK: memref.alloca() : memref<4xf32>
// CHECK-NOT: nvvm.barrier{{$}}
// CHECK: gpu.return
gpuir.proc @one_thread(%n: index, %X: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %r = gpuir.alloc : memref<4xf32, #gpuir.rmem>
        gpuir.for %i = 0 to 4 : seq {
          %v = gpuir.read %X[%task * 4 + %i] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %r[3 - %i] : memref<4xf32, #gpuir.rmem>
        }
        gpuir.for %i = 0 to 4 : seq {
          %v = gpuir.read %r[%i] : memref<4xf32, #gpuir.rmem>
          gpuir.write %v, %X[%task * 4 + %i] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// A fence over a warpgroup is a named barrier: id 1 + tid / 128 for 128
// threads, so the two warpgroups never wait for each other.
// CHECK-LABEL: gpu.func @warpgroups(
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[N128:.*]] = arith.constant 128 : i32
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// CHECK: memref.store
// CHECK: %[[G:.*]] = arith.divui %[[TID]], %[[C128]] : index
// CHECK: %[[ID:.*]] = arith.addi %[[G]], %{{.*}} : index
// CHECK: %[[ID32:.*]] = arith.index_cast %[[ID]] : index to i32
// CHECK: nvvm.barrier id = %[[ID32]] number_of_threads = %[[N128]]
// CHECK: memref.load
gpuir.proc @warpgroups(%n: index, %X: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %g = 0 to 2 : cuda_threads<#gpuir.unit<warpgroup>> {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %X[%task * 256 + %g * 128 + %t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %s[%g * 128 + %t] : memref<256xf32, #gpuir.smem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %s[%g * 128 + 127 - %t] : memref<256xf32, #gpuir.smem>
          gpuir.write %v, %X[%task * 256 + %g * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// Shared buffers of disjoint lifetimes share space: the two loop bodies'
// buffers (256 and 1024 bytes) both start after the task's own 128 bytes,
// 128-byte aligned; the kernel needs 128 + 1024 bytes.
// CHECK-LABEL: gpu.func @stacked(
// CHECK-SAME: rake.shared_bytes = 1152 : i64
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[SMEM:.*]] = gpu.dynamic_shared_memory
// CHECK-DAG: memref.view %[[SMEM]][%[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[SMEM]][%[[C128]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[SMEM]][%[[C128]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
gpuir.proc @stacked(%n: index, %A: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %small = gpuir.alloc : memref<3xf32, #gpuir.smem>
      gpuir.for %t = 0 to 3 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%t] : memref<?xf32, #gpuir.gmem>
        gpuir.write %v, %small[%t] : memref<3xf32, #gpuir.smem>
      }
      gpuir.for %i = 0 to 2 : seq {
        %a = gpuir.alloc : memref<64xf32, #gpuir.smem>
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %a[%t] : memref<64xf32, #gpuir.smem>
        }
      }
      gpuir.for %i = 0 to 2 : seq {
        %b = gpuir.alloc : memref<256xf32, #gpuir.smem>
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %b[%t] : memref<256xf32, #gpuir.smem>
        }
      }
    }
  }
}

// -----

// Warp specialization: one path per warp group, taken by its warps (threads
// [0, 128) and [128, 256)), starting with its setmaxnreg; each path has the
// task loop with its own group's region only. A warps region's threads are
// numbered from the group's first thread.
// CHECK-LABEL: gpu.func @specialized(
// CHECK-SAME: nvvm.minctasm = 1 : i32
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK: scf.for
// CHECK-NOT: memref.store {{.*}}, %arg2
// CHECK: memref.store {{.*}}, %arg1[
// CHECK-NOT: memref.store {{.*}}, %arg2
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK: scf.for
// CHECK-NOT: memref.store {{.*}}, %arg1
// CHECK: %[[REL:.*]] = arith.subi %{{.*}}, %c128 : index
// CHECK: memref.store {{.*}}, %arg2[%{{.*}}, %[[REL]]]
// CHECK-NOT: memref.store {{.*}}, %arg1
// CHECK: gpu.return
gpuir.proc @specialized(%n: index, %X: memref<?x128xf32, #gpuir.gmem>, %Y: memref<?x128xf32, #gpuir.gmem>) {
  gpuir.device_function warps(a = 4 dec(40), b = 4 inc(232)) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.warps "a" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 1.0 : f32
          gpuir.write %z, %X[%task, %t] : memref<?x128xf32, #gpuir.gmem>
        }
      }
      gpuir.warps "b" {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 2.0 : f32
          gpuir.write %z, %Y[%task, %t] : memref<?x128xf32, #gpuir.gmem>
        }
      }
    }
  }
}

// -----

// Clusters: launched in clusters of 2 CTAs (known_cluster_size, i.e.
// .reqnctapercluster); cluster c runs tasks c, c + clusters, ...; a
// thread's index in the cluster is its CTA rank times the block plus its
// index in the CTA; a buffer shared out over the cluster's CTAs is each
// CTA's row (the view has the row's shape); a fence over the cluster is
// barrier.cluster arrive and wait; a cluster_sync split barrier is the same
// pair, apart.
// CHECK-LABEL: gpu.func @clustered(
// CHECK-SAME: known_cluster_size = array<i32: 2, 1, 1>
// CHECK-SAME: rake.cluster = 2 : i64
// CHECK-SAME: rake.shared_bytes = 512 : i64
// CHECK-DAG: %[[VIEW:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// CHECK-DAG: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[RANKI:.*]] = arith.index_cast %[[RANK]] : i32 to index
// CHECK: %[[BASE:.*]] = arith.muli %[[RANKI]], %c128 : index
// CHECK: %[[LIN:.*]] = arith.addi %[[BASE]], %[[TID]] : index
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[GRID:.*]] = gpu.grid_dim x
// CHECK-DAG: %[[FIRST:.*]] = arith.divui %[[BID]], %c2 : index
// CHECK-DAG: %[[STEP:.*]] = arith.divui %[[GRID]], %c2 : index
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %{{.*}} step %[[STEP]]
// The CTA coordinate, then the thread coordinate, each from its own
// dimension (the thread loop's box starts at 0 in its dimension, whatever
// the CTA).
// CHECK: %[[CTA:.*]] = affine.apply #{{.*}}()[%[[LIN]]]
// CHECK: scf.if
// CHECK: %[[T:.*]] = affine.apply #{{.*}}()[%[[LIN]]]
// CHECK-NOT: arith.subi
// CHECK: memref.load %arg1[%{{.*}}, %[[CTA]], %[[T]]]
// CHECK-NEXT: memref.store %{{.*}}, %[[VIEW]][%[[T]]]
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NOT: nvvm.cluster.wait
// CHECK: memref.store
// CHECK: nvvm.cluster.wait {aligned}
gpuir.proc @clustered(%n: index, %X: memref<?x2x128xf32, #gpuir.gmem>) {
  gpuir.device_function cluster(2) block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %s = gpuir.alloc : memref<2x128xf32, #gpuir.smem>
      %cs = gpuir.alloc : !gpuir.barrier<cluster_sync>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %x = gpuir.read %X[%task, %c, %t] : memref<?x2x128xf32, #gpuir.gmem>
          gpuir.write %x, %s[%c, %t] : memref<2x128xf32, #gpuir.smem>
        }
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>
      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %s[%c, %t] : memref<2x128xf32, #gpuir.smem>
          gpuir.write %v, %X[%task, %c, %t] : memref<?x2x128xf32, #gpuir.gmem>
        }
      }
      gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>
    }
  }
}
