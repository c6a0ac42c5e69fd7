//===- Attrs.td - GpuIR attributes -------------------------*- tablegen -*-===//

#ifndef RAKE_GPUIR_ATTRS
#define RAKE_GPUIR_ATTRS

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "Rake/Dialect/GpuIR/IR/Dialect.td"
include "Rake/Dialect/GpuIR/IR/Enums.td"
include "Rake/Dialect/GpuIR/IR/Interfaces.td"

// A 64-bit integer read back as signed, so that verifiers see negative values.
def GpuIR_IntAttr : TypedSignlessIntegerAttrBase<I64, "int64_t",
                                                 "64-bit integer attribute"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

class GpuIR_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<GpuIR_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Timelines
//===----------------------------------------------------------------------===//

def GpuIR_QualTimelineAttr : EnumAttr<GpuIR_Dialect, GpuIR_QualTimeline, "quals"> {
  let summary = "a set of qualitative timelines";
  let assemblyFormat = "`<` $value `>`";
}

def GpuIR_SyncTimelineAttr : EnumAttr<GpuIR_Dialect, GpuIR_SyncTimeline, "sync"> {
  let summary = "a synchronization timeline";
  let description = [{
    A sync timeline names the accesses that a fence, arrive or await orders:
    a full set of qualitative timelines (ordered in time and made visible), a
    temporal set (only ordered in time; enough before an overwrite), and
    whether the synchronization is transitive. The table is in
    `lib/Dialect/GpuIR/IR/SyncTimelines.cpp`.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def GpuIR_LoopModeAttr : EnumAttr<GpuIR_Dialect, GpuIR_LoopMode, "loop_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

def GpuIR_BarrierMechanismAttr
    : EnumAttr<GpuIR_Dialect, GpuIR_BarrierMechanism, "mechanism"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Collective units, collective types and tilings
//===----------------------------------------------------------------------===//

def GpuIR_CollTypeAttr : GpuIR_Attr<"CollType", "coll"> {
  let summary = "a collective type: a domain and a box of threads";
  let description = [{
    A collective type describes a shape of thread set inside a cluster. The
    domain splits the cluster's threads into a hierarchy (outermost first),
    the box says how many elements of each level one collective takes. Sizes
    are products of `clusterDim`, `blockDim` and rational constants; `*` in a
    box matches any size.

    ```mlir
    #gpuir.coll<domain [clusterDim, blockDim / 16, 16] box [1, 2, 4]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::rake::gpuir::CollSize">:$domain,
                        ArrayRefParameter<"::mlir::rake::gpuir::CollSize">:$box);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def GpuIR_CollUnitAttr : GpuIR_Attr<"CollUnit", "unit"> {
  let summary = "a collective unit: the shape of the threads that run a statement";
  let description = [{
    The named units of the thread hierarchy. A scaled unit takes several
    units' worth of threads along the unit's scaled dimension; the strided
    units pick one CTA (or one warp of one CTA) out of each group of
    `stride` CTAs in the cluster.

    ```mlir
    #gpuir.unit<thread>            #gpuir.unit<8 x thread>
    #gpuir.unit<quadpair>          #gpuir.unit<warp>
    #gpuir.unit<warpgroup>         #gpuir.unit<cta_in_cluster>
    #gpuir.unit<cluster>           #gpuir.unit<warp_in_cluster>
    #gpuir.unit<cta_in_cluster_strided(2)>
    #gpuir.unit<warp_in_cluster_strided(2)>
    ```
  }];
  let parameters = (ins "::mlir::rake::gpuir::CollUnitKind":$kind,
                        DefaultValuedParameter<"int64_t", "1">:$scale,
                        DefaultValuedParameter<"int64_t", "0">:$stride);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The domain and box of this unit, with the scale applied.
    CollTypeAttr getCollType() const;
    /// Threads in one unit for the given launch shape, if it divides evenly.
    std::optional<int64_t> getNumThreads(int64_t blockDim, int64_t clusterDim) const;
  }];
}

def GpuIR_TileOpAttr : GpuIR_Attr<"TileOp", "tile"> {
  let summary = "one refinement of a collective tiling";
  let description = [{
    Iteration `i` (counted from the loop's lower bound) of the loop at
    `level` (0 = the outermost cuda_threads loop or warps region of the
    device function) takes `box` coordinates of dimension `dim` of the
    tiling's domain, starting at `((offset + i * step) floordiv div) mod mod`
    past where the earlier refinements of that dimension start (`mod = 0`:
    no modulus). A warps region is a refinement with count 1. `div` and `mod`
    appear when a dimension was split inside a loop's range.
  }];
  let parameters = (ins "int64_t":$level, "int64_t":$dim, "int64_t":$offset,
                        "int64_t":$step, "int64_t":$box, "int64_t":$count,
                        DefaultValuedParameter<"int64_t", "1">:$div,
                        DefaultValuedParameter<"int64_t", "0">:$mod);
  // Printed compactly, `<LEVEL: dDIM COUNT x BOX>` followed by `step S`,
  // `offset O`, `div D`, `mod M` where they differ from BOX, 0, 1, 0
  // (`<0: d1 3 x 128>`); the keyword form `<level = 0, dim = 1, offset = 0,
  // step = 128, box = 128, count = 3>` is read too.
  let hasCustomAssemblyFormat = 1;
}

def GpuIR_CollTilingAttr : GpuIR_Attr<"CollTiling", "tiling"> {
  let summary = "the collective tiling of a scope";
  let description = [{
    The thread hierarchy of the cluster as a domain (outermost first, after
    the hierarchical splits that align it with the scope's units), and the
    refinements that the enclosing cuda_threads loops and warps regions made,
    outermost first. Collective analysis attaches one to every scope.

    ```mlir
    #gpuir.tiling<domain [2, 384] ops [<level = 0, dim = 1, offset = 0, step = 128, box = 128, count = 3>]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$domain,
                        OptionalArrayRefParameter<"TileOpAttr">:$ops);
  let assemblyFormat = "`<` `domain` ` ` `[` $domain `]` (` ` `ops` ` ` `[` $ops^ `]`)? `>`";
}

def GpuIR_ShardingAttr : GpuIR_Attr<"Sharding", "sharding"> {
  let summary = "how a buffer is distributed over the threads that own it";
  let description = [{
    The result of distributed memory analysis: the buffer's leading
    dimensions d0, d1, ... are distributed over copies of the memory type's
    native unit (one thread's registers, one CTA's shared memory), and the
    copy at (d0, d1, ...) belongs to the threads `owner` natural thread
    indices after those of copy 0: each dimension's index times its thread
    pitch. `whole` is a buffer that one collective owns whole. (The pitches
    alone, `<[256, 1]>`, parse too.)

    ```mlir
    #gpuir.sharding<owner = d0 * 256 + d1>   // acc[cta, t, ...]: one row per thread of 2 CTAs of 256
    #gpuir.sharding<owner = d0 * 64 + d1 * 32 + d2>   // per thread of 2 x 2 warps
    #gpuir.sharding<whole>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$pitches);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Memory types
//===----------------------------------------------------------------------===//

class GpuIR_MemoryAttr<string name, string attrMnemonic>
    : GpuIR_Attr<name, attrMnemonic, [
        DeclareAttrInterfaceMethods<GpuIR_MemoryTypeAttrInterface>]>;

def GpuIR_HostAttr : GpuIR_MemoryAttr<"Host", "host"> {
  let summary = "host (CPU) memory";
}
def GpuIR_GmemAttr : GpuIR_MemoryAttr<"Gmem", "gmem"> {
  let summary = "global memory, row-major";
}
def GpuIR_GmemAtomic16Attr : GpuIR_MemoryAttr<"GmemAtomic16", "gmem_atomic16"> {
  let summary = "global memory accessed in 16-byte atomic units";
}
def GpuIR_SmemAttr : GpuIR_MemoryAttr<"Smem", "smem"> {
  let summary = "shared memory of a CTA, row-major";
}
def GpuIR_SmemAtomic16Attr : GpuIR_MemoryAttr<"SmemAtomic16", "smem_atomic16"> {
  let summary = "shared memory accessed in 16-byte atomic units";
}
def GpuIR_SmemSwizzledAttr : GpuIR_MemoryAttr<"SmemSwizzled", "smem_swizzled"> {
  let summary = "shared memory in the 32, 64 or 128-byte swizzled layout of TMA and wgmma";
  let parameters = (ins "int64_t":$bytes);
  let assemblyFormat = "`<` $bytes `>`";
  let genVerifyDecl = 1;
}
def GpuIR_RmemAttr : GpuIR_MemoryAttr<"Rmem", "rmem"> {
  let summary = "registers of one thread";
}
def GpuIR_UniformRmemAttr : GpuIR_MemoryAttr<"UniformRmem", "urmem"> {
  let summary = "uniform registers of one warp";
}
def GpuIR_GridConstantAttr : GpuIR_MemoryAttr<"GridConstant", "grid_constant"> {
  let summary = "a value passed to the kernel as a __grid_constant__ parameter";
}

//===----------------------------------------------------------------------===//
// Device function configuration
//===----------------------------------------------------------------------===//

def GpuIR_WarpGroupAttr : GpuIR_Attr<"WarpGroup", "warp_group"> {
  let summary = "a named group of warps of a device function";
  let description = [{
    `count` warps named `name`; with `dec(n)` or `inc(n)` the group's warps
    set their register count to `n` with setmaxnreg when they start.
  }];
  let parameters = (ins "::mlir::StringAttr":$name, "int64_t":$count,
                        "::mlir::rake::gpuir::RegisterChange":$change,
                        "int64_t":$registers);
  let hasCustomAssemblyFormat = 1;
}

#endif // RAKE_GPUIR_ATTRS
