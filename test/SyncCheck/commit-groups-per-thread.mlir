// Commit groups belong to threads: `cp.async.bulk.wait_group n` (and
// wait_group.read, cp.async.wait_group) completes the groups of the thread
// that runs it but its own newest n. Threads 0 and 32 each commit one TMA
// store; an await by all 64 threads with outstanding(1) then waits for
// neither (each thread's only group is its newest), so rewriting the first
// staging buffer is a WAR with thread 0's store. (Found by an adversarial
// review: the check counted the groups of all the awaiting threads
// together.) With outstanding(0) both groups are done.
// RUN: not rake-opt %S/Inputs/two-committers.mlir --rake-check 2>&1 | FileCheck %s
// CHECK: error: WAR hazard: thread 0 of task 0 write Cs[0, 0, 0] on cuda_in_order_ram, read by thread 0 of task 0 on tma_to_gmem_async without synchronization that orders it before (at n = 3)
// RUN: sed 's/outstanding(1), read/outstanding(0), read/' %S/Inputs/two-committers.mlir | rake-opt --rake-check > /dev/null

// A thread that committed two groups (thread 0 stores both halves): its
// outstanding(1) completes the first, and rewriting the first buffer is
// ordered.
// RUN: sed 's/gpuir.if %%w == 1 {/gpuir.if %%w == 0 {/' %S/Inputs/two-committers.mlir | rake-opt --rake-check > /dev/null
