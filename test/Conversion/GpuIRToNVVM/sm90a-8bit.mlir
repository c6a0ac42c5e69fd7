// The device code of the 8-bit wgmma forms (kernels in
// ../GpuIRToCPU/Inputs): K = 32 per instruction, descriptors 32 bytes
// apart within the swizzled rows, f32 accumulators for e4m3 / e5m2 in
// every pairing and s32 for s8 and u8 (no .satfinite: the sums wrap).
// RUN: rake-opt %S/../GpuIRToCPU/Inputs/sm90a-wgmma-fp8.mlir --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s
// CHECK-LABEL: gpu.func @wgmma_fp8(
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 64, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned

// RUN: rake-translate --gpuir-to-ptx %S/../GpuIRToCPU/Inputs/sm90a-wgmma-fp8.mlir | FileCheck %s --check-prefix=E4E5
// E4E5-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2
// E4E5-NOT: wgmma.mma_async
// RUN: sed 's/f8E5M2/f8E4M3FN/g' %S/../GpuIRToCPU/Inputs/sm90a-wgmma-fp8.mlir | rake-translate --gpuir-to-ptx | FileCheck %s --check-prefix=E4E4
// E4E4-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// RUN: sed 's/f8E4M3FN/f8E5M2/g' %S/../GpuIRToCPU/Inputs/sm90a-wgmma-fp8.mlir | rake-translate --gpuir-to-ptx | FileCheck %s --check-prefix=E5E5
// E5E5-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2
// RUN: sed 's/f8E4M3FN/TMP/g; s/f8E5M2/f8E4M3FN/g; s/TMP/f8E5M2/g' %S/../GpuIRToCPU/Inputs/sm90a-wgmma-fp8.mlir | rake-translate --gpuir-to-ptx | FileCheck %s --check-prefix=E5E4
// E5E4-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e4m3

// RUN: rake-translate --gpuir-to-ptx %S/../GpuIRToCPU/Inputs/sm90a-wgmma-int8.mlir | FileCheck %s --check-prefix=S8
// S8-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8
// RUN: sed 's/gpuir.sm90a.wgmma %%D, %%a, %%b :/gpuir.sm90a.wgmma %%D, %%a, %%b {a_unsigned, b_unsigned} :/' %S/../GpuIRToCPU/Inputs/sm90a-wgmma-int8.mlir | rake-translate --gpuir-to-ptx | FileCheck %s --check-prefix=U8
// U8-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k32.s32.u8.u8
