// The cluster GEMM with TMA multicast (bench/gemm/gemm_128x256_g4c2_bf16,
// written by make_gemm.py --cluster 2) passes the check; each mutation of
// its cross-CTA synchronization is rejected, naming both accesses.
// RUN: rake-opt %rake_src/bench/gemm/gemm_128x256_g4c2_bf16.mlir --rake-check > /dev/null

// Without the cluster barrier after the epilogue, a CTA's stages end with
// the task while the other CTA's producer may still multicast into them and
// its consumers still read.
// RUN: grep -v "%%cs" %rake_src/bench/gemm/gemm_128x256_g4c2_bf16.mlir > %t.cluster.mlir
// RUN: not rake-opt %t.cluster.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=CLUSTER
// CLUSTER: error: free without sync: Bs is freed while a read of Bs[0, 0, 0:256, 0:16] by threads 128..255 of task 0 on wgmma_async_smem may still be unordered with the threads that free it

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
