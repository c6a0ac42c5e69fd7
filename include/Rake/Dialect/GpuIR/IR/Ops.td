//===- Ops.td - GpuIR operations ---------------------------*- tablegen -*-===//

#ifndef RAKE_GPUIR_OPS
#define RAKE_GPUIR_OPS

include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "Rake/Dialect/GpuIR/IR/Dialect.td"
include "Rake/Dialect/GpuIR/IR/Attrs.td"
include "Rake/Dialect/GpuIR/IR/Types.td"

// Every region of GpuIR is one block without a terminator: statements run in
// order and a scope ends where its block ends.
defvar GpuIR_ScopeTraits = [SingleBlock, NoTerminator, RecursiveMemoryEffects];

//===----------------------------------------------------------------------===//
// Procedures and calls
//===----------------------------------------------------------------------===//

def GpuIR_ProcOp : GpuIR_Op<"proc", [
    FunctionOpInterface, IsolatedFromAbove, SingleBlock, NoTerminator,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a procedure: control and data parameters and a body";
  let description = [{
    A procedure runs on the CPU. Its parameters are control values (`index`)
    and data buffers (`memref` in a GpuIR memory type; a 0-d memref is a
    scalar). Kernels are launched from it by `gpuir.device_function`. A
    buffer's dynamic extents are declared with `gpuir.extents`, an affine
    map over the control parameters (in order), so that the
    synchronization check proves every access in bounds:
    `%x: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>}`.

    ```mlir
    gpuir.proc @scale(%n: index, %x: memref<?xf32, #gpuir.gmem>) {
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<StrArrayAttr>:$arg_names);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    ::mlir::LogicalResult verifyExtents(unsigned i, ::mlir::MemRefType type);
  }];
}

def GpuIR_CallOp : GpuIR_Op<"call", [
    CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a procedure";
  let description = [{
    Calls a `gpuir.proc` at CPU scope. Instructions are ops of their own and
    are not called through `gpuir.call`.

    ```mlir
    gpuir.call @scale(%n, %x) : (index, memref<?xf32, #gpuir.gmem>) -> ()
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyType>:$args,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let assemblyFormat = [{
    $callee `(` $args `)` attr-dict `:` functional-type($args, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Operation::operand_range getArgOperands() { return getArgs(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getArgsMutable();
    }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee",
                       ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
  }];
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def GpuIR_ForOp : GpuIR_Op<"for", GpuIR_ScopeTraits # [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a loop: sequential, over clusters, or over threads";
  let description = [{
    Iterates `%i` from `lo` to `hi - 1`; the bounds are quasi-affine
    expressions of control values. The mode says how the iterations run:

    - `seq`: one after another, by the threads of the enclosing scope;
    - `cuda_tasks`: as device tasks, one per cluster; only as the nest that
      forms the body of a `gpuir.device_function`;
    - `cuda_threads<unit>`: each iteration by its own collective of `unit`
      threads, carved out of the enclosing scope's threads.

    ```mlir
    gpuir.for %task = 0 to %n ceildiv 256 : cuda_tasks { ... }
    gpuir.for %w = 0 to 4 : cuda_threads<#gpuir.unit<warp>> { ... }
    ```
  }];
  let arguments = (ins Variadic<Index>:$lowerOperands,
                       Variadic<Index>:$upperOperands,
                       AffineMapAttr:$lowerMap,
                       AffineMapAttr:$upperMap,
                       GpuIR_LoopModeAttr:$mode,
                       OptionalAttr<GpuIR_CollUnitAttr>:$unit,
                       OptionalAttr<StrAttr>:$iv_name);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Value getInductionVar() { return getBody().getArgument(0); }
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
    LoopMode getLoopMode() { return getMode(); }
    /// The bound as a constant, if it is one.
    std::optional<int64_t> getConstantLowerBound();
    std::optional<int64_t> getConstantUpperBound();
  }];
}

def GpuIR_IfOp : GpuIR_Op<"if", [RecursiveMemoryEffects, NoTerminator]> {
  let summary = "run a block when a quasi-affine condition holds";
  let description = [{
    The condition combines comparisons of quasi-affine control expressions
    with `and`, `or`, `not` and parentheses (`and` binds tighter than
    `or`). It is kept, and printed, as an `or` of `and`s: `predicates` has
    one comparison per pair of `map` results, and `clauses` the number of
    comparisons in each alternative (absent: one alternative).

    ```mlir
    gpuir.if %t < 32 and %i >= 1 { ... } else { ... }
    gpuir.if %i == 0 or not (%t < 32) { ... }   // printed: %i == 0 or %t >= 32
    ```
  }];
  let arguments = (ins Variadic<Index>:$operands,
                       AffineMapAttr:$map,
                       DenseI32ArrayAttr:$predicates,
                       OptionalAttr<DenseI32ArrayAttr>:$clauses);
  let regions = (region SizedRegion<1>:$thenRegion, AnyRegion:$elseRegion);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool hasElse() { return !getElseRegion().empty(); }
    /// The number of comparisons in each alternative (empty: one).
    ArrayRef<int32_t> getAlternativeSizes() {
      return getClauses().value_or(ArrayRef<int32_t>());
    }
  }];
}

//===----------------------------------------------------------------------===//
// Device functions and warp specialization
//===----------------------------------------------------------------------===//

def GpuIR_DeviceFunctionOp : GpuIR_Op<"device_function", GpuIR_ScopeTraits> {
  let summary = "launch a CUDA kernel whose tasks are the nested cuda_tasks loops";
  let description = [{
    The body is a single nest of `cuda_tasks` loops; each iteration of the
    innermost one is a device task run by one cluster of `cluster` CTAs. The
    CTA size is either `block(n)` threads or the sum of the named warp groups
    (32 threads a warp); a group may change its register count with
    setmaxnreg (`dec(n)`, `inc(n)`). `blocks_per_sm` says how many CTAs the
    persistent kernel keeps on each SM.

    ```mlir
    gpuir.device_function block(256) { ... }
    gpuir.device_function cluster(2) blocks_per_sm(1)
        warps(producer = 1 dec(40), consumer = 8 inc(232)) { ... }
    ```
  }];
  let arguments = (ins DefaultValuedAttr<GpuIR_IntAttr, "1">:$cluster,
                       DefaultValuedAttr<GpuIR_IntAttr, "1">:$blocks_per_sm,
                       OptionalAttr<GpuIR_IntAttr>:$block,
                       OptionalAttr<TypedArrayAttrBase<GpuIR_WarpGroupAttr,
                                    "warp groups">>:$warp_groups);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Threads per CTA.
    int64_t getBlockDim();
    /// The register count each thread starts with: what the launch bounds
    /// (threads per CTA, CTAs per SM) leave of an SM's 65536, at most 248,
    /// and at most the largest count a warp group sets (as ptxas does).
    int64_t getEntryRegisters();
    /// The warp groups' setmaxnreg counts against that count and the CTA's
    /// registers.
    ::mlir::LogicalResult verifyRegisterCounts();
    /// The warp group of the given name, and the index of its first warp.
    std::optional<std::pair<WarpGroupAttr, int64_t>> lookupWarpGroup(::llvm::StringRef name);
  }];
}

