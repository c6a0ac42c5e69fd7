// The sequential behavior of wgmma: one m64n64k16 tile of bf16 (the
// kernel in Inputs/) equals a hand-written matrix product within the
// rounding of 16-term f32 sums; the GPU test compares the same kernel with
// the hardware.
// RUN: rm -rf %t && rake-opt %S/Inputs/sm90a-wgmma.mlir --rake-check > /dev/null
// RUN: rake-run --seq %S/Inputs/sm90a-wgmma.mlir --output-dir=%t | FileCheck %s
// CHECK: @wgmma_tile ran (sequential meaning, seed 1)
// RUN: rake-example-ref gemm %t/A.bin %t/B.bin %t/C.bin 64 64 16 | FileCheck %s --check-prefix=REF
// REF: gemm: 4096 elements match

// Without the fence to the async proxy, wgmma reads shared memory the
// threads wrote through the generic proxy: the check names it.
// RUN: sed 's/gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy/gpuir.fence cuda_in_order -> cuda_in_order/' %S/Inputs/sm90a-wgmma.mlir > %t.noproxy.mlir
// RUN: not rake-opt %t.noproxy.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=PROXY
// PROXY: error: RAW hazard: threads 0..127 of task 0 read As[0:8, 0:2, 0:8, 0:8] on wgmma_async_smem, written by thread {{[0-9]+}} of task 0 on cuda_in_order_ram without synchronization that orders it before
// Reading the accumulators before waiting for the wgmma group is a hazard too.
// RUN: sed 's/gpuir.await %cg, cuda_in_order, outstanding(0)/gpuir.await %cg, cuda_in_order, outstanding(1)/' %S/Inputs/sm90a-wgmma.mlir > %t.nowait.mlir
// RUN: not rake-opt %t.nowait.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=NOWAIT
// NOWAIT: error: RAW hazard: thread 0 of task 0 read D[0, 0] on cuda_in_order_rmem, written by threads 0..127 of task 0 on wgmma_async_rmem_d without synchronization that orders it before

// zero_init (wgmma's scale-d = 0): D = A B whatever the accumulators held.
// Here they hold 7.0 before the product: with zero_init it is the product
// alone, without it the 7.0 is added (and the reference does not match).
// RUN: sed -e 's/%%zero = arith.constant 0.0 : f32/%%zero = arith.constant 7.0 : f32/' -e 's/gpuir.sm90a.wgmma %%D, %%As, %%Bs :/gpuir.sm90a.wgmma %%D, %%As, %%Bs {zero_init} :/' %S/Inputs/sm90a-wgmma.mlir > %t.zero.mlir
// RUN: rake-opt %t.zero.mlir --rake-check > /dev/null
// RUN: rake-run --seq %t.zero.mlir --output-dir=%t/zero > /dev/null
// RUN: rake-example-ref gemm %t/zero/A.bin %t/zero/B.bin %t/zero/C.bin 64 64 16 | FileCheck %s --check-prefix=REF
// RUN: sed -e 's/%%zero = arith.constant 0.0 : f32/%%zero = arith.constant 7.0 : f32/' %S/Inputs/sm90a-wgmma.mlir > %t.seven.mlir
// RUN: rake-run --seq %t.seven.mlir --output-dir=%t/seven > /dev/null
// RUN: not rake-example-ref gemm %t/seven/A.bin %t/seven/B.bin %t/seven/C.bin 64 64 16 | FileCheck %s --check-prefix=SEVEN
// SEVEN: gemm: mismatch at
// On the device scale-d is a predicate, false:
// RUN: rake-translate --gpuir-to-ptx %t.zero.mlir | FileCheck %s --check-prefix=ZEROPTX
// ZEROPTX: setp.ne.b32 [[P:p]], 0, 0;
// ZEROPTX-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, [[P]], 1,  1, 0,  0;
// For the check the product writes D without reading it; reading D before
// the group is waited for is still a hazard.
// RUN: sed 's/gpuir.await %%cg, cuda_in_order, outstanding(0)/gpuir.await %%cg, cuda_in_order, outstanding(1)/' %t.zero.mlir > %t.zero-nowait.mlir
// RUN: not rake-opt %t.zero-nowait.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=NOWAIT
