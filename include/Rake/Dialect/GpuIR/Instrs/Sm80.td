//===- Sm80.td - the Sm80 instruction set ------------------*- tablegen -*-===//
//
// Ampere's asynchronous copy, matrix load, warp matrix multiply and warp
// shuffle instructions as GpuIR instruction ops. Each implements the
// instruction interface: its collective unit, timelines and parameters for
// the analyses, its sequential behavior for the CPU meaning, and its device
// code. Register fragments are explicit: a warp's fragment is a register
// buffer whose leading dimension (32) is distributed over the warp's lanes,
// lane l holding row l, in the layout the PTX ISA gives for the instruction.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_GPUIR_SM80
#define RAKE_GPUIR_SM80

include "mlir/IR/OpBase.td"
include "Rake/Dialect/GpuIR/IR/Dialect.td"
include "Rake/Dialect/GpuIR/IR/Interfaces.td"

class Sm80_Instr<string mnemonic, list<Trait> traits = []>
    : Op<GpuIR_Dialect, "sm80." # mnemonic,
         traits # [DeclareOpInterfaceMethods<GpuIR_InstrOpInterface,
                                             ["buildSequential", "buildDevice"]>]> {
  let hasVerifier = 1;
}

def Sm80_CpAsyncOp : Sm80_Instr<"cp_async"> {
  let summary = "copy 4, 8 or 16 bytes from global to shared memory asynchronously";
  let description = [{
    One thread copies a contiguous run of 4, 8 or 16 bytes from global
    memory (`src`) to shared memory (`dst`) without waiting for it
    (`cp.async`). The copy completes out of order; commit it to a
    `cp_async_group` barrier with `gpuir.arrive Sm80_cp_async >> %cg` and
    wait for it with `gpuir.await %cg, ..., outstanding(n)`.

    With `fill(%n)`, only the first `%n` elements are read and the rest of
    `dst` is zero-filled (the copy's source size).

    ```mlir
    gpuir.sm80.cp_async %dst, %src : memref<8xbf16, strided<[1], offset: ?>, #gpuir.smem>,
                                     memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>
    ```
  }];
  let arguments = (ins AnyMemRef:$dst, AnyMemRef:$src, Optional<Index>:$fill);
  let assemblyFormat = [{
    $dst `,` $src (`fill` `(` $fill^ `)`)? attr-dict `:` type($dst) `,` type($src)
  }];
}

def Sm80_LdMatrixOp : Sm80_Instr<"ldmatrix"> {
  let summary = "load one, two or four 8x8 matrices of 16-bit elements into a warp's registers";
  let description = [{
    The warp loads `num` 8x8 matrices of 16-bit elements from shared memory
    (`ldmatrix.sync.aligned.m8n8.x{num}`, `.trans` with `trans`). `src` is an
    (8 R) x (8 C) tile with R * C = num, its matrices taken in column-major
    order of 8x8 blocks (matrix j is block (j mod R, j / R)). `dst` is the
    warp's fragment, 32 x (2 num): lane l receives, for matrix j, elements
    (l / 4, 2 (l mod 4) + e) of the matrix (e = 0, 1) in registers 2j + e;
    with `trans`, elements (2 (l mod 4) + e, l / 4).

    A 16x16 tile with num = 4 gives the A fragment of an m16n8k16 mma; a
    16x16 tile of B stored k-major with `trans` gives the B fragments of two
    neighbouring n8 tiles. Each row of `src` must start at a 16-byte
    aligned address.
  }];
  let arguments = (ins AnyMemRef:$dst, AnyMemRef:$src, UnitAttr:$trans);
  let assemblyFormat = [{
    $dst `,` $src (`trans` $trans^)? attr-dict `:` type($dst) `,` type($src)
  }];
  let extraClassDeclaration = [{
    /// The number of 8x8 matrices loaded.
    int64_t getNum();
  }];
}

def Sm80_MmaSyncOp : Sm80_Instr<"mma_sync"> {
  let summary = "D += A * B for one m16n8k16 (f16, bf16), m16n8k8 (tf32) or m16n8k32 (s8, u8) tile, by a warp";
  let description = [{
    The warp multiplies a 16 x K tile of A by a K x 8 tile of B and adds the
    product to the 16 x 8 accumulator D (`mma.sync.aligned`, row-major A,
    column-major B). With f16 or bf16 fragments K is 16: `a` is 32 x 8, `b`
    is 32 x 4; with f32 fragments the inputs are TF32 (the low 13 bits of
    each mantissa are ignored) and K is 8: `a` is 32 x 4, `b` is 32 x 2; `d`
    is 32 x 4 f32. With 8-bit integer fragments (`i8`, two's complement s8
    unless the op carries `a_unsigned` or `b_unsigned`: u8, in any pairing)
    K is 32: `a` is 32 x 16, `b` is 32 x 8, and `d` is 32 x 4 i32, the
    products and sums exact modulo 2^32 (`.s32.s8.s8.s32`, no .satfinite).
    Lane l holds, with g = l / 4 and t = l mod 4:

    - D, C: register i is element (g + 8 (i / 2), 2 t + i mod 2);
    - A (16-bit): register i is element (g + 8 ((i / 2) mod 2), 2 t + i mod 2 + 8 (i / 4));
    - B (16-bit): register i is element (2 t + i mod 2 + 8 (i / 2), g);
    - A (tf32): register i is element (g + 8 (i mod 2), t + 4 (i / 2));
    - B (tf32): register i is element (t + 4 i, g);
    - A (8-bit): register i is element (g + 8 ((i / 4) mod 2), 4 t + i mod 4 + 16 (i / 8));
    - B (8-bit): register i is element (4 t + i mod 4 + 16 (i / 4), g).

    The sequential behavior adds the K products of each element in order of
    k, in f32 (or in i32 for integers); the tensor core's order and
    rounding of a floating-point sum may differ.
  }];
  let arguments = (ins AnyMemRef:$d, AnyMemRef:$a, AnyMemRef:$b,
                       UnitAttr:$a_unsigned, UnitAttr:$b_unsigned);
  let assemblyFormat = [{
    $d `,` $a `,` $b attr-dict `:` type($d) `,` type($a) `,` type($b)
  }];
  let extraClassDeclaration = [{
    /// K of the mma shape: 16 for f16/bf16, 8 for tf32, 32 for s8/u8.
    int64_t getK();
  }];
}

class Sm80_ShuffleOp<string mnemonic, string what> : Sm80_Instr<mnemonic> {
  let summary = "exchange one 32-bit value per lane within a warp: " # what;
  let description = [{
    The warp exchanges the 32-bit values of `src` (one per lane: a 32-element
    register buffer distributed over the lanes) with `shfl.sync` over all 32
    lanes; lane l's result goes to `dst[l]`. `dst` may be `src`.

    - `shfl_bfly`: lane l takes lane l xor offset;
    - `shfl_down`: lane l takes lane l + offset, or keeps its own value past 31;
    - `shfl_up`: lane l takes lane l - offset, or keeps its own value below 0;
    - `shfl_idx`: every lane takes lane offset.

    With `active(n)` (a warp-uniform control expression: a partial warp, or
    the tail of a row) only lanes 0 to n - 1 are data lanes; the padding
    lanes stay in the shuffle (full membership), and no lane takes a value
    from a padding lane: under `shfl_bfly`, `shfl_down` and `shfl_idx` a
    lane whose source lane is past c = min(max(n - 1, 0), 31) keeps its own
    value (`shfl.sync` with c as its clamp), so a data lane never reads an
    unavailable source. `shfl_up` takes only lower lanes, so a data lane's
    source is always a data lane: `active` changes nothing there.

    ```mlir
    gpuir.sm80.shfl_down %t, %v, 4 active(%n - %r * 32) : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
    ```
  }];
  let arguments = (ins AnyMemRef:$dst, AnyMemRef:$src,
                       ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<31>]>:$offset,
                       Variadic<Index>:$active_operands,
                       OptionalAttr<AffineMapAttr>:$active);
  let assemblyFormat = [{
    $dst `,` $src `,` $offset custom<ActiveLanes>($active_operands, $active) attr-dict `:` type($dst) `,` type($src)
  }];
}