def GpuIR_WarpsOp : GpuIR_Op<"warps", GpuIR_ScopeTraits> {
  let summary = "run a block only on the warps of a named warp group";
  let description = [{
    The body runs on warps `[lo, hi)` of the named group of the enclosing
    device function (all of its warps when no range is given); other warps
    skip it. Code generation emits one code path per group.

    ```mlir
    gpuir.warps "producer" { ... }
    gpuir.warps "consumer"[0 : 4] { ... }
    ```
  }];
  let arguments = (ins StrAttr:$group,
                       OptionalAttr<GpuIR_IntAttr>:$lo,
                       OptionalAttr<GpuIR_IntAttr>:$hi);
  let regions = (region MaxSizedRegion<1>:$body);
  let assemblyFormat = [{
    $group (`[` $lo^ `:` $hi `]`)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def GpuIR_FusedOp : GpuIR_Op<"fused", GpuIR_ScopeTraits> {
  let summary = "a fused region: its intermediate values stay on chip";
  let description = [{
    The body runs where it stands, as if the op were not there; the op is a
    promise checked twice. GpuIR checks that the body touches no device
    memory (no global reads, writes or reductions, no instruction with a
    global operand), calls nothing and has only loops with constant bounds
    (code generation unrolls them). Code generation marks the body's
    machine code in the kernel's line table (file `rake-fused-regions`,
    line 2 + the region's index in program order) and rake-verify rejects
    the cubin if any instruction of a region touches device or local memory
    (a spill or a reload), calls, or branches backward (a hidden loop).
    Load a region's inputs before it and store its outputs after it.

    ```mlir
    gpuir.fused {
      gpuir.sm80.warp_sum %s, %p : ...
      ...
    }
    ```
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{ attr-dict-with-keyword $body }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
  }];
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

def GpuIR_AllocOp : GpuIR_Op<"alloc", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "begin the lifetime of a buffer or barrier variable";
  let description = [{
    Allocates a buffer in the memory type of its memref's memory space, or a
    barrier array. Dynamic sizes are allowed for host and global memory only.

    ```mlir
    %tile = gpuir.alloc : memref<256xf32, #gpuir.smem>
    %acc  = gpuir.alloc : memref<128x16xf32, #gpuir.rmem>
    %full = gpuir.alloc : !gpuir.barrier<mbarrier [4]>
    %x    = gpuir.alloc(%n) : memref<?xf32, #gpuir.gmem>
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamicSizes,
                       OptionalAttr<StrAttr>:$name);
  let results = (outs AnyTypeOf<[AnyMemRef, GpuIR_AnyBarrier]>:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def GpuIR_FreeOp : GpuIR_Op<"free"> {
  let summary = "end the lifetime of an allocated buffer or barrier";
  let description = [{
    Frees are inserted by the compiler at the end of each allocation's
    scope; a freed shared-memory region may be reused at once by any thread
    of the cluster, so the synchronization check requires every access to
    have retired before it.

    ```mlir
    gpuir.free %tile : memref<256xf32, #gpuir.smem>
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnyMemRef, GpuIR_AnyBarrier]>:$buffer);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data access
//===----------------------------------------------------------------------===//

class GpuIR_AccessOp<string mnemonic, string kind, list<Trait> traits = []>
    : GpuIR_Op<mnemonic, traits # [GpuIR_AccessOpInterface]> {
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  code accessDecl = [{
    ::mlir::OpOperand &getBufferOperand() { return getMemrefMutable(); }
    ::mlir::rake::gpuir::AccessKind getAccessKind() {
      return ::mlir::rake::gpuir::AccessKind::}] # kind # [{;
    }
  }];
  code storingDecl = accessDecl # [{
    ::mlir::Value getStoredValue() { return getValue(); }
  }];
}

