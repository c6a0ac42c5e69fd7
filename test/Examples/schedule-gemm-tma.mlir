// The TMA GEMM schedule (examples/schedules/): a sequential GEMM of three
// loops, rewritten step by step into the kernel of examples/gemm_sm90a_tma.mlir.
//
// RUN: rake-opt %examples/schedules/gemm_sm90a_tma_seq.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%examples/schedules/gemm_sm90a_tma.schedule.mlir \
// RUN:   --transform-interpreter -o %t.mlir
// RUN: FileCheck %s < %t.mlir
//
// The synchronization check proves the kernel it made:
// RUN: rake-opt %t.mlir --rake-check -o /dev/null
//
// Its sequential meaning is the sequential program's, and the hand-written
// kernel's, bit for bit (two tiles down M, three slices of K):
// RUN: rake-run --seq %examples/schedules/gemm_sm90a_tma_seq.mlir --sizes=Mt=2,Nt=1,Kt=3 --shape=A=512x192,Bt=128x192,C=512x128 | grep checksum > %t.seq
// RUN: rake-run --seq %t.mlir --sizes=Mt=2,Nt=1,Kt=3 --shape=A=512x192,Bt=128x192,C=512x128 | grep checksum > %t.derived
// RUN: rake-run --seq %examples/gemm_sm90a_tma.mlir --sizes=Mt=2,Nt=1,Kt=3 --shape=A=512x192,Bt=128x192,C=512x128 | grep checksum > %t.hand
// RUN: diff %t.seq %t.derived
// RUN: diff %t.seq %t.hand
//
// It compiles to PTX with TMA loads completing on mbarriers and wgmma:
// RUN: rake-translate --gpuir-to-ptx %t.mlir | FileCheck %s --check-prefix=PTX

// CHECK:      gpuir.device_function block(512) {
// CHECK-NEXT:   gpuir.for %m = 0 to %Mt : cuda_tasks {
// CHECK-NEXT:     gpuir.for %n = 0 to %Nt : cuda_tasks {
// CHECK-NEXT:       %D = gpuir.alloc : memref<4x128x64xf32, #gpuir.rmem>
// CHECK-NEXT:       gpuir.for %zw = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
// CHECK-NEXT:         gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
// CHECK-NEXT:           gpuir.for %r = 0 to 64 : seq {
// CHECK-NEXT:             arith.constant
// CHECK-NEXT:             gpuir.write %{{.*}}, %D[%zw, %t, %r]
// CHECK:            %full = gpuir.alloc : !gpuir.barrier<mbarrier [4]>
// CHECK-NEXT:       %mma = gpuir.alloc : !gpuir.barrier<wgmma_group>
// CHECK-NEXT:       %As = gpuir.alloc : memref<4x256x64xbf16, #gpuir.smem_swizzled<128>>
// CHECK-NEXT:       %Bs = gpuir.alloc : memref<4x128x64xbf16, #gpuir.smem_swizzled<128>>
// CHECK-NEXT:       gpuir.for %kt = 0 to %Kt + 2 : seq {
// CHECK-NEXT:         gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy
// CHECK-NEXT:         gpuir.if %kt < %Kt {
// CHECK-NEXT:           gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
// CHECK:                  gpuir.sm90a.tma_load %{{.*}}, %{{.*}} >> %full[%kt mod 4]
// CHECK:                  gpuir.sm90a.tma_load %{{.*}}, %{{.*}} >> %full[%kt mod 4]
// CHECK:              gpuir.if %kt >= 2 {
// CHECK-NEXT:           gpuir.for %wm = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
// CHECK-NEXT:             gpuir.await %full[{{.*}}], wgmma_async
// CHECK-NEXT:             gpuir.fence wgmma_fence_1 -> wgmma_fence_2
// CHECK-NEXT:             gpuir.for %kk = 0 to 4 : seq {
// CHECK:                    gpuir.sm90a.wgmma
// CHECK:                  gpuir.arrive wgmma_async >> %mma
// CHECK-NEXT:             gpuir.await %mma, cuda_in_order, outstanding(1)
// CHECK:            gpuir.for %ow = 0 to 4 : cuda_threads<#gpuir.unit<warpgroup>> {
// CHECK-NEXT:         gpuir.await %mma, cuda_in_order, outstanding(0)
// CHECK-NEXT:         gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
// CHECK-NEXT:           gpuir.for %j = 0 to 16 : seq {
// CHECK-NEXT:             gpuir.for %i = 0 to 4 : seq {
// CHECK-NEXT:               gpuir.read %D[%ow, %t, %j * 4 + %i]

// PTX: cp.async.bulk.tensor.2d.shared::cluster.global
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
