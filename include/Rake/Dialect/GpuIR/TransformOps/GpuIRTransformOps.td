//===- GpuIRTransformOps.td - checked rewrites of GpuIR ----*- tablegen -*-===//
//
// The scheduling language: Transform-dialect ops whose payload is GpuIR.
// Each rewrite keeps the program's sequential meaning; its precondition is
// decided with MLIR's Presburger library and a refusal says which accesses
// or which bound stop it. Parallel annotations (loop modes, fences,
// arrives, awaits) are not part of the sequential meaning: the rewrites
// that change them are always allowed here and the synchronization check
// proves the result.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_GPUIR_TRANSFORM_OPS
#define RAKE_GPUIR_TRANSFORM_OPS

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"
include "Rake/Dialect/GpuIR/IR/Attrs.td"

class GpuIR_TransformOp<string mnemonic, list<Trait> traits = []>
    : Op<Transform_Dialect, "gpuir." # mnemonic, traits>;

// A rewrite applied to each payload op of its target handle.
defvar GpuIR_EachTraits = [TransformOpInterface, TransformEachOpTrait];
defvar GpuIR_ApplyToOneDecl = [{
  ::mlir::DiagnosedSilenceableFailure applyToOne(
      ::mlir::transform::TransformRewriter &rewriter,
      ::mlir::Operation *target,
      ::mlir::transform::ApplyToEachResultList &results,
      ::mlir::transform::TransformState &state);
}];

