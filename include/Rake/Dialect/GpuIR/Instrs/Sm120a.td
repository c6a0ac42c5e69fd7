//===- Sm120a.td - the Sm120a instruction set --------------*- tablegen -*-===//
//
// Blackwell's (sm_120a) block-scaled warp matrix multiply: FP8, FP6 and FP4
// multiplicands in any pairing (kind::mxf8f6f4) and FP4 with 16- or
// 32-element scale blocks (kind::mxf4nvf4: NVFP4 and MXFP4), f32
// accumulators. Register fragments are explicit, as in Sm80: the leading
// dimension (32) is distributed over the warp's lanes, lane l holding row l,
// in the layout the PTX ISA gives for the instruction.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_GPUIR_SM120A
#define RAKE_GPUIR_SM120A

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "Rake/Dialect/GpuIR/IR/Dialect.td"
include "Rake/Dialect/GpuIR/IR/Interfaces.td"

def Sm120a_MmaBlockScaleOp : Op<GpuIR_Dialect, "sm120a.mma_block_scale",
    [DeclareOpInterfaceMethods<GpuIR_InstrOpInterface,
                               ["buildSequential", "buildDevice",
                                "buildDeviceInKernel"]>]> {
  let summary = "D += (A * SF_A) (B * SF_B) for one m16n8k32 (FP8/FP6/FP4) or m16n8k64 (FP4) tile with block scales, by a warp";
  let description = [{
    The warp multiplies a 16 x K tile of A by a K x 8 tile of B, each
    element scaled by its block's scale factor, and adds the product to
    the 16 x 8 f32 accumulator D (`mma.sync.aligned.m16n8kK.row.col` with
    `.block_scale`, sm_120a only). The element types choose the form:

    - `kind::mxf8f6f4` (K = 32, `scale_vec::1X`): A and B each of
      f8E4M3FN, f8E5M2, f6E3M2FN, f6E2M3FN or f4E2M1FN, in any pairing;
      scales f8E8M0FNU (ue8m0), one per row of A and column of B (blocks
      of 32). `a` is 32 x 16, `b` 32 x 8.
    - `kind::mxf4nvf4` (K = 64): A and B f4E2M1FN; scales f8E8M0FNU
      (MXFP4, `scale_vec::2X`, blocks of 32) or f8E4M3FN read as ue4m3
      (NVFP4, `scale_vec::4X`, blocks of 16). `a` is 32 x 32, `b` 32 x 16.

    `d` is 32 x 4 f32. `sfa` and `sfb` are the warp's scale registers,
    32 x 4: lane l's four bytes. With g = l / 4 and t = l mod 4, lane l
    holds:

    - D, C: register i is element (g + 8 (i / 2), 2 t + i mod 2);
    - A (K = 32): element i is (g + 8 ((i / 4) mod 2), 4 t + i mod 4 + 16 (i / 8));
    - B (K = 32): element i is (4 t + i mod 4 + 16 (i / 4), g);
    - A (K = 64): element i is (g + 8 ((i / 8) mod 2), 8 t + i mod 8 + 32 (i / 16));
    - B (K = 64): element i is (8 t + i mod 8 + 32 (i / 8), g);
    - SF_A[r][j], the scale of row r of A for k in block j, is byte
      `byte_id_a` + j of lane 4 (r mod 8) + 2 `thread_id_a` + r / 8;
    - SF_B[j][c] is byte `byte_id_b` + j of lane 4 c + `thread_id_b`.

    `thread_id_a` is 0 or 1, `thread_id_b` 0 to 3; `byte_id_a` and
    `byte_id_b` are 0 to 3 for one block, 0 or 2 for two, 0 for four. The
    values are decoded exactly: f4E2M1FN, f6E2M3FN and f6E3M2FN have no
    infinity or NaN; f8E4M3FN's NaN is S.1111.111; f8E5M2 is IEEE-like;
    ue8m0 is 2^(e - 127), 0xff NaN; ue4m3 is an unsigned e4m3 (bias 7,
    0x7f NaN) whose top bit is zero; a ue4m3 scale byte with its top bit
    set is not a ue4m3 value, and the sequential behavior reads it as NaN.
    In memory and in registers a 4- or 6-bit element takes a byte of its
    own, its value in the low bits and the others zero; code generation
    places it in the instruction's operand (bits 5:2 of a byte for e2m1
    and 5:0 for FP6 in kind::mxf8f6f4, eight e2m1 to a register in
    kind::mxf4nvf4).

    The sequential behavior adds, in order of k and in f32, the products
    A[r][k] SF_A[r][j] B[k][c] SF_B[j][c], each computed exactly and
    rounded to f32 once; the tensor core's order and rounding of the sum
    may differ.

    ```mlir
    gpuir.sm120a.mma_block_scale %d, %a, %b scale(%sfa, %sfb) {thread_id_a = 1}
        : memref<32x4xf32, #gpuir.rmem>, memref<32x32xf4E2M1FN, #gpuir.rmem>,
          memref<32x16xf4E2M1FN, #gpuir.rmem>, memref<32x4xf8E4M3FN, #gpuir.rmem>,
          memref<32x4xf8E4M3FN, #gpuir.rmem>
    ```
  }];
  let arguments = (ins AnyMemRef:$d, AnyMemRef:$a, AnyMemRef:$b,
                       AnyMemRef:$sfa, AnyMemRef:$sfb,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<1>]>, "0">:$thread_id_a,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<3>]>, "0">:$byte_id_a,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<3>]>, "0">:$thread_id_b,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<3>]>, "0">:$byte_id_b);
  let assemblyFormat = [{
    $d `,` $a `,` $b `scale` `(` $sfa `,` $sfb `)` attr-dict `:` type($d) `,`
    type($a) `,` type($b) `,` type($sfa) `,` type($sfb)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// K of the mma shape: 32 (kind::mxf8f6f4) or 64 (kind::mxf4nvf4).
    int64_t getK();
    /// How many scale blocks a row of A (column of B) has: 1, 2 or 4.
    int64_t getScaleVec();
  }];
}

#endif // RAKE_GPUIR_SM120A
