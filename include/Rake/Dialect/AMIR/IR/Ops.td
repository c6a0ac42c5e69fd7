//===- Ops.td - AMIR operations ----------------------------*- tablegen -*-===//

#ifndef RAKE_AMIR_OPS
#define RAKE_AMIR_OPS

include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "Rake/Dialect/AMIR/IR/Dialect.td"
include "Rake/Dialect/AMIR/IR/Attrs.td"
include "Rake/Dialect/GpuIR/IR/Attrs.td"
include "Rake/Dialect/AMIR/IR/Interfaces.td"

defvar AMIR_ScopeTraits = [SingleBlock, NoTerminator];

def AMIR_ProcOp : AMIR_Op<"proc", [FunctionOpInterface, IsolatedFromAbove,
    SingleBlock, NoTerminator,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "an abstract-machine program over control parameters";
  let description = [{
    ```mlir
    amir.proc @gemm(%M: index, %N: index, %K: index) { ... }
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
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
}

def AMIR_LoopOp : AMIR_Op<"loop", AMIR_ScopeTraits # [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a loop; with a thread mapping, each iteration on its threads";
  let description = [{
    A loop marked `tasks` gives each iteration to a new device task (a
    cluster's threads, distinct from every other task's).

    ```mlir
    amir.loop %task = 0 to %n tasks { ... }
    amir.loop %t = 0 to 256 threads(#amir.tile<dim = 1, offset = 0, step = 1, box = 1>) { ... }
    ```
  }];
  let arguments = (ins Variadic<Index>:$lowerOperands,
                       Variadic<Index>:$upperOperands,
                       AffineMapAttr:$lowerMap, AffineMapAttr:$upperMap,
                       OptionalAttr<AMIR_ThreadMapping>:$threads,
                       UnitAttr:$tasks,
                       OptionalAttr<StrAttr>:$iv_name);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def AMIR_GuardOp : AMIR_Op<"guard", AMIR_ScopeTraits> {
  let summary = "a conditional scope; with a thread mapping, on some threads";
  let description = [{
    Runs its body when the condition holds (always, without one), and its
    else region otherwise. A device function becomes a guard with a domain;
    a warps region a guard with a slice.

    ```mlir
    amir.guard (%t < 32) { ... } else { ... }
    amir.guard threads(#amir.domain<[256]>) { ... }
    ```
  }];
  let arguments = (ins Variadic<Index>:$operands,
                       AffineMapAttr:$map,
                       DenseI32ArrayAttr:$predicates,
                       OptionalAttr<AMIR_ThreadMapping>:$threads,
                       OptionalAttr<DenseI32ArrayAttr>:$clauses);
  let regions = (region SizedRegion<1>:$body, MaxSizedRegion<1>:$elseBody);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of comparisons in each alternative (empty: one).
    ArrayRef<int32_t> getAlternativeSizes() {
      return getClauses().value_or(ArrayRef<int32_t>());
    }
  }];
}

def AMIR_AllocOp : AMIR_Op<"alloc"> {
  let summary = "begin the lifetime of a data or barrier variable";
  let description = [{
    `name` is the GpuIR variable's name for reports; `shared` marks shared
    memory, whose free must wait for every thread of the cluster. A dynamic
    dimension (-1 in `shape`) has the extent that `extents` gives (one
    result per dimension, over the control values it names); without it the
    check cannot bound that dimension's indices. `arrivals` is the number of
    thread arrivals that completes one phase of each element of an mbarrier,
    as code generation initializes it.

    ```mlir
    %tile = amir.alloc "tile" [256] shared : !amir.data
    %A = amir.alloc "A" [-1, 64] extents(%M)[affine_map<(d0) -> (d0 * 128, 64)>] : !amir.data
    %bar = amir.alloc "full" [4] arrivals 1 : !amir.barrier<mbarrier>
    ```
  }];
  let arguments = (ins StrAttr:$name, DenseI64ArrayAttr:$shape, UnitAttr:$shared,
                       Variadic<Index>:$extentOperands,
                       OptionalAttr<AffineMapAttr>:$extents,
                       OptionalAttr<I64Attr>:$arrivals);
  let results = (outs AMIR_AnyVariable:$result);
  let assemblyFormat = [{
    $name $shape (`shared` $shared^)?
    (`extents` `(` $extentOperands `)` `[` $extents^ `]`)?
    (`arrivals` $arrivals^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::Type":$type, "::mlir::StringAttr":$name,
                                 "::mlir::DenseI64ArrayAttr":$shape,
                                 "::mlir::UnitAttr":$shared), [{
    build($_builder, $_state, type, name, shape, shared, ::mlir::ValueRange(),
          nullptr, nullptr);
  }]>];
}

def AMIR_FreeOp : AMIR_Op<"free"> {
  let summary = "end the lifetime of a variable";
  let description = [{
    `implicit` marks the free that ends an allocation's scope (the GpuIR
    program wrote none): reports about it point at the allocation.
  }];
  let arguments = (ins AMIR_AnyVariable:$variable, UnitAttr:$implicit);
  let assemblyFormat = "$variable (`implicit` $implicit^)? attr-dict `:` type($variable)";
}

class AMIR_AccessOp<string mnemonic, string summaryText, string mutation>
    : AMIR_Op<mnemonic, [AMIR_AccessOpInterface]> {
  let summary = summaryText;
  let arguments = (ins AMIR_AnyVariable:$variable, Variadic<Index>:$indices,
                       AffineMapAttr:$map, DenseBoolArrayAttr:$intervals,
                       GpuIR_QualTimelineAttr:$quals, UnitAttr:$out_of_order,
                       OptionalAttr<StrAttr>:$order);
  let assemblyFormat = [{
    $variable `` custom<Window>($indices, $map, $intervals)
    `on` custom<QualSet>($quals) (`out_of_order` $out_of_order^)? (`order` $order^)? attr-dict `:` type($variable)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool isMutation() { return }] # mutation # [{; }
    bool isCheck() { return false; }
    bool isOutOfOrder() { return getOutOfOrder(); }
    std::optional<::mlir::rake::amir::VisibilityLevel> getCheckedLevel() {
      return std::nullopt;
    }
  }];
}

def AMIR_RecordReadOp : AMIR_AccessOp<"record_read",
    "record a read of a window by the current threads", "false"> {
  let description = [{
    ```mlir
    amir.record_read %A[%task * 256 + %t] on cuda_in_order_ram : !amir.data
    ```
  }];
}
def AMIR_RecordMutateOp : AMIR_AccessOp<"record_mutate",
    "record a write or reduction of a window by the current threads", "true"> {
  let description = [{
    An `out_of_order` access (an asynchronous instruction's) is not visible
    even to the threads that issued it until a synchronization makes it so.
    An access with an `order` key is ordered after the same threads'
    earlier accesses on its timeline only where they carry the same key
    (wgmma accumulators of one shape, `order "m64n256k16"`).

    ```mlir
    amir.record_mutate %tile[%t] on cuda_in_order_ram : !amir.data
    amir.record_mutate %B[0 : 64, 0 : 64] on tma_to_smem_async out_of_order : !amir.data
    ```
  }];
}

class AMIR_CheckOp<string mnemonic, string summaryText, string defaultLevel,
                   string mutation>
    : AMIR_Op<mnemonic, [AMIR_AccessOpInterface]> {
  let summary = summaryText;
  let arguments = (ins AMIR_AnyVariable:$variable, Variadic<Index>:$indices,
                       AffineMapAttr:$map, DenseBoolArrayAttr:$intervals,
                       GpuIR_QualTimelineAttr:$quals,
                       OptionalAttr<AMIR_VisibilityLevelAttr>:$level,
                       OptionalAttr<StrAttr>:$order);
  let assemblyFormat = [{
    $variable `` custom<Window>($indices, $map, $intervals)
    `on` custom<QualSet>($quals) `` custom<Level>($level) (`order` $order^)? attr-dict `:` type($variable)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The visibility the check requires: `level` if given, else the
    /// default of this kind of check.
    ::mlir::rake::amir::VisibilityLevel getRequiredLevel() {
      if (auto l = getLevel())
        return *l;
      return ::mlir::rake::amir::VisibilityLevel::}] # defaultLevel # [{;
    }
    bool isMutation() { return }] # mutation # [{; }
    bool isCheck() { return true; }
    bool isOutOfOrder() { return false; }
    std::optional<::mlir::rake::amir::VisibilityLevel> getCheckedLevel() {
      return getRequiredLevel();
    }
  }];
}

def AMIR_CheckReadsOp : AMIR_CheckOp<"check_reads",
    "check that the window may be read: prior mutations are visible", "fully_ordered",
    "false"> {
  let description = [{
    Fails unless every prior mutation of the window is visible to the
    current threads on the given timelines at least at `level`.

    ```mlir
    amir.check_reads %tile[%t] on cuda_in_order_ram : !amir.data
    ```
  }];
}
def AMIR_CheckMutatesOp : AMIR_CheckOp<"check_mutates",
    "check that the window may be mutated: prior accesses are ordered before",
    "temporally_ordered", "true"> {
  let description = [{
    Fails unless every prior read and mutation of the window is visible to
    the current threads on the given timelines at least at `level`.
  }];
}

def AMIR_FenceOp : AMIR_Op<"fence"> {
  let summary = "a fence of the current threads";
  let description = [{
    Accesses of the current threads on `pre` become visible after the fence
    on `full` (fully) and `temporal` (temporally).

    ```mlir
    amir.fence pre(cuda_in_order_ram | cuda_in_order_rmem) full(cuda_in_order_ram | cuda_in_order_rmem) temporal(cuda_in_order_ram) transitive
    ```
  }];
  let arguments = (ins GpuIR_QualTimelineAttr:$pre,
                       GpuIR_QualTimelineAttr:$full,
                       GpuIR_QualTimelineAttr:$temporal,
                       UnitAttr:$transitive);
  let assemblyFormat = [{
    `pre` `(` custom<QualSet>($pre) `)` `full` `(` custom<QualSet>($full) `)`
    `temporal` `(` custom<QualSet>($temporal) `)` (`transitive` $transitive^)? attr-dict
  }];
}

def AMIR_ArriveOp : AMIR_Op<"arrive"> {
  let summary = "arrive on a barrier";
  let description = [{
    Accesses of the current threads on `pre` are captured by the barrier;
    the barrier itself is accessed on `on`. With `last(n)`, only the last
    `n` accesses the threads recorded are: an instruction completing on its
    trailing barrier.

    ```mlir
    amir.arrive %full[%s] pre(tma_to_smem_async) on cuda_in_order_ram : !amir.barrier<mbarrier>
    ```
  }];
  let arguments = (ins AMIR_BarrierType:$barrier, Variadic<Index>:$indices,
                       AffineMapAttr:$map, DenseBoolArrayAttr:$intervals,
                       GpuIR_QualTimelineAttr:$pre,
                       GpuIR_QualTimelineAttr:$quals,
                       UnitAttr:$transitive,
                       OptionalAttr<GpuIR_IntAttr>:$last);
  let assemblyFormat = [{
    $barrier `` custom<Window>($indices, $map, $intervals)
    `pre` `(` custom<QualSet>($pre) `)` `on` custom<QualSet>($quals)
    (`transitive` $transitive^)? (`last` `(` $last^ `)`)? attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def AMIR_AwaitOp : AMIR_Op<"await"> {
  let summary = "await a barrier";
  let description = [{
    Accesses captured by the matching arrives become visible to the current
    threads on `full` (fully) and `temporal` (temporally). With `read`, on a
    TMA store group, only the captured reads of shared memory (the bulk
    copies' sources) do.

    ```mlir
    amir.await %full[%s] full(cuda_in_order_ram) temporal(cuda_in_order_ram) lag(1) : !amir.barrier<mbarrier>
    ```

    With `skip`, the threads count the phase as awaited without waiting
    (gpuir.await's `skip`): nothing becomes visible.
  }];
  let arguments = (ins AMIR_BarrierType:$barrier, Variadic<Index>:$indices,
                       AffineMapAttr:$map, DenseBoolArrayAttr:$intervals,
                       GpuIR_QualTimelineAttr:$full,
                       GpuIR_QualTimelineAttr:$temporal,
                       OptionalAttr<GpuIR_IntAttr>:$lag,
                       OptionalAttr<GpuIR_IntAttr>:$outstanding,
                       UnitAttr:$read,
                       UnitAttr:$skip);
  let assemblyFormat = [{
    $barrier `` custom<Window>($indices, $map, $intervals)
    `full` `(` custom<QualSet>($full) `)` `temporal` `(` custom<QualSet>($temporal) `)`
    (`lag` `(` $lag^ `)`)? (`outstanding` `(` $outstanding^ `)`)? (`read` $read^)? (`skip` $skip^)? attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

#endif // RAKE_AMIR_OPS
