// Code generation keeps one phase parity bit per thread and mbarrier
// element and flips it at each await, so a thread's awaits of an element
// count together whatever collective makes them. Awaiting an element as
// the whole CTA and then again thread by thread makes each thread wait for
// the next phase, whose arrivals come after it: a hang (found by an
// adversarial review: the check counted the awaits per collective and
// accepted it). Each element must be awaited from one collective.
// RUN: not rake-opt %S/Inputs/two-awaiting-collectives.mlir --rake-check 2>&1 | FileCheck %s
// CHECK: error: await from two collectives: thread 0 of task 0 await bar[0], which threads 0..127 of task 0 awaited before; each thread keeps one phase parity per mbarrier element and advances it at every await, so the phases these awaits wait for are not the ones the check would count (a hang or a stale phase): await each element from one collective (at n = 3)

// The same in the flagship kernel: a consumer thread awaiting its stage again
// after its warpgroup did.
// RUN: sed 's/^\( *\)gpuir.await %%full\[%%k mod 4\], wgmma_async : !gpuir.barrier<mbarrier \[4\]>$/&\n\1gpuir.for %%tt = 0 to 128 : cuda_threads<#gpuir.unit<thread>> { gpuir.await %%full[%%k mod 4], cuda_in_order : !gpuir.barrier<mbarrier [4]> }/' %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir > %t.mlir
// RUN: not rake-opt %t.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=GEMM
// GEMM: error: await from two collectives: thread 128 of task 0 await full[0], which threads 128..255 of task 0 awaited before
