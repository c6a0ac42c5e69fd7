// `gpuir.await ..., read` on a TMA store group (cp.async.bulk.wait_group.read)
// waits only until the stores have read their shared-memory sources: the
// source may then be rewritten or freed, but the stores' global writes are
// still in flight, ordered only by a later full wait or by the kernel's
// completion.

// Waiting for the reads before the tile is freed at the task's end is enough:
// nothing in the kernel touches C after the store.
// RUN: sed 's/outstanding(0) :/outstanding(0), read :/' %rake_src/test/GPU/Inputs/tma_store_tiles.mlir > %t.read.mlir
// RUN: rake-opt %t.read.mlir --rake-check > /dev/null
// RUN: rake-opt %t.read.mlir --convert-gpuir-to-amir | FileCheck %s --check-prefix=AMIR
// AMIR: amir.await %{{.*}} full({{.*}}cuda_in_order_ram) temporal({{.*}}) outstanding(0) read : !amir.barrier<tma_store_group>

// The thread that stored the tile reads C back after waiting for the reads
// only: the store's write of C is not ordered before the read.
// RUN: sed 's/outstanding(0) :/outstanding(0), read :/; s/^\( *\)gpuir.await %%g.*$/&\n\1%%back = gpuir.read %%C[%%t * 64, 0] : memref<?x?xf32, #gpuir.gmem>/' %rake_src/test/GPU/Inputs/tma_store_tiles.mlir > %t.raw.mlir
// RUN: not rake-opt %t.raw.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=RAW
// RAW: error: RAW hazard: thread 0 of task 0 read C[0, 0] on cuda_in_order_ram, written by thread 0 of task 0 on tma_to_gmem_async without synchronization that orders it before (at n = 3)
// RAW: note: the earlier write of C[0:64, 0:32]

// The same read after a full wait is ordered.
// RUN: sed 's/^\( *\)gpuir.await %%g.*$/&\n\1%%back = gpuir.read %%C[%%t * 64, 0] : memref<?x?xf32, #gpuir.gmem>/' %rake_src/test/GPU/Inputs/tma_store_tiles.mlir > %t.full.mlir
// RUN: rake-opt %t.full.mlir --rake-check > /dev/null

// A read wait that leaves the store's own group outstanding: the tile is
// freed while the store may still read it.
// RUN: sed 's/outstanding(0) :/outstanding(1), read :/' %rake_src/test/GPU/Inputs/tma_store_tiles.mlir > %t.group.mlir
// RUN: not rake-opt %t.group.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: error: free without sync: Cs is freed while a read of Cs[0:64, 0:32] by thread 0 of task 0 on tma_to_gmem_async may still be unordered with the threads that free it (at n = 3)

// Code generation: cp.async.bulk.wait_group.read.
// RUN: rake-opt %t.read.mlir --convert-gpuir-to-nvvm | FileCheck %s --check-prefix=NVVM
// NVVM: nvvm.cp.async.bulk.wait_group 0 {read}
