// Every cluster_sync variable is lowered to the CTA's one hardware cluster
// barrier (barrier.cluster.arrive / wait). Arriving on %a and then on %b
// before awaiting %a makes each thread arrive twice before its first wait,
// so CTA 1's two arrivals may complete the phase before CTA 0 arrived and
// CTA 1 reads Y before CTA 0 wrote it (found by an adversarial review: the
// check took %a and %b for two barriers).
// RUN: not rake-opt %S/Inputs/two-cluster-barriers.mlir --rake-check 2>&1 | FileCheck %s
// CHECK: error: two cluster barriers interleaved: threads 0..127 of task 0 arrive on b while threads 0..127 of task 0 arrived on a and did not await it yet; each CTA has one hardware cluster barrier (barrier.cluster), which every cluster_sync variable uses, so this arrive may complete the phase of a early (a race or a hang): await a before arriving on another cluster barrier (at n = 4)

// One after the other (arrive a, await a, arrive b, await b) is fine.
// RUN: awk '/gpuir.arrive cuda_in_order >> %%b/{held=$0; next} {print} /gpuir.await %%a,/{print held}' %S/Inputs/two-cluster-barriers.mlir > %t.seq.mlir
// RUN: rake-opt %t.seq.mlir --rake-check > /dev/null

// A fence of the whole cluster is that barrier too (arrive and wait): put
// between the arrive on %a and its await, each thread arrives twice before
// waiting (found by a later adversarial review).
// RUN: sed 's/gpuir.arrive cuda_in_order >> %%b : !gpuir.barrier<cluster_sync>/gpuir.fence cuda_in_order -> cuda_in_order/; /gpuir.await %%b,/d' %S/Inputs/two-cluster-barriers.mlir > %t.fence.mlir
// RUN: not rake-opt %t.fence.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=FENCE
// FENCE: error: a fence of the whole cluster between an arrive on a and its await: threads 0..127 of task 0 arrived on a and did not await it yet; the fence is the CTA's one hardware cluster barrier (barrier.cluster.arrive and wait), which every cluster_sync variable uses, so its arrive may complete the phase of a early (a race or a hang): await a before the fence (at n = 4)

// An arrive never awaited before its variable is freed: the CTA's next
// arrive on its one hardware cluster barrier (the next task's, or another
// variable's) would be the threads' second before a wait. (Found by an
// adversarial review, which saw it reported as a "free without sync" of an
// mbarrier: test/SyncCheck/gemm-cluster-mutations.mlir.)
// RUN: sed '/gpuir.await %%b,/d' %t.seq.mlir > %t.noawait.mlir
// RUN: not rake-opt %t.noawait.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=NOAWAIT
// NOAWAIT: error: cluster barrier arrive without await: threads 0..127 of task 0 arrived on b and did not await it before b is freed; each CTA has one hardware cluster barrier (barrier.cluster), which every cluster_sync variable and the CTA's next task use, so the threads' next arrive on it would be their second before a wait (a race or a hang): await b before it is freed (at n = 4)
// NOAWAIT-NEXT: %b = gpuir.alloc : !gpuir.barrier<cluster_sync>
// NOAWAIT: note: the arrive
// NOAWAIT-NEXT: gpuir.arrive cuda_in_order >> %b
// NOAWAIT: note: freed here, at the end of its scope

// The same cluster barrier arrived on twice before its await (found by an
// adversarial review): the second arrive may count toward the phase the
// threads already arrived on. (Twice in a loop, the phase rules report it:
// mbarrier-phases.mlir, @cluster_arrive_twice.)
// RUN: sed 's/gpuir.arrive cuda_in_order >> %%b/gpuir.arrive cuda_in_order >> %%a/; /gpuir.await %%b,/d' %S/Inputs/two-cluster-barriers.mlir > %t.twice.mlir
// RUN: not rake-opt %t.twice.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: cluster barrier arrived on twice: threads 0..127 of task 0 arrive on a while threads 0..127 of task 0 arrived on it and did not await it yet; the CTA's hardware cluster barrier (barrier.cluster) takes one arrive a thread before its wait, so this arrive may complete the phase early (a race or a hang): await a between the two arrives (at n = 4)
// TWICE-NEXT: gpuir.arrive cuda_in_order >> %a
// TWICE: note: the first arrive
// TWICE-NEXT: gpuir.arrive cuda_in_order >> %a
