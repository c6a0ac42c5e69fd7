// The cluster GEMM with TMA multicast (bench/gemm/gemm_128x256_g4c2_bf16,
// written by make_gemm.py --cluster 2) passes the check; each mutation of
// its cross-CTA synchronization is rejected, naming both accesses.
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x256_g4c2_bf16.mlir --rake-check > /dev/null

// Without the cluster barrier after the epilogue, a CTA's stages and
// mbarriers end with the task while the other CTA's consumers may still
// release a stage in it (a remote arrive on its empty mbarrier), its
// producer multicast into them and its consumers read. The first found is
// the remote arrive (before 2026-12-07 the check did not count an arrive as
// an access of the barrier's shared memory, and named the read of Bs).
// RUN: grep -v "%%cs" %rake_src/bench/gemm/gemm_128x256_g4c2_bf16.mlir > %t.cluster.mlir
// RUN: not rake-opt %t.cluster.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=CLUSTER
// CLUSTER: error: free without sync: empty is freed while an arrive on empty[0:2, 3] by threads 128..383 of task 0 on cuda_in_order_ram may still be unordered with the threads that free it (at Mg = 1, Nt = 2, Kt = 7)

// Consumers releasing a stage in their own CTA only: the other CTA's
// producer refills it (its multicast writes both) while they may still read.
// RUN: sed 's/>> %%empty\[0 : 2, />> %%empty[%%c, /' %rake_src/bench/gemm/gemm_128x256_g4c2_bf16.mlir > %t.release.mlir
// RUN: not rake-opt %t.release.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=RELEASE
// RELEASE: error: WAR hazard: thread 0 of task 0 write Bs[0:2, 0, 0:128, 0:64] on tma_to_smem_async, read by threads 512..639 of task 0 on wgmma_async_smem without synchronization that orders it before

// Both CTAs multicasting the same half of B: two copies write the same
// elements, unordered.
// RUN: sed 's/%%sBt = gpuir.window %%Bs\[0 : 2, %%k mod 4, %%c \* 128 : %%c \* 128 + 128/%%sBt = gpuir.window %%Bs[0 : 2, %%k mod 4, 0 : 128/' %rake_src/bench/gemm/gemm_128x256_g4c2_bf16.mlir > %t.half.mlir
// RUN: not rake-opt %t.half.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=HALF
// HALF: error: WAW hazard: thread 384 of task 0 write Bs[0:2, 0, 0:128, 0:64] on tma_to_smem_async, written by thread 0 of task 0 on tma_to_smem_async without synchronization that orders it before

// A CTA barrier where the cluster barrier is needed (the TMA-store cluster
// GEMM, bench/gemm/gemm_128x256_g4c2s_bf16.mlir): each CTA meets only its
// own threads after the epilogue, so the buffers shared out over the
// cluster are freed (and refilled by the next task's multicasts) while the
// other CTA may still use them.
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x256_g4c2s_bf16.mlir --rake-check > /dev/null
// RUN: sed -e '/gpuir.arrive cuda_in_order >> %%cs : !gpuir.barrier<cluster_sync>/d' -e 's/gpuir.await %%cs, cuda_in_order : !gpuir.barrier<cluster_sync>/gpuir.for %%cc = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> { gpuir.fence cuda_in_order -> cuda_in_order }/' %rake_src/bench/gemm/gemm_128x256_g4c2s_bf16.mlir > %t.ctasync.mlir
// RUN: not rake-opt %t.ctasync.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=CTASYNC
// CTASYNC: error: free without sync: Cs is freed while a read of Cs[0, 0, 0, 0, 0:64, 0:16] by thread 128 of task 0 on tma_to_gmem_async may still be unordered with the threads that free it (at Mg = 1, Nt = 2, Kt = 7)
