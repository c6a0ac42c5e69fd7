// The device code of the block-scaled mma (kernels in ../GpuIRToCPU/Inputs):
// each thread's part of the fragments (one byte per element) packed into the
// instruction's registers, nvvm.mma.block_scale with the form the element
// types choose, and PTX (test/Verifier/sm120a.test assembles and verifies
// it). Compiled for another target, the instruction is refused at the op.

// kind::mxf8f6f4, e2m1 x e3m2: an e2m1 value sits in bits 5:2 of its byte
// (the first two of A's register at bits 2 and 10), an e3m2 value in bits
// 5:0 (B's at 0 and 8); the scale registers are the four bytes in order.
// RUN: rake-opt %S/../GpuIRToCPU/Inputs/sm120a-mma-mxf8f6f4.mlir --convert-gpuir-to-nvvm=chip=sm_120a --canonicalize --cse | FileCheck %s --check-prefix=MX
// MX-LABEL: gpu.func @mma_mxf8f6f4(
// MX-DAG: memref.alloca() : memref<8xf6E3M2FN>
// MX-DAG: memref.alloca() : memref<16xf4E2M1FN>
// MX: %[[A0:.*]] = arith.bitcast %{{.*}} : f4E2M1FN to i4
// MX-NEXT: %[[A0W:.*]] = arith.extui %[[A0]] : i4 to i32
// MX-NEXT: arith.shli %[[A0W]], %c2_i32 : i32
// MX: %[[A1:.*]] = arith.bitcast %{{.*}} : f4E2M1FN to i4
// MX-NEXT: %[[A1W:.*]] = arith.extui %[[A1]] : i4 to i32
// MX-NEXT: arith.shli %[[A1W]], %c10_i32 : i32
// MX: %[[B0:.*]] = arith.bitcast %{{.*}} : f6E3M2FN to i6
// MX-NEXT: %[[B0W:.*]] = arith.extui %[[B0]] : i6 to i32
// MX-NEXT: %{{.*}} = memref.load
// MX-NEXT: %[[B1:.*]] = arith.bitcast %{{.*}} : f6E3M2FN to i6
// MX-NEXT: %[[B1W:.*]] = arith.extui %[[B1]] : i6 to i32
// MX-NEXT: arith.shli %[[B1W]], %c8_i32 : i32
// MX: nvvm.mma.block_scale A[{{.*}}] B[{{.*}}] C[{{.*}}] scaleA[%{{.*}}, %c2_i16, %c0_i16] scaleB[%{{.*}}, %c1_i16, %c3_i16] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf8f6f4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e3m2>, scaleVecSize = #nvvm.scale_vec_size<x1>, shape = #nvvm.shape<m = 16, n = 8, k = 32>}

// NVFP4: eight e2m1 to a register (nibbles), ue4m3 scales, four blocks.
// RUN: rake-opt %S/../GpuIRToCPU/Inputs/sm120a-mma-nvfp4.mlir --convert-gpuir-to-nvvm=chip=sm_120a --canonicalize --cse | FileCheck %s --check-prefix=NV
// NV-LABEL: gpu.func @mma_nvfp4(
// NV-DAG: memref.alloca() : memref<32xf4E2M1FN>
// NV-DAG: memref.alloca() : memref<16xf4E2M1FN>
// NV: %[[N0:.*]] = arith.bitcast %{{.*}} : f4E2M1FN to i4
// NV-NEXT: %[[N0W:.*]] = arith.extui %[[N0]] : i4 to i32
// NV-NEXT: memref.load
// NV-NEXT: %[[N1:.*]] = arith.bitcast %{{.*}} : f4E2M1FN to i4
// NV-NEXT: %[[N1W:.*]] = arith.extui %[[N1]] : i4 to i32
// NV-NEXT: %[[N1S:.*]] = arith.shli %[[N1W]], %c4_i32 : i32
// NV-NEXT: arith.ori %[[N0W]], %[[N1S]] : i32
// NV: nvvm.mma.block_scale {{.*}} scaleA[%{{.*}}, %c0_i16, %c1_i16] scaleB[%{{.*}}, %c0_i16, %c2_i16] {blockScaleFormat = #nvvm.block_scale_format<ue4m3>, kind = #nvvm.block_scale_kind<mxf4nvf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x4>, shape = #nvvm.shape<m = 16, n = 8, k = 64>}

// Through the NVPTX back end and ptxas: the PTX instructions of both forms.
// RUN: rake-opt %S/../GpuIRToCPU/Inputs/sm120a-mma-mxf8f6f4.mlir --pass-pipeline="builtin.module(rake-gpuir-to-ptx{chip=sm_120a})" | FileCheck %s --check-prefix=PTXMX
// PTXMX: mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e2m1.e3m2.f32.ue8m0
// RUN: rake-opt %S/../GpuIRToCPU/Inputs/sm120a-mma-nvfp4.mlir --pass-pipeline="builtin.module(rake-gpuir-to-ptx{chip=sm_120a})" | FileCheck %s --check-prefix=PTXNV
// PTXNV: mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3

// Compiled for sm_90a (the default target) or any other, refused at the op.
// RUN: not rake-opt %S/../GpuIRToCPU/Inputs/sm120a-mma-nvfp4.mlir --convert-gpuir-to-nvvm 2>&1 | FileCheck %s --check-prefix=SM90
// SM90: sm120a-mma-nvfp4.mlir:{{[0-9]+}}:7: error: 'gpuir.sm120a.mma_block_scale' op is an sm_120a instruction; this kernel is compiled for sm_90a: compile it for profile nvidia-ptx-sm120a (rake-bundle --profile=nvidia-ptx-sm120a, or rake-gpuir-to-ptx{chip=sm_120a})
// RUN: not rake-opt %S/../GpuIRToCPU/Inputs/sm120a-mma-nvfp4.mlir --convert-gpuir-to-nvvm=chip=sm_100a 2>&1 | FileCheck %s --check-prefix=SM100
// SM100: error: 'gpuir.sm120a.mma_block_scale' op is an sm_120a instruction; this kernel is compiled for sm_100a: compile it