def GpuIR_ReadOp : GpuIR_AccessOp<"read", "Read"> {
  let summary = "read one element of a buffer";
  let description = [{
    ```mlir
    %v = gpuir.read %A[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
    ```
  }];
  let arguments = (ins AnyMemRef:$memref, Variadic<Index>:$indices,
                       AffineMapAttr:$map);
  let results = (outs AnyType:$value);
  let extraClassDeclaration = accessDecl;
}

def GpuIR_WriteOp : GpuIR_AccessOp<"write", "Write"> {
  let summary = "write one element of a buffer";
  let description = [{
    ```mlir
    gpuir.write %v, %tile[%t] : memref<256xf32, #gpuir.smem>
    ```
  }];
  let arguments = (ins AnyType:$value, AnyMemRef:$memref,
                       Variadic<Index>:$indices, AffineMapAttr:$map);
  let extraClassDeclaration = storingDecl;
}

def GpuIR_ReduceOp : GpuIR_AccessOp<"reduce", "Reduce"> {
  let summary = "add to one element of a buffer (+=)";
  let description = [{
    A reduction reads and writes its element; unlike a write, the order of
    reductions to one element does not matter.

    ```mlir
    gpuir.reduce %v, %sum[0] : memref<1xf32, #gpuir.smem>
    ```
  }];
  let arguments = (ins AnyType:$value, AnyMemRef:$memref,
                       Variadic<Index>:$indices, AffineMapAttr:$map);
  let extraClassDeclaration = storingDecl;
}