def GpuIRLoopOp : GpuIR_TransformOp<"loop", [
    DeclareOpInterfaceMethods<TransformOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "the gpuir.for loops of a given variable name";
  let description = [{
    Finds, in each payload op of `target` (a procedure, typically), the
    `gpuir.for` loops whose loop variable is written with the given name,
    in program order; `occurrence` picks one of them (0 is the first).
    Fails when there is none, naming what there is.

    ```mlir
    %i = transform.gpuir.loop "i" in %proc : (!transform.any_op) -> !transform.any_op
    %k2 = transform.gpuir.loop "k" in %proc occurrence(1) : ...
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$name,
                       OptionalAttr<I64Attr>:$occurrence);
  let results = (outs TransformHandleTypeInterface:$loops);
  let assemblyFormat = [{
    $name `in` $target (`occurrence` `(` $occurrence^ `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def GpuIRDivideLoopOp : GpuIR_TransformOp<"divide_loop",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "divide a loop into an outer and an inner loop";
  let description = [{
    Rewrites `for %i = lo to hi` into `for %io` over the `factor`-sized
    blocks and `for %ii = 0 to factor` inside it, with `%i` replaced by
    `lo + %io * factor + %ii`; the iterations keep their order, so the
    sequential meaning is unchanged. The tail strategy says what happens
    to the iterations past the last whole block:

    - `perfect` (the default): there are none; refused unless the
      Presburger library proves `hi - lo` a multiple of `factor` for every
      value of the parameters;
    - `guard`: the outer loop runs `(hi - lo) ceildiv factor` times and the
      body is guarded by `gpuir.if lo + %io * factor + %ii < hi`;
    - `cut`: the whole blocks, then a copy of the loop for the rest.

    The divided loop becomes the outer loop (handles to it and to the
    statements in it stay valid) and the inner loop is new; both keep the
    divided loop's mode (change it with
    `set_loop_mode`); `names` gives their variables' names (default: the
    loop's name followed by `o` and `i`). Returns the outer and the inner
    loop.

    ```mlir
    %io, %ii = transform.gpuir.divide_loop %i by 128 tail(guard) names("io", "ii")
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntPositive]>:$factor,
                       DefaultValuedStrAttr<StrAttr, "perfect">:$tail,
                       OptionalAttr<StrArrayAttr>:$names);
  let results = (outs TransformHandleTypeInterface:$outer,
                      TransformHandleTypeInterface:$inner);
  let assemblyFormat = [{
    $target `by` $factor (`tail` `(` custom<Keyword>($tail)^ `)`)? (`names` `(` custom<NameList>($names)^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRReorderLoopsOp : GpuIR_TransformOp<"reorder_loops",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "interchange a loop and the loop that is its body";
  let description = [{
    The target's body must be one `gpuir.for` whose bounds do not use the
    target's variable. Refused when two accesses of one buffer, one of
    them a write or a reduction, would change order: an instance at
    (i1, j1) before one at (i2, j2) with i1 < i2 and j1 > j2, looked for
    with the Presburger library over the loops' bounds. Reductions to one
    element keep their order, so floating-point results stay bit for bit
    those of the original. The two loops trade their headers in place
    (variable, bounds, mode): the target stays the outer op, now iterating
    what the inner one did. Returns the outer loop and the inner loop.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$outer,
                      TransformHandleTypeInterface:$inner);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRReorderStmtsOp : GpuIR_TransformOp<"reorder_stmts",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "swap a statement with the next one";
  let description = [{
    Moves the statement after the one that follows it in its block.
    Refused when the second uses a value the first makes, or when the two
    access an element of one buffer, one of them writing or reducing, for
    some iterations of the loops inside them (looked for with the
    Presburger library). Synchronization statements access nothing and
    always move; the synchronization check judges the result.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRFissionOp : GpuIR_TransformOp<"fission",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "split the enclosing loop after a statement";
  let description = [{
    `for %i { A; s; B }` becomes `for %i { A; s }` then `for %i { B }`,
    where `s` is the target. Refused when B uses a value or buffer made in
    A or s (lift the allocation out first), or when an instance of B at
    i1 and one of A or s at i2 > i1 access an element of one buffer, one of
    them writing or reducing: fission would run the second before the
    first. Returns the two loops.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$first,
                      TransformHandleTypeInterface:$second);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRUnrollOp : GpuIR_TransformOp<"unroll",
    GpuIR_EachTraits # [FunctionalStyleTransformOpTrait,
                        MemoryEffectsOpInterface]> {
  let summary = "replace a loop of constant bounds by copies of its body";
  let description = [{
    One copy of the body per iteration, in order, with the loop variable
    replaced by its value. Refused unless both bounds are constants.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRSetLoopModeOp : GpuIR_TransformOp<"set_loop_mode",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "make a loop sequential, a nest of device tasks or threads";
  let description = [{
    Sets the loop's mode: `seq`, `cuda_tasks`, or `cuda_threads<unit>`. The
    mode is not part of the sequential meaning (a parallel loop reads as a
    sequential one), so the rewrite keeps it; GpuIR's rules on where each
    mode may appear are checked on the result (a refusal quotes them), and
    the synchronization check proves that the parallel program still equals
    the sequential one.

    ```mlir
    transform.gpuir.set_loop_mode %ii cuda_threads<#gpuir.unit<thread>> : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       GpuIR_LoopModeAttr:$mode,
                       OptionalAttr<GpuIR_CollUnitAttr>:$unit);
  let assemblyFormat = [{
    $target custom<LoopModeKeyword>($mode, $unit) attr-dict `:` type($target)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRSimplifyOp : GpuIR_TransformOp<"simplify",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "simplify the control expressions under an op";
  let description = [{
    Rewrites every control expression (loop bounds, conditions, indices,
    window coordinates) of GpuIR ops at or under the target in MLIR's
    simplified affine form, and drops the control values an expression no
    longer uses. Expressions denote the same values, so the meaning is
    unchanged.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRLiftScopeOp : GpuIR_TransformOp<"lift_scope",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "swap a loop or if with the loop or if around it";
  let description = [{
    The target must be the only statement of the `gpuir.for` or `gpuir.if`
    around it (no else branch). `if c { for %j { S } }` becomes
    `for %j { if c { S } }` and `for %i { if c { S } }` becomes
    `if c { for %i { S } }` (refused when `c` uses `%i`); two loops are
    interchanged as by `reorder_loops`. Returns the target, now outside.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRWrapDeviceFunctionOp : GpuIR_TransformOp<"wrap_device_function",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "make a statement the body of a device function";
  let description = [{
    Wraps the target (a loop nest at CPU scope) in a
    `gpuir.device_function block(n) blocks_per_sm(b) cluster(c)`, or, with
    `groups ["producer", "consumer"] warps [1, 8]` instead of `block(n)`,
    one of named warp groups (for `wrap_warps`); `setmaxnreg [-40, 232]`
    gives each group its register count (a negative count releases
    registers, setmaxnreg.dec to its magnitude; a positive one takes them,
    setmaxnreg.inc; 0 leaves the group's as launched). A device function
    runs its body, so the sequential meaning is unchanged; make the outer
    loops `cuda_tasks` with `set_loop_mode`. Returns the device function.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$block,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>, "1">:$blocks_per_sm,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>, "1">:$cluster,
                       OptionalAttr<StrArrayAttr>:$groups,
                       OptionalAttr<DenseI64ArrayAttr>:$warps,
                       OptionalAttr<DenseI64ArrayAttr>:$setmaxnreg);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target (`block` `(` $block^ `)`)?
    (`groups` $groups^ `warps` $warps)? (`setmaxnreg` $setmaxnreg^)?
    (`blocks_per_sm` `(` $blocks_per_sm^ `)`)? (`cluster` `(` $cluster^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRWrapWarpsOp : GpuIR_TransformOp<"wrap_warps",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "run a statement on the warps of a named warp group only";
  let description = [{
    Wraps the target in `gpuir.warps "group"` (or, with `range [lo, hi]`,
    `gpuir.warps "group"[lo : hi]`): in the
    sequential meaning the statement runs once, as before; in the parallel
    program only those warps run it (warp specialization), which the
    synchronization check judges. Refused where GpuIR's verifier refuses the
    region (a group the device function does not have, a range outside it).
    Returns the region.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$group,
                       OptionalAttr<DenseI64ArrayAttr>:$range);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target $group (`range` $range^)? attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRSetMemoryOp : GpuIR_TransformOp<"set_memory",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "change the memory type of a buffer";
  let description = [{
    The buffer is a parameter of the target procedure or an allocation
    named `name` visible at the target (or the target allocation itself,
    without a name). Its windows take the memory type too. A buffer reads
    the same in every memory, so the sequential meaning is unchanged;
    GpuIR's rules (which scope may access which memory) apply to the
    result.

    ```mlir
    transform.gpuir.set_memory #gpuir.gmem for "X" in %proc : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<StrAttr>:$name,
                       AnyAttr:$memory);
  let assemblyFormat = [{
    $memory `for` ($name^ `in`)? $target attr-dict `:` type($target)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRInsertFenceOp : GpuIR_TransformOp<"insert_fence",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "insert a fence before or after a statement";
  let description = [{
    `gpuir.fence pre -> post` after (or before) the target. A fence does
    nothing in the sequential meaning; the synchronization check decides
    whether the program's fences suffice. Returns the fence.

    ```mlir
    %f = transform.gpuir.insert_fence after %copy cuda_in_order -> cuda_in_order
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       UnitAttr:$before,
                       GpuIR_SyncTimelineAttr:$pre,
                       GpuIR_SyncTimelineAttr:$post);
  let results = (outs TransformHandleTypeInterface:$fence);
  let assemblyFormat = [{
    custom<Placement>($before) $target custom<SyncKeyword>($pre) `->`
    custom<SyncKeyword>($post) attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRStageMemOp : GpuIR_TransformOp<"stage_mem", [
    DeclareOpInterfaceMethods<TransformOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "stage a window of a buffer in a new buffer";
  let description = [{
    Every access of the buffer named `name` in the target statement must
    index it as `corner + offset`, with the corner a function of values
    from outside the statement and the offset inside `[0, shape)` (proved
    with the Presburger library over the loops in the statement). A new
    buffer `as` of the memory type and the shape (plus `padding`) is
    allocated before the statement and the window copied into it, the
    accesses read and write it at their offsets, and, where the statement
    writes, the window is copied back after it. The copies skip elements
    outside the buffer's extents (a guard where the loops around the
    statement let the window leave them). The statement sees the same
    values, so the sequential meaning is unchanged. With `through %last`,
    the statements from the target to `%last` (of one block) are staged
    together. When the first of them writes every element of the window
    and reads none (an accumulator's initialization, enumerated over its
    constant loops), there is no copy-in. Returns the allocation and the
    copy-in nest (empty without one); the copy loops are named after the new
    buffer (`tile0`, `tile1`, ...).

    ```mlir
    %tile, %copy = transform.gpuir.stage_mem %body "X" [32, 32] #gpuir.smem
        as "tile" padding [0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       Optional<TransformHandleTypeInterface>:$last,
                       StrAttr:$name,
                       DenseI64ArrayAttr:$shape,
                       AnyAttr:$memory,
                       StrAttr:$staged,
                       OptionalAttr<DenseI64ArrayAttr>:$padding);
  let results = (outs TransformHandleTypeInterface:$alloc,
                      TransformHandleTypeInterface:$copy_in);
  let assemblyFormat = [{
    $target (`through` $last^)? $name $shape $memory `as` $staged
    (`padding` $padding^)? attr-dict `:` functional-type(operands, results)
  }];
}

def GpuIRReplaceOp : GpuIR_TransformOp<"replace",
    GpuIR_EachTraits # [FunctionalStyleTransformOpTrait,
                        MemoryEffectsOpInterface]> {
  let summary = "replace a loop nest by an instruction";
  let description = [{
    The target nest (loops of constant bounds, conditions, accesses and
    arithmetic) becomes one instruction `instr` whose operands are windows
    of the named buffers, in order, with `attrs` as its attributes. Each
    window is inferred from the nest: its corner is what the accesses' indices
    take from outside the nest, its intervals the dimensions the nest's
    loops move through. Accepted only when the nest and the instruction's
    sequential behavior, both run symbolically, write the same expression
    (in the same order of operations) to every element; otherwise refused at
    the first element where they differ, naming what each writes. An
    instruction that completes on a trailing barrier takes it with
    `barrier "full" coords(affine_map<(k) -> (k mod 4)>) of ["k"]`. Returns
    the instruction.

    ```mlir
    %cp = transform.gpuir.replace %c with "gpuir.sm80.cp_async" ["As", "A"]
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$instr,
                       StrArrayAttr:$buffers,
                       OptionalAttr<DictionaryAttr>:$attrs,
                       OptionalAttr<StrAttr>:$barrier,
                       OptionalAttr<AffineMapAttr>:$coords,
                       OptionalAttr<StrArrayAttr>:$loops);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `with` $instr $buffers (`attrs` $attrs^)?
    (`barrier` $barrier^)? (`coords` `(` $coords^ `)` `of` $loops)?
    attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

//===----------------------------------------------------------------------===//
// Buffers' layouts
//===----------------------------------------------------------------------===//

class GpuIR_InPlaceOp<string mnemonic, string summaryText>
    : GpuIR_TransformOp<mnemonic,
        GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = summaryText;
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRDivideDimOp : GpuIR_InPlaceOp<"divide_dim",
    "split a dimension of an allocated buffer in two"> {
  let description = [{
    Dimension `dim` of size n (a multiple of `factor`) becomes two, n /
    factor and factor; every access's index i becomes (i floordiv factor,
    i mod factor). Each access reaches the element it did. Windows of the
    buffer must take that dimension as a point and keep their strides.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, I64Attr:$dim,
                       I64Attr:$factor);
  let assemblyFormat = "$target $dim `by` $factor attr-dict `:` type($target)";
}

def GpuIRMultDimOp : GpuIR_InPlaceOp<"mult_dim",
    "merge two adjacent dimensions of an allocated buffer"> {
  let description = [{
    Dimensions `dim` and `dim + 1` (sizes m and n) become one of size m n;
    an index (i, j) becomes i n + j.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, I64Attr:$dim);
  let assemblyFormat = "$target $dim attr-dict `:` type($target)";
}

def GpuIRRearrangeDimOp : GpuIR_InPlaceOp<"rearrange_dim",
    "permute the dimensions of an allocated buffer"> {
  let description = [{
    New dimension d is old dimension `perm[d]`; every access's indices are
    permuted alike.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DenseI64ArrayAttr:$perm);
  let assemblyFormat = "$target $perm attr-dict `:` type($target)";
}

def GpuIRExpandDimOp : GpuIR_InPlaceOp<"expand_dim",
    "give an allocated buffer a new leading dimension"> {
  let description = [{
    A new leading dimension of `size`, indexed at every use by `index`, an
    affine map over the variables of the named loops (`k mod 2` for a double
    buffer). Refused where the index can leave [0, size) (Presburger, over
    the loops around the use) or a use is outside one of the loops.

    ```mlir
    transform.gpuir.expand_dim %tile 2 index(affine_map<(k) -> (k mod 2)>) of ["k"]
        : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, I64Attr:$size,
                       AffineMapAttr:$index, StrArrayAttr:$loops);
  let assemblyFormat = [{
    $target $size `index` `(` $index `)` `of` $loops attr-dict `:` type($target)
  }];
}

def GpuIRLiftAllocOp : GpuIR_InPlaceOp<"lift_alloc",
    "move an allocation out of the loop or if around it"> {
  let description = [{
    The allocation moves before the sequential `gpuir.for` (or the
    `gpuir.if`) it is directly in: one buffer for every iteration. A fresh
    buffer holds nothing defined when an iteration starts, so the program
    reads the same wherever its reads are defined. Out of a cuda_threads
    loop only when every use indexes a dimension by the loop's variable
    (give each thread its part with expand_dim first), never out of a
    cuda_tasks loop; refused where the size uses the loop's variable.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def GpuIRRingOp : GpuIR_TransformOp<"ring",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "turn a buffer staged per iteration into a ring of stages";
  let description = [{
    The buffer, allocated in the body of the sequential loop over the named
    variable k, gets a leading dimension of `stages`, indexed by k mod
    stages (expand_dim), and moves out of the loop (lift_alloc); the ring's
    mbarriers, `!gpuir.barrier<mbarrier [stages]>` named `barrier`, are
    allocated before the loop, or taken as they are when a second buffer of
    the same ring names them again. Returns the barriers' allocation: a
    replace with `barrier "full" coords(affine_map<(k) -> (k mod N)>) of
    ["k"]` completes the stage's copy on its mbarrier, insert_await waits for
    it. The buffer's meaning is expand_dim's and lift_alloc's: every access
    reaches its iteration's stage; refused as they refuse, or when the
    barrier named is not N mbarriers.

    ```mlir
    %full = transform.gpuir.ring %As stages(4) over "kt" barrier "full"
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntPositive]>:$stages,
                       StrAttr:$loop, StrAttr:$barrier);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `stages` `(` $stages `)` `over` $loop `barrier` $barrier attr-dict
    `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRInlineOp : GpuIR_TransformOp<"inline",
    GpuIR_EachTraits # [FunctionalStyleTransformOpTrait,
                        MemoryEffectsOpInterface]> {
  let summary = "inline a call of a procedure";
  let description = [{
    The `gpuir.call` is replaced by a copy of the called procedure's body,
    its parameters bound to the call's arguments: a call runs the body, so
    the meaning is unchanged (and the rewrites can then look inside).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRInlineWindowOp : GpuIR_TransformOp<"inline_window",
    GpuIR_EachTraits # [FunctionalStyleTransformOpTrait,
                        MemoryEffectsOpInterface]> {
  let summary = "access a window's source directly";
  let description = [{
    Element accesses through the window are rewritten to its source at the
    composed coordinates, and the window is erased. Refused when an
    instruction takes the window whole.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

//===----------------------------------------------------------------------===//
// More loops
//===----------------------------------------------------------------------===//

def GpuIRCutLoopOp : GpuIR_TransformOp<"cut_loop",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "split a loop's iterations in two loops";
  let description = [{
    `for %i = lo to hi` becomes `for %i = lo to lo + n` then
    `for %i = lo + n to hi`. Where the loops around do not guarantee
    `hi - lo >= n` (Presburger), the first loop's body is guarded by
    `%i < hi`. Returns both loops.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, I64Attr:$at);
  let results = (outs TransformHandleTypeInterface:$first,
                      TransformHandleTypeInterface:$second);
  let assemblyFormat = [{
    $target `at` $at attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRFuseOp : GpuIR_TransformOp<"fuse",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "join a loop with the loop after it";
  let description = [{
    The two loops must have the same bounds and mode. Refused when an
    iteration i1 of the second and an iteration i2 > i1 of the first reach
    one element, one of them writing: fused, the second's would run first.
    Returns the fused loop (the first).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRMultLoopsOp : GpuIR_TransformOp<"mult_loops",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "merge a loop and the constant loop inside it";
  let description = [{
    `for %i = lo to hi { for %j = a to b { S } }` becomes one loop `%k` over
    (hi - lo) (b - a) iterations, `%i = lo + %k floordiv (b - a)` and
    `%j = a + %k mod (b - a)`: the same iterations in the same order.
    Returns the loop.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       OptionalAttr<StrAttr>:$name);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target (`name` `(` $name^ `)`)? attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRAddLoopOp : GpuIR_TransformOp<"add_loop",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "put a statement in a new loop, run on its first iteration";
  let description = [{
    The statement becomes `for %v = 0 to n { if %v == 0 { S } }`: it still
    runs once. Make the loop parallel (set_loop_mode) to give the statement
    to one of several threads; divide or lift the guard later. Returns the
    loop.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, I64Attr:$size,
                       StrAttr:$name);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target $size `name` `(` $name `)` attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRAddIfOp : GpuIR_TransformOp<"add_if",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "guard a statement by a condition, or specialize it on one";
  let description = [{
    The statement becomes `if cond { S }`, `cond` the integer set's
    constraints (`e >= 0`, `e == 0`) over the named control values (loop
    variables around the statement and the procedure's index parameters,
    one per dimension of the set, in order). Accepted when the condition
    holds wherever the statement runs (decided by Presburger over its loops
    and guards), so nothing changes; with `specialize`, any condition:
    `if cond { S } else { S }`, two copies to schedule apart (a full tile
    and a partial one). Returns the gpuir.if.

    ```mlir
    %g = transform.gpuir.add_if %s affine_set<(k, Kt) : (Kt - k - 2 >= 0)>
        of ["k", "Kt"] specialize : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       IntegerSetAttr:$condition, StrArrayAttr:$names,
                       UnitAttr:$specialize);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target $condition `of` $names (`specialize` $specialize^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRBindExprOp : GpuIR_TransformOp<"bind_expr",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "bind a value to a new one-element buffer";
  let description = [{
    The value the target computes (a read, an arithmetic op) is written to
    a new rank-0 buffer named `name` right after it and read back for every
    use: `%v = e; use(%v)` becomes `%b = alloc; %v = e; write %v, %b[];
    %r = read %b[]; use(%r)`. The buffer holds exactly the value, so the
    meaning is unchanged; expand_dim, lift_alloc and fission then make it a
    staged array (a register per element, computed apart from its uses).
    The memory is `#gpuir.rmem` inside a device function and `#gpuir.host`
    outside unless given. Returns the allocation.

    ```mlir
    %a = transform.gpuir.bind_expr %read as "a_reg" memory(#gpuir.rmem)
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$name,
                       OptionalAttr<AnyAttr>:$memory);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `as` $name (`memory` `(` $memory^ `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRPermuteLoopsOp : GpuIR_TransformOp<"permute_loops",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "reorder a perfect loop nest";
  let description = [{
    Depth d of the nest at the target iterates what depth `perm[d]` did,
    by interchanges of adjacent loops, each checked as `reorder_loops`
    (the first that would reverse a dependence refuses). Returns the
    target (still the outermost loop op).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DenseI64ArrayAttr:$perm);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target $perm attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRSkewOp : GpuIR_TransformOp<"skew",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "delay the statements after one by some iterations";
  let description = [{
    In the loop around the target, the statements after it run `depth`
    iterations later, so that the ones up to it run ahead (a software
    pipeline: the copies of slice k + d overlap the products of slice k):
    `for k = lo to hi { A(k); B(k) }` becomes
    `for k = lo to hi + d { if k < hi { A(k) }  if k >= lo + d { B(k - d) } }`.
    Refused when B at i and A at j with i < j <= i + d reach one element,
    one of them writing (their order would reverse), or when B uses a value
    A makes. Returns the loop.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, I64Attr:$depth);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $target `by` $depth attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

def GpuIRAllocBarrierOp : GpuIR_TransformOp<"alloc_barrier",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "allocate a barrier variable before a statement";
  let description = [{
    `%name = gpuir.alloc : type` before the target, `type` a
    `!gpuir.barrier<...>`. Barriers hold no data: the sequential meaning is
    unchanged. Returns the allocation.

    ```mlir
    %cg = transform.gpuir.alloc_barrier before %k !gpuir.barrier<cp_async_group> as "cg"
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       TypeAttr:$type, StrAttr:$name);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    `before` $target $type `as` $name attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRInsertArriveOp : GpuIR_TransformOp<"insert_arrive",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "insert an arrive on a barrier after (or before) a statement";
  let description = [{
    `gpuir.arrive pre >> %bar[coords]` after the target, the barrier the
    allocation named `barrier`; `coords` (an affine map over the named
    loops' variables) index a barrier array. An annotation: the sequential
    meaning is unchanged, GpuIR's verifier checks the statement, and the
    synchronization check judges the program. Returns the arrive.

    ```mlir
    %a = transform.gpuir.insert_arrive after %copy Sm80_cp_async >> "cg"
        : (!transform.any_op) -> !transform.any_op
    %r = transform.gpuir.insert_arrive after %mma cuda_in_order >> "empty"
        coords(affine_map<(k) -> (k mod 4)>) of ["k"] : ...
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, UnitAttr:$before,
                       GpuIR_SyncTimelineAttr:$pre, StrAttr:$barrier,
                       OptionalAttr<AffineMapAttr>:$coords,
                       OptionalAttr<StrArrayAttr>:$loops);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    custom<Placement>($before) $target custom<SyncKeyword>($pre) `>` `>` $barrier
    (`coords` `(` $coords^ `)` `of` $loops)? attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

def GpuIRInsertAwaitOp : GpuIR_TransformOp<"insert_await",
    GpuIR_EachTraits # [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "insert an await on a barrier before (or after) a statement";
  let description = [{
    `gpuir.await %bar[coords], post` (with `lag(n)` on an mbarrier ring or
    `outstanding(n)` on a commit group) before the target. An annotation, as
    insert_arrive. Returns the await.

    ```mlir
    %w = transform.gpuir.insert_await before %mma "cg" cuda_in_order outstanding(0)
        : (!transform.any_op) -> !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, UnitAttr:$before,
                       StrAttr:$barrier, GpuIR_SyncTimelineAttr:$post,
                       OptionalAttr<I64Attr>:$lag,
                       OptionalAttr<I64Attr>:$outstanding,
                       OptionalAttr<AffineMapAttr>:$coords,
                       OptionalAttr<StrArrayAttr>:$loops);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    custom<Placement>($before) $target $barrier custom<SyncKeyword>($post)
    (`lag` `(` $lag^ `)`)? (`outstanding` `(` $outstanding^ `)`)?
    (`coords` `(` $coords^ `)` `of` $loops)? attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = GpuIR_ApplyToOneDecl;
}

#endif // RAKE_GPUIR_TRANSFORM_OPS
