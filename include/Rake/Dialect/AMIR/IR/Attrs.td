//===- Attrs.td - AMIR attributes and types ----------------*- tablegen -*-===//

#ifndef RAKE_AMIR_ATTRS
#define RAKE_AMIR_ATTRS

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "Rake/Dialect/AMIR/IR/Dialect.td"

// Ordered: a higher level implies every lower one.
def AMIR_VisibilityLevel : I32EnumAttr<"VisibilityLevel", "visibility level", [
    I32EnumAttrCase<"invisible", 0>,
    I32EnumAttrCase<"atomic_only", 1>,
    I32EnumAttrCase<"unordered", 2>,
    I32EnumAttrCase<"temporally_ordered", 3>,
    I32EnumAttrCase<"fully_ordered", 4>]> {
  let cppNamespace = "::mlir::rake::amir";
  let genSpecializedAttr = 0;
}

def AMIR_VisibilityLevelAttr
    : EnumAttr<AMIR_Dialect, AMIR_VisibilityLevel, "visibility"> {
  let summary = "how far a recorded access is visible to a thread";
  let assemblyFormat = "`<` $value `>`";
}

class AMIR_Attr<string name, string attrMnemonic>
    : AttrDef<AMIR_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def AMIR_DomainAttr : AMIR_Attr<"Domain", "domain"> {
  let summary = "thread mapping of a device function: all threads of a cluster";
  let description = [{
    The cluster's threads as a mixed-radix domain (outermost first): natural
    thread index `t` has coordinates `t` written in these radixes. Nested
    tiles and slices narrow the coordinates.

    ```mlir
    #amir.domain<[2, 3, 128]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$extents);
  let assemblyFormat = "`<` `[` $extents `]` `>`";
}

def AMIR_TileAttr : AMIR_Attr<"Tile", "tile"> {
  let summary = "thread mapping of a loop over threads";
  let description = [{
    Iteration `i` (counted from the lower bound) of the loop runs on the
    threads whose coordinate `dim` is in `[s, s + box)` past the start that
    the enclosing scopes left, where `s = ((offset + i * step) floordiv div)
    mod mod` (`mod = 0`: no modulus). A loop whose range crosses a dimension
    boundary has one tile per dimension it moves along.

    ```mlir
    #amir.tile<dim = 2, offset = 0, step = 32, box = 32>
    ```
  }];
  let parameters = (ins "int64_t":$dim, "int64_t":$offset, "int64_t":$step,
                        "int64_t":$box,
                        DefaultValuedParameter<"int64_t", "1">:$div,
                        DefaultValuedParameter<"int64_t", "0">:$mod);
  let assemblyFormat = "`<` struct(params) `>`";
}

def AMIR_SliceAttr : AMIR_Attr<"Slice", "slice"> {
  let summary = "thread mapping of a guard that selects warps";
  let description = [{
    The guard's body runs on the threads whose coordinate `dim` is in
    `[lo, hi)` past the start that the enclosing scopes left.

    ```mlir
    #amir.slice<dim = 1, lo = 1, hi = 3>
    ```
  }];
  let parameters = (ins "int64_t":$dim, "int64_t":$lo, "int64_t":$hi);
  let assemblyFormat = "`<` struct(params) `>`";
}

def AMIR_ThreadMapping : AnyAttrOf<[AMIR_DomainAttr, AMIR_TileAttr, AMIR_SliceAttr,
    TypedArrayAttrBase<AnyAttrOf<[AMIR_TileAttr, AMIR_SliceAttr]>, "tiles">]>;

class AMIR_Type<string name, string typeMnemonic>
    : TypeDef<AMIR_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def AMIR_DataType : AMIR_Type<"Data", "data"> {
  let summary = "a data variable: the history of accesses to a buffer";
}

def AMIR_BarrierType : AMIR_Type<"Barrier", "barrier"> {
  let summary = "a barrier variable and its completion mechanism";
  let parameters = (ins "::mlir::rake::gpuir::BarrierMechanism":$mechanism);
  let assemblyFormat = "`<` $mechanism `>`";
}

def AMIR_AnyVariable : AnyTypeOf<[AMIR_DataType, AMIR_BarrierType]>;

#endif // RAKE_AMIR_ATTRS
