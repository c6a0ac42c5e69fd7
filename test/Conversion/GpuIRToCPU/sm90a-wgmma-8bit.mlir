// The sequential behavior of the 8-bit wgmma forms: one m64n64 tile with
// K = 128 (four k32 instructions, kernels in Inputs/) equals an
// independent matrix product (rake-example-ref decodes e4m3 and e5m2 on
// its own and sums integers modulo 2^32) for every FP8 pairing and for s8
// and u8; the GPU test compares the same kernels with the hardware.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rake-opt %S/Inputs/sm90a-wgmma-fp8.mlir --rake-check > /dev/null
// RUN: rake-run --seq %S/Inputs/sm90a-wgmma-fp8.mlir --output-dir=%t/e4e5 | FileCheck %s
// CHECK: @wgmma_fp8 ran (sequential meaning, seed 1)
// RUN: rake-example-ref gemm_nt_8bit e4m3 e5m2 %t/e4e5/A.bin %t/e4e5/Bt.bin %t/e4e5/C.bin 64 64 128 | FileCheck %s --check-prefix=REF
// REF: gemm_nt_8bit: 4096 elements match
// The reference tells the formats apart: read as e4m3 x e4m3, the same
// bytes do not give C.
// RUN: not rake-example-ref gemm_nt_8bit e4m3 e4m3 %t/e4e5/A.bin %t/e4e5/Bt.bin %t/e4e5/C.bin 64 64 128 | FileCheck %s --check-prefix=WRONG
// WRONG: gemm_nt_8bit: mismatch at
// The other pairings, derived from the same kernel.
// RUN: sed 's/f8E5M2/f8E4M3FN/g' %S/Inputs/sm90a-wgmma-fp8.mlir > %t/e4e4.mlir
// RUN: rake-run --seq %t/e4e4.mlir --output-dir=%t/e4e4 > /dev/null
// RUN: rake-example-ref gemm_nt_8bit e4m3 e4m3 %t/e4e4/A.bin %t/e4e4/Bt.bin %t/e4e4/C.bin 64 64 128 | FileCheck %s --check-prefix=REF
// RUN: sed 's/f8E4M3FN/f8E5M2/g' %S/Inputs/sm90a-wgmma-fp8.mlir > %t/e5e5.mlir
// RUN: rake-run --seq %t/e5e5.mlir --output-dir=%t/e5e5 > /dev/null
// RUN: rake-example-ref gemm_nt_8bit e5m2 e5m2 %t/e5e5/A.bin %t/e5e5/Bt.bin %t/e5e5/C.bin 64 64 128 | FileCheck %s --check-prefix=REF
// RUN: sed 's/f8E4M3FN/TMP/g; s/f8E5M2/f8E4M3FN/g; s/TMP/f8E5M2/g' %S/Inputs/sm90a-wgmma-fp8.mlir > %t/e5e4.mlir
// RUN: rake-run --seq %t/e5e4.mlir --output-dir=%t/e5e4 > /dev/null
// RUN: rake-example-ref gemm_nt_8bit e5m2 e4m3 %t/e5e4/A.bin %t/e5e4/Bt.bin %t/e5e4/C.bin 64 64 128 | FileCheck %s --check-prefix=REF

// s8 x s8, and u8 x u8 (the generated integers in [-8, 8] read as u8 are
// 0..8 and 248..255).
// RUN: rake-opt %S/Inputs/sm90a-wgmma-int8.mlir --rake-check > /dev/null
// RUN: rake-run --seq %S/Inputs/sm90a-wgmma-int8.mlir --output-dir=%t/s8 | FileCheck %s --check-prefix=INT
// INT: @wgmma_int8 ran (sequential meaning, seed 1)
// RUN: rake-example-ref gemm_nt_8bit s8 s8 %t/s8/A.bin %t/s8/Bt.bin %t/s8/C.bin 64 64 128 | FileCheck %s --check-prefix=REF
// RUN: not rake-example-ref gemm_nt_8bit u8 u8 %t/s8/A.bin %t/s8/Bt.bin %t/s8/C.bin 64 64 128 | FileCheck %s --check-prefix=WRONG
// RUN: sed 's/gpuir.sm90a.wgmma %%D, %%a, %%b :/gpuir.sm90a.wgmma %%D, %%a, %%b {a_unsigned, b_unsigned} :/' %S/Inputs/sm90a-wgmma-int8.mlir > %t/u8.mlir
// RUN: rake-run --seq %t/u8.mlir --output-dir=%t/u8 > /dev/null
// RUN: rake-example-ref gemm_nt_8bit u8 u8 %t/u8/A.bin %t/u8/Bt.bin %t/u8/C.bin 64 64 128 | FileCheck %s --check-prefix=REF

// The 8-bit forms are checked like the others: reading shared memory
// before the cp.async group completes is a RAW hazard on the async proxy.
// RUN: sed 's/gpuir.await %%copies, cuda_in_order, outstanding(0)/gpuir.await %%copies, cuda_in_order, outstanding(1)/' %S/Inputs/sm90a-wgmma-fp8.mlir > %t/nowait.mlir
// RUN: not rake-opt %t/nowait.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=NOWAIT
// NOWAIT: error: RAW hazard: threads 0..127 of task 0 read As[0:64, 0:32] on wgmma_async_smem, written by thread 0 of task 0 on Sm80_cp_async without synchronization that orders it before
