// The Sm80 GEMM schedule (examples/schedules/): a sequential GEMM of three
// loops, rewritten step by step into the kernel of examples/gemm_sm80.mlir.
//
// RUN: rake-opt %examples/schedules/gemm_sm80_seq.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%examples/schedules/gemm_sm80.schedule.mlir \
// RUN:   --transform-interpreter -o %t.mlir
// RUN: FileCheck %s < %t.mlir
//
// The synchronization check proves the kernel it made:
// RUN: rake-opt %t.mlir --rake-check -o /dev/null
//
// Its sequential meaning is the sequential program's, and the hand-written
// kernel's, bit for bit (two tiles down M, three slices of K):
// RUN: rake-run --seq %examples/schedules/gemm_sm80_seq.mlir --sizes=Mt=2,Nt=1,Kt=3 --shape=A=256x96,B=96x128,C=256x128 | grep checksum > %t.seq
// RUN: rake-run --seq %t.mlir --sizes=Mt=2,Nt=1,Kt=3 --shape=A=256x96,B=96x128,C=256x128 | grep checksum > %t.derived
// RUN: rake-run --seq %examples/gemm_sm80.mlir --sizes=Mt=2,Nt=1,Kt=3 --shape=A=256x96,B=96x128,C=256x128 | grep checksum > %t.hand
// RUN: diff %t.seq %t.derived
// RUN: diff %t.seq %t.hand
//
// It compiles to PTX with cp.async, ldmatrix and mma.sync:
// RUN: rake-translate --gpuir-to-ptx %t.mlir | FileCheck %s --check-prefix=PTX

// CHECK:      gpuir.device_function blocks_per_sm(2) block(128) {
// CHECK-NEXT:   gpuir.for %m = 0 to %Mt : cuda_tasks {
// CHECK-NEXT:     gpuir.for %n = 0 to %Nt : cuda_tasks {
// CHECK-NEXT:       %D = gpuir.alloc : memref<2x2x32x4x8x4xf32, #gpuir.rmem>
// CHECK-NEXT:       gpuir.for %zw = 0 to 2 : cuda_threads<#gpuir.unit<2 x warp>> {
// CHECK-NEXT:         gpuir.for %zwn = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
// CHECK-NEXT:           gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
// CHECK:                      gpuir.write %{{.*}}, %D[%zw, %zwn, %l, %i, %j, %r]
// CHECK:            %Af = gpuir.alloc : memref<2x2x32x4x8xbf16, #gpuir.rmem>
// CHECK-NEXT:       %Bf = gpuir.alloc : memref<2x2x32x4x8xbf16, #gpuir.rmem>
// CHECK-NEXT:       %As = gpuir.alloc : memref<2x128x40xbf16, #gpuir.smem>
// CHECK-NEXT:       %Bs = gpuir.alloc : memref<2x32x136xbf16, #gpuir.smem>
// CHECK-NEXT:       %cg = gpuir.alloc : !gpuir.barrier<cp_async_group>
// CHECK-NEXT:       gpuir.for %kt = 0 to %Kt + 1 : seq {
// CHECK-NEXT:         gpuir.await %cg, cuda_in_order, outstanding(0)
// CHECK-NEXT:         gpuir.fence cuda_in_order -> cuda_in_order
// CHECK-NEXT:         gpuir.if %kt < %Kt {
// CHECK-NEXT:           gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
// CHECK-NEXT:             gpuir.for %c = 0 to 4 : seq {
// CHECK:                    gpuir.window %As[%kt mod 2, %c * 32 + %t floordiv 4,
// CHECK:                    gpuir.sm80.cp_async
// CHECK:                    gpuir.window %Bs[%kt mod 2, %c * 8 + %t floordiv 16,
// CHECK:                    gpuir.sm80.cp_async
// CHECK:                gpuir.arrive Sm80_cp_async >> %cg
// CHECK:              gpuir.if %kt >= 1 {
// CHECK-NEXT:           gpuir.for %wm = 0 to 2 : cuda_threads<#gpuir.unit<2 x warp>> {
// CHECK-NEXT:             gpuir.for %wn = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
// CHECK-NEXT:               gpuir.for %kk = 0 to 2 : seq {
// CHECK-NEXT:                 gpuir.for %i = 0 to 4 : seq {
// CHECK-NEXT:                   gpuir.window %Af[%wm, %wn, 0 : 32, %i, 0 : 8]
// CHECK-NEXT:                   gpuir.window %As[(%kt + 1) mod 2, %wm * 64 + %i * 16 : %wm * 64 + %i * 16 + 16, %kk * 16 : %kk * 16 + 16]
// CHECK-NEXT:                   gpuir.sm80.ldmatrix
// CHECK:                      gpuir.window %Bs[(%kt + 1) mod 2, %kk * 16 : %kk * 16 + 16, %wn * 64 + %jj * 16 : %wn * 64 + %jj * 16 + 16]
// CHECK-NEXT:                 gpuir.sm80.ldmatrix %{{.*}}, %{{.*}} trans
// CHECK:                      gpuir.window %D[%wm, %wn, 0 : 32, %i, %jj * 2 + %c, 0 : 4]
// CHECK-NEXT:                 gpuir.window %Af[%wm, %wn, 0 : 32, %i, 0 : 8]
// CHECK-NEXT:                 gpuir.window %Bf[%wm, %wn, 0 : 32, %jj, %c * 4 : %c * 4 + 4]
// CHECK-NEXT:                 gpuir.sm80.mma_sync
// CHECK:            gpuir.for %ow = 0 to 2 : cuda_threads<#gpuir.unit<2 x warp>> {
// CHECK-NEXT:         gpuir.for %own = 0 to 2 : cuda_threads<#gpuir.unit<warp>> {
// CHECK-NEXT:           gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
// CHECK:                      gpuir.read %D[%ow, %own, %l, %i, %j, %r]

// PTX: cp.async.cg.shared.global
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