class Sm80_GlobalVectorOp<string mnemonic, string what> : Sm80_Instr<mnemonic> {
  let arguments = (ins AnyMemRef:$dst, AnyMemRef:$src);
  let assemblyFormat = [{
    $dst `,` $src attr-dict `:` type($dst) `,` type($src)
  }];
}

def Sm80_LdGlobalOp : Sm80_GlobalVectorOp<"ld_global", "load"> {
  let summary = "one thread loads 4, 8 or 16 contiguous bytes of global memory at once";
  let description = [{
    One thread copies a contiguous run of 4, 8 or 16 bytes from global
    memory (`src`, a window of a procedure's buffer) into its registers
    (`dst`) with one vector load (`ld.global.v4.f32` for four floats). The
    lane-to-address mapping is the window's index, written out; the count
    is the window's size; the alignment is the run's size in bytes, which
    code generation proves: the buffer declares the alignment of its first
    element (`{gpuir.align = 16}`, which every launch must meet) and the
    window's offset is a multiple of the run for every value of the loop
    variables and sizes, under its guards (refused otherwise). A tail that
    is not a whole run is written with ordinary reads under a guard.

    ```mlir
    %s = gpuir.window %X[%r, %c * 4 : %c * 4 + 4] : ...
    gpuir.sm80.ld_global %d, %s : memref<4xf32, strided<[1], offset: ?>, #gpuir.rmem>,
                                  memref<4xf32, strided<[1], offset: ?>, #gpuir.gmem>
    ```
  }];
}

def Sm80_StGlobalOp : Sm80_GlobalVectorOp<"st_global", "store"> {
  let summary = "one thread stores 4, 8 or 16 contiguous bytes to global memory at once";
  let description = [{
    One thread copies a contiguous run of 4, 8 or 16 bytes from its
    registers (`src`) to global memory (`dst`, a window of a procedure's
    buffer) with one vector store (`st.global.v4.f32` for four floats),
    under the same alignment rule as `gpuir.sm80.ld_global`.
  }];
}

def Sm80_BallotOp : Sm80_Instr<"ballot"> {
  let summary = "the warp's vote: each lane gets the mask of the lanes whose value is nonzero";
  let description = [{
    `vote.sync.ballot.b32` over all 32 lanes of the warp: bit l of the
    result is set when lane l's value in `src` (the warp's 32 i32 registers)
    is nonzero, and every lane's `dst[l]` gets the result. All lanes take
    part (the full membership mask); every lane reads before any writes, so
    `dst` may be `src`. With `active(n)` (a warp-uniform control expression, e.g. `active(250 - %s * 32)`) only lanes
    0 to n - 1 are data lanes: the others (padding lanes, still present for
    the collective) vote 0 whatever their value.

    ```mlir
    gpuir.sm80.ballot %mask, %flags : memref<32xi32, strided<[1], offset: ?>, #gpuir.rmem>, memref<32xi32, strided<[1], offset: ?>, #gpuir.rmem>
    gpuir.sm80.ballot %mask, %flags active(%n - 3) : ...
    ```
  }];
  let arguments = (ins AnyMemRef:$dst, AnyMemRef:$src,
                       Variadic<Index>:$active_operands,
                       OptionalAttr<AffineMapAttr>:$active);
  let assemblyFormat = [{
    $dst `,` $src custom<ActiveLanes>($active_operands, $active) attr-dict `:` type($dst) `,` type($src)
  }];
}

