// The device code of the Sm80 instructions (kernels in
// ../GpuIRToCPU/Inputs): cp.async through nvgpu (16-byte copies bypass L1,
// the global source cast to the global address space), commit and wait on a
// cp_async_group, ldmatrix through nvgpu, mma.sync as nvvm.mma.sync with
// the operand types of each shape, shuffles as gpu.shuffle. Register
// fragments distributed over the lanes become each thread's part (an
// alloca of the non-distributed dimensions, at the kernel's entry).

// RUN: rake-opt %S/../GpuIRToCPU/Inputs/sm80-mma-f16.mlir --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s --check-prefix=F16
// F16-LABEL: gpu.func @mma_f16(
// F16-DAG: memref.alloca() : memref<4xf32>
// F16-DAG: memref.alloca() : memref<4xf16>
// F16-DAG: memref.alloca() : memref<8xf16>
// F16: gpu.thread_id x
// F16: %[[G:.*]] = memref.memory_space_cast %{{.*}} : memref<8xf16, strided<[1], offset: ?>> to memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<global>>
// F16: nvgpu.device_async_copy %[[G]][%{{.*}}], %{{.*}}[%{{.*}}], 8 {bypassL1}
// F16: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], 4 :
// F16: nvvm.cp.async.commit.group
// F16-NEXT: nvvm.cp.async.wait.group 0
// F16-NEXT: nvvm.barrier{{$}}
// F16: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// F16: nvgpu.ldmatrix %{{.*}} {numTiles = 2 : i32, transpose = true} : memref<16x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// F16: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>

// RUN: rake-opt %S/../GpuIRToCPU/Inputs/sm80-mma-tf32.mlir --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s --check-prefix=TF32
// TF32-LABEL: gpu.func @mma_tf32(
// TF32: nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>

// 8-bit integers: four bytes to a register (lowest index in the low byte),
// m16n8k32 into i32 accumulators that wrap; s8 unless a_unsigned /
// b_unsigned, in any pairing.
// RUN: rake-opt %S/../GpuIRToCPU/Inputs/sm80-mma-int8.mlir --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s --check-prefix=INT8
// INT8-LABEL: gpu.func @mma_int8(
// INT8: arith.shli %{{.*}}, %c24_i32 : i32
// INT8: nvvm.mma.sync A[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  B[%{{.*}}, %{{.*}}]  C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  {intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// RUN: rake-translate --gpuir-to-ptx %S/../GpuIRToCPU/Inputs/sm80-mma-int8.mlir | FileCheck %s --check-prefix=S8PTX
// S8PTX: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// RUN: sed 's/gpuir.sm80.mma_sync %%d, %%a, %%b :/gpuir.sm80.mma_sync %%d, %%a, %%b {b_unsigned} :/' %S/../GpuIRToCPU/Inputs/sm80-mma-int8.mlir | rake-translate --gpuir-to-ptx | FileCheck %s --check-prefix=S8U8PTX
// S8U8PTX: mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32
// RUN: sed 's/gpuir.sm80.mma_sync %%d, %%a, %%b :/gpuir.sm80.mma_sync %%d, %%a, %%b {a_unsigned, b_unsigned} :/' %S/../GpuIRToCPU/Inputs/sm80-mma-int8.mlir | rake-translate --gpuir-to-ptx | FileCheck %s --check-prefix=U8PTX
// U8PTX: mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32

// The warp's sum: butterfly shuffles by 16, 8, 4, 2, 1, each added after
// the lane's own value; the scan: shuffles up by 1, 2, 4, 8, 16, each added
// before it where the source lane exists.
// RUN: rake-opt %S/../GpuIRToCPU/Inputs/sm80-warp-sums.mlir --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s --check-prefix=SUMS
// SUMS-LABEL: gpu.func @warp_sums(
// SUMS: %[[S16:.*]], %{{.*}} = gpu.shuffle  xor %[[V:.*]], %c16_i32, %c32_i32 : f32
// SUMS-NEXT: %[[A16:.*]] = arith.addf %[[V]], %[[S16]] : f32
// SUMS-NEXT: %[[S8:.*]], %{{.*}} = gpu.shuffle  xor %[[A16]], %c8_i32, %c32_i32 : f32
// SUMS: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// SUMS: %[[U1:.*]], %{{.*}} = gpu.shuffle  up %[[W:.*]], %c1_i32, %c32_i32 : f32
// SUMS-NEXT: arith.cmpi sge
// SUMS-NEXT: %[[B1:.*]] = arith.addf %[[U1]], %[[W]] : f32
// SUMS-NEXT: arith.select %{{.*}}, %[[B1]], %[[W]] : f32
// SUMS: gpu.shuffle  up %{{.*}}, %c16_i32, %c32_i32 : f32

// The vote: one vote.sync ballot over the full warp of each lane's
// predicate (its value nonzero):
// RUN: rake-opt %S/../GpuIRToCPU/Inputs/sm80-ballot.mlir --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s --check-prefix=BALLOT
// BALLOT-LABEL: gpu.func @ballot(
// BALLOT: arith.cmpi ne
// BALLOT: nvvm.vote.sync  ballot %c-1_i32, %{{.*}} -> i32
// RUN: rake-opt %S/../GpuIRToCPU/Inputs/sm80-shuffles.mlir --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s --check-prefix=SHFL
// SHFL-LABEL: gpu.func @shuffles(
// SHFL-DAG: memref.alloca() : memref<4xi32>
// SHFL-DAG: memref.alloca() : memref<i32>
// SHFL: gpu.shuffle xor %{{.*}}, %c3_i32, %c32_i32 : i32
// SHFL: gpu.shuffle down %{{.*}}, %c5_i32, %c32_i32 : i32
// SHFL: gpu.shuffle up %{{.*}}, %c7_i32, %c32_i32 : i32
// SHFL: gpu.shuffle idx %{{.*}}, %c9_i32, %c32_i32 : i32

// The bf16 GEMM example: bf16 pairs packed into the i32 registers of
// mma.sync.
// RUN: rake-opt %examples/gemm_sm80.mlir --convert-gpuir-to-nvvm --canonicalize --cse | FileCheck %s --check-prefix=BF16
// BF16: nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
