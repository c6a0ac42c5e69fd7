// Code generation initializes an mbarrier once per kernel and its phases
// carry over to the next task its CTA runs. The check orders a task's last
// await of an element before the threads that arrive on it in that task,
// taking them for the next task's arrivers; where another task's arrivers
// differ, they may complete two phases first. Here the first 100 tasks
// arrive on each CTA's element from that CTA and the rest from CTA 1 for
// both: CTA 1 runs ahead past the mid-task cluster barrier of task t into
// task t + (number of clusters), arrives remotely on CTA 0's element, and
// CTA 0's pending wait of task t sees the parity it waits for again and
// spins forever (an adversarial review found this accepted; it hung on an
// H100). The threads that arrive on an element must be the same in every
// task; the symmetry reduction sees the classes differ and the full check
// names the tasks.
// RUN: not rake-opt %S/Inputs/switching-arriver.mlir --rake-check 2>&1 | FileCheck %s
// RUN: not rake-opt %S/Inputs/switching-arriver.mlir --rake-sync-check=symmetry=false 2>&1 | FileCheck %s
// CHECK: error: mbarrier arrived on by different threads in different tasks: element 0 of bar completes phases in task 100 with arrivals from threads 32..63, but in task 0 from threads 0..31; its phases carry over to the CTA's next task (an mbarrier is initialized once per kernel), and a task's last awaits are ordered only before the threads that arrive in it, so another task's arrivals could complete two phases before such an await: arrive on each element with the same threads in every task (at n = 200)

// Every task of one kind passes: the first 100 alone, the rest alone.
// RUN: rake-opt %S/Inputs/switching-arriver.mlir --rake-sync-check="sizes=n=100" > /dev/null
// RUN: sed 's/gpuir.if %%task < 100 {/gpuir.if %%task < 0 {/' %S/Inputs/switching-arriver.mlir | rake-opt --rake-check > /dev/null