class Sm80_WarpSumBase<string mnemonic, string what, string order>
    : Sm80_Instr<mnemonic> {
  let summary = "the warp's " # what # " of one f32 or i32 value per lane, in a published order";
  let description = !strconcat([{
    Over all 32 lanes of the warp (`src` and `dst` are the warp's 32
    registers; `dst` may be `src`), through a fixed sequence of shuffles
    whose order of additions is the sequential meaning, so a float result is
    the same bits on the CPU and the GPU. With `active(n)` (a warp-uniform
    control expression: a partial warp, or the tail of a row) only lanes 0 to n - 1 are
    data lanes (none if n <= 0, all if n >= 32): the padding lanes stay in
    the collective and supply the neutral operand (-0.0 for f32, which
    leaves every sum's bits as they are, 0 for i32) whatever their value,
    and get the results like the others: }], order);
  let arguments = (ins AnyMemRef:$dst, AnyMemRef:$src,
                       Variadic<Index>:$active_operands,
                       OptionalAttr<AffineMapAttr>:$active);
  let assemblyFormat = [{
    $dst `,` $src custom<ActiveLanes>($active_operands, $active) attr-dict `:` type($dst) `,` type($src)
  }];
}

def Sm80_WarpSumOp : Sm80_WarpSumBase<"warp_sum", "sum", [{a butterfly: for d = 16, 8,
    4, 2, 1 each lane l adds lane l xor d's value to its own (v[l] + v[l xor
    d], all lanes at once, with `shfl.sync.bfly`), so every lane ends with
    the same sum.

    ```mlir
    gpuir.sm80.warp_sum %s, %v : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
    ```
  }]>;

def Sm80_WarpScanOp : Sm80_WarpSumBase<"warp_scan", "inclusive prefix sum", [{for
    d = 1, 2, 4, 8, 16 each lane l >= d adds lane l - d's value before its
    own (v[l - d] + v[l], all lanes at once, with `shfl.sync.up`), so lane l
    ends with the sum of lanes 0 to l.

    ```mlir
    gpuir.sm80.warp_scan %s, %v : memref<32xf32, #gpuir.rmem>, memref<32xf32, #gpuir.rmem>
    ```
  }]>;

def Sm80_ShflBflyOp : Sm80_ShuffleOp<"shfl_bfly", "butterfly (xor)">;
def Sm80_ShflDownOp : Sm80_ShuffleOp<"shfl_down", "from a higher lane">;
def Sm80_ShflUpOp : Sm80_ShuffleOp<"shfl_up", "from a lower lane">;
def Sm80_ShflIdxOp : Sm80_ShuffleOp<"shfl_idx", "broadcast from one lane">;

#endif // RAKE_GPUIR_SM80