def GpuIR_WindowOp : GpuIR_Op<"window", [Pure, GpuIR_AccessOpInterface,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a view of part of a buffer";
  let description = [{
    Each coordinate is a point (that dimension is dropped) or an interval
    `lo : hi` (kept, with extent `hi - lo`). Windows are what instructions
    take as arguments.

    ```mlir
    %w = gpuir.window %A[%i * 64 : %i * 64 + 64, %k, 0 : 32]
        : memref<?x?x32xf16, #gpuir.gmem> -> memref<64x32xf16, strided<[?, 1], offset: ?>, #gpuir.gmem>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices,
                       AffineMapAttr:$map, DenseBoolArrayAttr:$intervals,
                       OptionalAttr<StrAttr>:$name);
  let results = (outs AnyMemRef:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Where the window starts in each dimension of the source (a point's
    /// index, an interval's lo), as expressions of the map's dimensions.
    ::llvm::SmallVector<::mlir::AffineExpr> getStarts();

    // AccessOpInterface.
    ::mlir::OpOperand &getBufferOperand() { return getSourceMutable(); }
    ::llvm::SmallVector<bool> getIntervalFlags() {
      return ::llvm::SmallVector<bool>(getIntervals());
    }
    ::mlir::rake::gpuir::AccessKind getAccessKind() {
      return ::mlir::rake::gpuir::AccessKind::Window;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

def GpuIR_FenceOp : GpuIR_Op<"fence"> {
  let summary = "a blocking barrier of the threads of the current scope";
  let description = [{
    All threads of the current collective (warp, CTA, cluster) rendezvous;
    accesses before it on the first timeline are ordered before accesses
    after it on the second. At CPU scope, `cuda_stream_sync -> cpu_in_order`
    waits for the device.

    ```mlir
    gpuir.fence cuda_in_order -> cuda_in_order
    gpuir.fence Sm80_cp_async -> cuda_in_order
    ```
  }];
  let arguments = (ins GpuIR_SyncTimelineAttr:$pre, GpuIR_SyncTimelineAttr:$post);
  let assemblyFormat = [{
    custom<SyncTimeline>($pre) `->` custom<SyncTimeline>($post) attr-dict
  }];
  let hasVerifier = 1;
}

def GpuIR_ArriveOp : GpuIR_Op<"arrive", [AttrSizedOperandSegments]> {
  let summary = "the first half of a split barrier";
  let description = [{
    Signals the barriers: accesses before it on the timeline `pre` are
    ordered before the accesses after the matching awaits. Several barrier
    expressions, and intervals in their coordinates, arrive on several
    barriers at once (the CTAs of a multicast).

    ```mlir
    gpuir.arrive cuda_in_order >> %bar
    gpuir.arrive Sm80_cp_async >> %full[%stage]
    gpuir.arrive cuda_in_order >> %empty[0 : 2, %stage]
    ```
  }];
  let arguments = (ins GpuIR_SyncTimelineAttr:$pre,
                       Variadic<GpuIR_AnyBarrier>:$barriers,
                       Variadic<Index>:$indices,
                       TypedArrayAttrBase<AffineMapAttr, "index maps">:$maps,
                       TypedArrayAttrBase<DenseBoolArrayAttr, "intervals">:$intervals);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The index operands of the i-th barrier expression.
    ::mlir::OperandRange getBarrierIndices(unsigned i);
  }];
}

def GpuIR_AwaitOp : GpuIR_Op<"await"> {
  let summary = "the second half of a split barrier";
  let description = [{
    Waits until the barrier's matching arrives completed; accesses after it
    on timeline `post` are ordered after the arrived accesses. On an mbarrier
    ring, `lag(n)` waits for the arrive `n` phases back; on a commit group,
    `outstanding(n)` leaves the newest `n` groups unfinished (wait_group n).
    On a TMA store group, `read` waits only until the groups' copies have
    read their shared-memory sources (cp.async.bulk.wait_group.read): the
    sources may be rewritten or freed after it, but the copies' global
    writes are ordered only by a later await without `read` (or by the
    kernel's completion).

    ```mlir
    gpuir.await %bar, cuda_in_order
    gpuir.await %empty[%stage], cuda_in_order, lag(3)
    gpuir.await %cg, cuda_in_order, outstanding(1)
    gpuir.await %st, cuda_in_order, outstanding(1), read
    gpuir.await %full[(%Kt + %k) mod 6], wgmma_async, skip
    ```

    Each thread counts its awaits of an mbarrier element: its n-th await
    waits for the element's n-th phase (code generation keeps one parity
    bit per thread and element, flipped at each await). With `skip`, the
    threads count the phase without waiting for it and nothing is ordered
    after the statement: threads that pass over the phases another
    collective awaits (the warpgroups of a ping-pong GEMM taking turns on
    one ring) keep their count. A wait sees only the parity of the
    element's current phase, so the synchronization check requires the
    phase before an await to have completed before it when these threads
    skipped that phase (otherwise the wait passes at once while it is in
    progress), as it requires, for every await, the phase after it not to
    complete before it.
  }];
  let arguments = (ins GpuIR_AnyBarrier:$barrier,
                       Variadic<Index>:$indices,
                       AffineMapAttr:$map,
                       GpuIR_SyncTimelineAttr:$post,
                       OptionalAttr<GpuIR_IntAttr>:$lag,
                       OptionalAttr<GpuIR_IntAttr>:$outstanding,
                       UnitAttr:$read,
                       UnitAttr:$skip);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // RAKE_GPUIR_OPS
