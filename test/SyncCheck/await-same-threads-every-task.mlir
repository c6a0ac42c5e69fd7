// Code generation initializes an mbarrier once per kernel, and each
// thread's phase parity carries over to the next task its CTA runs (tasks
// c, c + number of CTAs, ...). A warp that skips the phase of one task and
// awaits in a later one takes the earlier phase for its own and reads the
// buffer before the other warps wrote it. Here the awaiting warp is task
// mod 5: on the H200's 132 CTAs, CTA 0 runs task 0 (warp 0 awaits) and
// task 132 (warp 2, whose parity never moved, passes at once). Found by an
// adversarial review: the check judged each task alone. The threads that
// await an element must be the same in every task; the symmetry reduction
// sees the difference between classes and the full check names the tasks.
// RUN: not rake-opt %S/Inputs/rotating-awaiter.mlir --rake-check 2>&1 | FileCheck %s
// RUN: not rake-opt %S/Inputs/rotating-awaiter.mlir --rake-sync-check=symmetry=false 2>&1 | FileCheck %s
// CHECK: error: mbarrier awaited by different threads in different tasks: element 0 of bar completes phases in task 1 and is awaited there by threads 32..63, but in task 0 by threads 0..31; each thread's phase parity carries over to the CTA's next task (an mbarrier is initialized once per kernel), so a thread that skips an element's phases in one task takes them for its own in a later one: await each element with the same threads in every task (at n = 7)

// The same warp in every task passes.
// RUN: sed 's/gpuir.if %%w == %%task mod 5 {/gpuir.if %%w == 2 {/' %S/Inputs/rotating-awaiter.mlir | rake-opt --rake-check > /dev/null
