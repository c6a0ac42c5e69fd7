// The device code of wgmma and its synchronization (kernel in
// ../GpuIRToCPU/Inputs): a fence to the async proxy is fence.proxy.async
// then the CTA's barrier; the wgmma fence is wgmma.fence; the instruction
// is nvvm.wgmma.mma_async on shared-memory descriptors (start address,
// byte offsets 128 between core matrices along K and 256 along the rows of
// a 2-wide K slice) and the thread's 32 accumulators; the wgmma group's
// arrive and await are commit_group and wait_group.
// RUN: rake-opt %S/../GpuIRToCPU/Inputs/sm90a-wgmma.mlir --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s
// CHECK-LABEL: gpu.func @wgmma_tile(
// The descriptors' byte offsets: (128 / 16) << 16 in the low word, added to
// the start address over 16 in 32 bits, and (256 / 16) << 32 in the high.
// CHECK-DAG: %[[LEADING:.*]] = arith.constant 524288 : i32
// CHECK-DAG: %[[STRIDE:.*]] = arith.constant 68719476736 : i64
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: %[[LOW:.*]] = arith.addi %{{.*}}, %[[LEADING]] : i32
// CHECK-NEXT: %[[WIDE:.*]] = arith.extui %[[LOW]] : i32 to i64
// CHECK-NEXT: arith.ori %[[WIDE]], %[[STRIDE]] : i64
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NEXT: llvm.extractvalue
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0

// The Hopper matrix multiply: four wgmma m64n128k16 per slice, waiting for all but the
// newest group.
// RUN: rake-translate --gpuir-to-ptx %examples/gemm_sm90a.mlir | FileCheck %s --check-prefix=GEMM
// GEMM-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// GEMM: wgmma.commit_group.sync.aligned;
// GEMM-NEXT: wgmma.wait_group.sync.aligned 1;

// In the 128-byte swizzle, cp.async writes byte o of a stage's logical
// rows at o xor ((o >> 3) & 0x70) (the 16-byte chunk xor the row mod 8),
// and wgmma's descriptors carry the swizzle: leading offset 1, 8-row atoms
// 1024 bytes apart, layout type 1 in bits 62-63 (1 << 16 | 64 << 32 | 1 << 62).
// The swizzled stages and the dynamic shared memory are 1024-byte aligned.
// RUN: rake-opt %examples/gemm_sm90a.mlir --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s --check-prefix=SWZ
// SWZ: gpu.module @gemm_sm90a_device attributes {rake.shared_alignment = 1024 : i64}
// SWZ-DAG: %[[SWZLOW:.*]] = arith.constant 65536 : i32
// SWZ-DAG: %[[SWZDESC:.*]] = arith.constant 4611686293305294848 : i64
// SWZ-DAG: %[[C112:.*]] = arith.constant 112 : index
// SWZ: %[[BYTES:.*]] = arith.muli %{{.*}}, %c2 : index
// SWZ-NEXT: %[[ROW:.*]] = arith.shrui %[[BYTES]], %c3 : index
// SWZ-NEXT: %[[CHUNK:.*]] = arith.andi %[[ROW]], %[[C112]] : index
// SWZ-NEXT: %[[SW:.*]] = arith.xori %[[BYTES]], %[[CHUNK]] : index
// SWZ-NEXT: arith.addi %{{.*}}, %[[SW]] : index
// SWZ: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg
// SWZ: arith.addi %{{.*}}, %[[SWZLOW]] : i32
// SWZ: arith.ori %{{.*}}, %[[SWZDESC]] : i64
// SWZ: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// RUN: rake-translate --gpuir-to-ptx %examples/gemm_sm90a.mlir | FileCheck %s --check-prefix=SWZPTX
// SWZPTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
