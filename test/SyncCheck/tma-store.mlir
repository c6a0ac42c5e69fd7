// A TMA store (gpuir.sm90a.tma_store) reads shared memory and writes global
// memory on tma_to_gmem_async, through the async proxy and out of order:
// the kernel of test/GPU/Inputs/tma_store_tiles.mlir passes, and each
// one-place mutation is rejected with its hazard.
// RUN: rake-opt %rake_src/test/GPU/Inputs/tma_store_tiles.mlir --rake-check > /dev/null

// A CTA barrier without the proxy fence: the store's async-proxy read of
// the tile is not ordered after the threads' generic-proxy writes.
// RUN: sed 's/gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy/gpuir.fence cuda_in_order -> cuda_in_order/' %rake_src/test/GPU/Inputs/tma_store_tiles.mlir > %t.proxy.mlir
// RUN: not rake-opt %t.proxy.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=PROXY
// PROXY: error: RAW hazard: thread 0 of task 0 read Cs[0:64, 0:32] on tma_to_gmem_async, written by thread 0 of task 0 on cuda_in_order_ram without synchronization that orders it before (at n = 3)
// PROXY: note: the earlier write of Cs[0, 0:16]
// PROXY: note: this synchronization orders the earlier write for thread 0 of task 0, but its second timeline leaves out tma_to_gmem_async: a write of the generic proxy is read through the async proxy only after a fence to it (gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy, which is fence.proxy.async)

// The store is committed but never waited for: the tile is freed at the
// task's end while the copy may still read it.
// RUN: grep -v "gpuir.await %%g" %rake_src/test/GPU/Inputs/tma_store_tiles.mlir > %t.wait.mlir
// RUN: not rake-opt %t.wait.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=WAIT
// WAIT: error: free without sync: Cs is freed while a read of Cs[0:64, 0:32] by thread 0 of task 0 on tma_to_gmem_async may still be unordered with the threads that free it (at n = 3)
// WAIT: note: the access
// WAIT: note: freed here, at the end of its scope

// Neither committed nor waited for: nothing ever captures the copy.
// RUN: grep -v "gpuir.await %%g" %rake_src/test/GPU/Inputs/tma_store_tiles.mlir | grep -v "gpuir.arrive tma_to_gmem_async" > %t.commit.mlir
// RUN: not rake-opt %t.commit.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=COMMIT
// COMMIT: error: free without arrive: Cs is freed while a read of Cs[0:64, 0:32] by thread 0 of task 0 on tma_to_gmem_async may still be in flight (nothing waits for it) (at n = 3)

// Waiting for all but the newest group, which is the store's own.
// RUN: sed 's/outstanding(0)/outstanding(1)/' %rake_src/test/GPU/Inputs/tma_store_tiles.mlir > %t.group.mlir
// RUN: not rake-opt %t.group.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: error: free without sync: Cs is freed while a read of Cs[0:64, 0:32] by thread 0 of task 0 on tma_to_gmem_async may still be unordered with the threads that free it (at n = 3)

// Two tasks storing into the same rows of C: the stores of different
// tasks are not ordered (a write-after-write on C).
// RUN: sed 's/%%C\[%%t \* 64 : %%t \* 64 + 64, 0 : 32\]/%%C[0 : 64, 0 : 32]/' %rake_src/test/GPU/Inputs/tma_store_tiles.mlir > %t.waw.mlir
// RUN: not rake-opt %t.waw.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=WAW
// WAW: error: WAW hazard: thread 0 of task 1 write C[0:64, 0:32] on tma_to_gmem_async, written by thread 0 of task 0 on tma_to_gmem_async without synchronization that orders it before (at n = 3)

// A store past the end of C (its rows are n * 64): out of bounds.
// RUN: sed 's/%%C\[%%t \* 64 : %%t \* 64 + 64, 0 : 32\]/%%C[%%t * 64 + 1 : %%t * 64 + 65, 0 : 32]/' %rake_src/test/GPU/Inputs/tma_store_tiles.mlir > %t.oob.mlir
// RUN: not rake-opt %t.oob.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=OOB
// OOB: error: out-of-bounds access: thread 0 of task 2 write C[129:193, 0:32], but index 192 of dimension 0 is outside its extent 192 (at n = 3)
