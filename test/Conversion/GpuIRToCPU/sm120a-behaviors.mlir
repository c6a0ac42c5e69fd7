// The sequential behavior of the block-scaled mma (gpuir.sm120a.mma_block_scale)
// against an independent reference (Inputs/block_scale_ref.py: the formats
// decoded from their definitions, D = C + sum over k of A SF_A B SF_B in
// order of k, each product rounded to f32 once), on random inputs of every
// finite value of each format. The kernels read their fragments by the PTX
// ISA's layouts, so a wrong lane, register, scale byte or selector in the
// instruction's behavior gives a different D. (There is no sm_120 GPU here:
// the hardware comparison the Sm80 and Sm90a instructions have is not made.)

// RUN: rm -rf %t && mkdir -p %t
// RUN: rake-opt %S/Inputs/sm120a-mma-nvfp4.mlir --rake-check > /dev/null
// RUN: rake-opt %S/Inputs/sm120a-mma-mxf8f6f4.mlir --rake-check > /dev/null

// NVFP4: e2m1 x e2m1, ue4m3 scales for blocks of 16 (thread_id_a = 1,
// thread_id_b = 2).
// RUN: mkdir -p %t/nvfp4/o && python3 %S/Inputs/block_scale_ref.py make %t/nvfp4 e2m1 e2m1 ue4m3 64 0 0
// RUN: rake-run --seq %S/Inputs/sm120a-mma-nvfp4.mlir --input=A=%t/nvfp4/A.bin --input=B=%t/nvfp4/B.bin --input=SFA=%t/nvfp4/SFA.bin --input=SFB=%t/nvfp4/SFB.bin --input=C=%t/nvfp4/C.bin --output-dir=%t/nvfp4/o > /dev/null
// RUN: python3 %S/Inputs/block_scale_ref.py compare %t/nvfp4 | FileCheck %s --check-prefix=EQUAL
// EQUAL: {{^}}all 128 equal (0 NaN){{$}}

// A ue4m3 scale byte with its top bit set is not a ue4m3 value: NaN, and
// so is every element of the row it scales (row 0: 8 elements).
// RUN: mkdir -p %t/nan/o && python3 %S/Inputs/block_scale_ref.py make %t/nan e2m1 e2m1 ue4m3 64 0 0 nan-scale
// RUN: rake-run --seq %S/Inputs/sm120a-mma-nvfp4.mlir --input=A=%t/nan/A.bin --input=B=%t/nan/B.bin --input=SFA=%t/nan/SFA.bin --input=SFB=%t/nan/SFB.bin --input=C=%t/nan/C.bin --output-dir=%t/nan/o > /dev/null
// RUN: python3 %S/Inputs/block_scale_ref.py compare %t/nan | FileCheck %s --check-prefix=NAN
// NAN: {{^}}all 128 equal (8 NaN){{$}}

// MXFP4: e2m1 x e2m1 with ue8m0 scales for blocks of 32, the second byte
// pair of each scale register (byte_id 2).
// RUN: sed -e 's/f8E4M3FN/f8E8M0FNU/g; s/thread_id_a = 1, thread_id_b = 2/byte_id_a = 2, byte_id_b = 2/' %S/Inputs/sm120a-mma-nvfp4.mlir > %t/mxfp4.mlir
// RUN: mkdir -p %t/mxfp4/o && python3 %S/Inputs/block_scale_ref.py make %t/mxfp4 e2m1 e2m1 ue8m0 64 2 2
// RUN: rake-run --seq %t/mxfp4.mlir --input=A=%t/mxfp4/A.bin --input=B=%t/mxfp4/B.bin --input=SFA=%t/mxfp4/SFA.bin --input=SFB=%t/mxfp4/SFB.bin --input=C=%t/mxfp4/C.bin --output-dir=%t/mxfp4/o > /dev/null
// RUN: python3 %S/Inputs/block_scale_ref.py compare %t/mxfp4 | FileCheck %s --check-prefix=EQUAL

// kind::mxf8f6f4 pairs, one ue8m0 scale per row and column (byte 2 of A's
// register, byte 1 of B's, thread_id_b = 3): e2m1 x e3m2 (the kernel as
// written), e4m3 x e5m2 and e2m3 x e2m1 (its types replaced).
// RUN: mkdir -p %t/f4f6/o && python3 %S/Inputs/block_scale_ref.py make %t/f4f6 e2m1 e3m2 ue8m0 32 2 1
// RUN: rake-run --seq %S/Inputs/sm120a-mma-mxf8f6f4.mlir --input=A=%t/f4f6/A.bin --input=B=%t/f4f6/B.bin --input=SFA=%t/f4f6/SFA.bin --input=SFB=%t/f4f6/SFB.bin --input=C=%t/f4f6/C.bin --output-dir=%t/f4f6/o > /dev/null
// RUN: python3 %S/Inputs/block_scale_ref.py compare %t/f4f6 | FileCheck %s --check-prefix=EQUAL
// RUN: sed -e 's/f4E2M1FN/f8E4M3FN/g; s/f6E3M2FN/f8E5M2/g' %S/Inputs/sm120a-mma-mxf8f6f4.mlir > %t/e4m3_e5m2.mlir
// RUN: mkdir -p %t/f8/o && python3 %S/Inputs/block_scale_ref.py make %t/f8 e4m3 e5m2 ue8m0 32 2 1
// RUN: rake-run --seq %t/e4m3_e5m2.mlir --input=A=%t/f8/A.bin --input=B=%t/f8/B.bin --input=SFA=%t/f8/SFA.bin --input=SFB=%t/f8/SFB.bin --input=C=%t/f8/C.bin --output-dir=%t/f8/o > /dev/null
// RUN: python3 %S/Inputs/block_scale_ref.py compare %t/f8 | FileCheck %s --check-prefix=EQUAL
// RUN: sed -e 's/f4E2M1FN/f6E2M3FN/g; s/f6E3M2FN/f4E2M1FN/g' %S/Inputs/sm120a-mma-mxf8f6f4.mlir > %t/e2m3_e2m1.mlir
// RUN: mkdir -p %t/f6f4/o && python3 %S/Inputs/block_scale_ref.py make %t/f6f4 e2m3 e2m1 ue8m0 32 2 1
// RUN: rake-run --seq %t/e2m3_e2m1.mlir --input=A=%t/f6f4/A.bin --input=B=%t/f6f4/B.bin --input=SFA=%t/f6f4/SFA.bin --input=SFB=%t/f6f4/SFB.bin --input=C=%t/f6f4/C.bin --output-dir=%t/f6f4/o > /dev/null
// RUN: python3 %S/Inputs/block_scale_ref.py compare %t/f6f4 | FileCheck %s --check-prefix=EQUAL

// The comparison has teeth: the same kernel reading another byte of each
// lane's scale register (byte_id_b = 0) gives another D.
// RUN: sed -e 's/byte_id_b = 1/byte_id_b = 0/' %S/Inputs/sm120a-mma-mxf8f6f4.mlir > %t/byte0.mlir
// RUN: rake-run --seq %t/byte0.mlir --input=A=%t/f4f6/A.bin --input=B=%t/f4f6/B.bin --input=SFA=%t/f4f6/SFA.bin --input=SFB=%t/f4f6/SFB.bin --input=C=%t/f4f6/C.bin --output-dir=%t/f4f6/o > /dev/null
// RUN: python3 %S/Inputs/block_scale_ref.py compare %t/f4f6 | FileCheck %s --check-prefix=DIFFER
// DIFFER: {{^}}{{[0-9]+}} of 128 differ;
