// The GEMMs whose epilogue stores C through shared memory with TMA
// (bench/gemm/*s_bf16.mlir: make_gemm.py --store tma) pass the check as
// written; each one-place mutation of the epilogue below is rejected with
// its hazard, naming both accesses and the size set.
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir --rake-check > /dev/null
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x256_t2g4s_bf16.mlir --rake-check > /dev/null
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x128s_bf16.mlir --rake-check > /dev/null

// The fence before the store orders the staging writes for in-order
// accesses only (a barrier without fence.proxy.async): the store reads
// them through the async proxy.
// RUN: sed 's/gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy/gpuir.fence cuda_in_order -> cuda_in_order/' %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir > %t.proxy.mlir
// RUN: not rake-opt %t.proxy.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=PROXY
// PROXY: error: RAW hazard: thread 128 of task 0 read Cs[0, 0, 0, 0:64, 0:16] on tma_to_gmem_async, written by thread 128 of task 0 on cuda_in_order_ram without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)
// PROXY: note: this synchronization orders the earlier write for thread 128 of task 0, but its second timeline leaves out tma_to_gmem_async: a write of the generic proxy is read through the async proxy only after a fence to it (gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy, which is fence.proxy.async)

// No fence at all before the store.
// RUN: grep -v "gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy" %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir > %t.nofence.mlir
// RUN: not rake-opt %t.nofence.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=NOFENCE
// NOFENCE: error: RAW hazard: thread 128 of task 0 read Cs[0, 0, 0, 0:64, 0:16] on tma_to_gmem_async, written by thread 128 of task 0 on cuda_in_order_ram without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// A staging buffer written again before the store of its quarter before
// last is done: the wait for the bulk group is missing.
// RUN: grep -v "gpuir.await %%st, cuda_in_order, outstanding(1)" %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir > %t.wait.mlir
// RUN: not rake-opt %t.wait.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=WAIT
// WAIT: error: WAR hazard: thread 128 of task 0 write Cs[0, 0, 0, 0, 0] on cuda_in_order_ram, read by thread 128 of task 0 on tma_to_gmem_async without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// Waiting for all but the newest two groups: the group of the quarter
// before last may still read the buffer.
// RUN: sed 's/gpuir.await %%st, cuda_in_order, outstanding(1)/gpuir.await %%st, cuda_in_order, outstanding(2)/' %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir > %t.group.mlir
// RUN: not rake-opt %t.group.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: error: WAR hazard: thread 128 of task 0 write Cs[0, 0, 0, 0, 0] on cuda_in_order_ram, read by thread 128 of task 0 on tma_to_gmem_async without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// The stores never committed: no wait covers them.
// RUN: grep -v "gpuir.arrive tma_to_gmem_async >> %%st" %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir > %t.commit.mlir
// RUN: not rake-opt %t.commit.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=COMMIT
// COMMIT: error: WAR hazard: thread 128 of task 0 write Cs[0, 0, 0, 0, 0] on cuda_in_order_ram, read by thread 128 of task 0 on tma_to_gmem_async without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// Only the storing thread waits: the warpgroup's other threads write the
// buffer without the barrier after its wait.
// RUN: awk '/gpuir.if %%q >= 2/{f=1} f&&/gpuir.fence cuda_in_order -> cuda_in_order/{f=0; next} {print}' %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir > %t.bar.mlir
// RUN: not rake-opt %t.bar.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=BAR
// BAR: error: WAR hazard: thread 129 of task 0 write Cs[0, 0, 0, 0, 2] on cuda_in_order_ram, read by thread 128 of task 0 on tma_to_gmem_async without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// No wait for the last groups before the task ends: the staging buffers are
// freed (and the next task writes them) while a store may read them.
// RUN: grep -v "gpuir.await %%st, cuda_in_order, outstanding(0)" %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir > %t.final.mlir
// RUN: not rake-opt %t.final.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=FINAL
// FINAL: error: free without sync: Cs is freed while a read of Cs[0, 0, 0, 0:64, 0:16] by thread 128 of task 0 on tma_to_gmem_async may still be unordered with the threads that free it (at Mg = 1, Nt = 2, Kt = 7)

// With several tiles a task, the barrier after the last wait of a tile
// orders the next tile's staging writes: without it they race.
// RUN: awk '/The next tile.s stores write the buffers again/{f=1} f&&/gpuir.fence cuda_in_order -> cuda_in_order/{f=0; next} {print}' %rake_src/bench/gemm/gemm_128x256_t2g4s_bf16.mlir > %t.tiles.mlir
// RUN: not rake-opt %t.tiles.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=TILES
// TILES: error: WAR hazard: thread 129 of task 0 write Cs[0, 0, 0, 0, 2] on cuda_in_order_ram, read by thread 128 of task 0 on tma_to_gmem_async without synchronization that orders it before (at Mg = 1, Nt = 2, Kt = 7)

// Split K (bench/gemm/gemm_128x256_k2m2_f32.mlir) passes; run split but
// writing one plane (the partial sums of both splits into the same C
// rows), it is the authors' first GEMM mutation: a write-after-write
// between the tasks of the two splits.
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x256_k2m2_f32.mlir --rake-check > /dev/null
// RUN: sed '/%%cg = gpuir.window %%C/s/%%ks \* 256 + //g' %rake_src/bench/gemm/gemm_128x256_k2m2_f32.mlir > %t.split.mlir
// RUN: not rake-opt %t.split.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=SPLITK
// (The stores' waits take only their reads, so the finished task's writes of
// C are still unordered and kept as one tile of both consumers' stores.)
// SPLITK: error: WAW hazard: thread 128 of task 4 write C[0:64, 0:8] on tma_to_gmem_async, written by threads 128..256 of task 0 on tma_to_gmem_async without synchronization that orders it before (at Nt = 2, Kt = 3)
// SPLITK: note: the earlier write of C[0:128, 0:256]
