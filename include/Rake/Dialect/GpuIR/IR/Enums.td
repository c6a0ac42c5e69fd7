//===- Enums.td - GpuIR enumerations -----------------------*- tablegen -*-===//

#ifndef RAKE_GPUIR_ENUMS
#define RAKE_GPUIR_ENUMS

include "mlir/IR/EnumAttr.td"
include "Rake/Dialect/GpuIR/IR/Dialect.td"

def GpuIR_LoopMode : I32EnumAttr<"LoopMode", "loop mode", [
    I32EnumAttrCase<"seq", 0>,
    I32EnumAttrCase<"cuda_tasks", 1>,
    I32EnumAttrCase<"cuda_threads", 2>]> {
  let cppNamespace = "::mlir::rake::gpuir";
  let genSpecializedAttr = 0;
}

// The named collective units of the thread hierarchy. `scale` multiplies a
// unit's box (8 x thread); the strided units take a CTA stride.
def GpuIR_CollUnitKind : I32EnumAttr<"CollUnitKind", "collective unit", [
    I32EnumAttrCase<"thread", 0>,
    I32EnumAttrCase<"quadpair", 1>,
    I32EnumAttrCase<"warp", 2>,
    I32EnumAttrCase<"warpgroup", 3>,
    I32EnumAttrCase<"cta_in_cluster", 4>,
    I32EnumAttrCase<"cluster", 5>,
    I32EnumAttrCase<"warp_in_cluster", 6>,
    I32EnumAttrCase<"cta_in_cluster_strided", 7>,
    I32EnumAttrCase<"warp_in_cluster_strided", 8>]> {
  let cppNamespace = "::mlir::rake::gpuir";
  let genSpecializedAttr = 0;
}

// How an arrive/await pair completes (the paper's BarrierComp).
def GpuIR_BarrierMechanism : I32EnumAttr<"BarrierMechanism",
    "barrier completion mechanism", [
    I32EnumAttrCase<"mbarrier", 0>,
    I32EnumAttrCase<"mbarrier_prearrive", 1>,
    I32EnumAttrCase<"cluster_sync", 2>,
    I32EnumAttrCase<"cp_async_group", 3>,
    I32EnumAttrCase<"tma_store_group", 4>,
    I32EnumAttrCase<"wgmma_group", 5>]> {
  let cppNamespace = "::mlir::rake::gpuir";
  let genSpecializedAttr = 0;
}

// Qualitative timelines: what kind of access (which instruction class on
// which kind of memory) a recorded read or write is. A set of them is a bit
// set; sync timelines are defined as such sets (see SyncTimeline).
def GpuIR_QualTimeline : I32BitEnumAttr<"QualTimeline",
    "qualitative timeline set", [
    I32BitEnumAttrCaseNone<"none">,
    I32BitEnumAttrCaseBit<"cpu_in_order", 0>,
    I32BitEnumAttrCaseBit<"cpu_cuda_stream", 1>,
    I32BitEnumAttrCaseBit<"cuda_in_order_rmem", 2>,
    I32BitEnumAttrCaseBit<"cuda_in_order_ram", 3>,
    I32BitEnumAttrCaseBit<"Sm80_cp_async", 4>,
    I32BitEnumAttrCaseBit<"tma_to_smem_async", 5>,
    I32BitEnumAttrCaseBit<"tma_to_gmem_async", 6>,
    I32BitEnumAttrCaseBit<"wgmma_async_rmem_a", 7>,
    I32BitEnumAttrCaseBit<"wgmma_async_rmem_d", 8>,
    I32BitEnumAttrCaseBit<"wgmma_async_smem", 9>,
    I32BitEnumAttrCaseBit<"wgmma_zero", 10>]> {
  let cppNamespace = "::mlir::rake::gpuir";
  let genSpecializedAttr = 0;
  let separator = " | ";
  let printBitEnumPrimaryGroups = 0;
}

// Synchronization timelines: parameters of fence, arrive and await. Each is
// defined once, as data, in SyncTimelines.cpp.
def GpuIR_SyncTimeline : I32EnumAttr<"SyncTimeline", "sync timeline", [
    I32EnumAttrCase<"empty", 0>,
    I32EnumAttrCase<"cpu_in_order", 1>,
    I32EnumAttrCase<"cuda_stream_sync", 2>,
    I32EnumAttrCase<"cuda_in_order", 3>,
    I32EnumAttrCase<"cuda_temporal", 4>,
    I32EnumAttrCase<"Sm80_cp_async", 5>,
    I32EnumAttrCase<"Sm80_generic", 6>,
    I32EnumAttrCase<"tma_to_smem_async", 7>,
    I32EnumAttrCase<"tma_to_gmem_async", 8>,
    I32EnumAttrCase<"wgmma_async_smem", 9>,
    I32EnumAttrCase<"wgmma_fence_1", 10>,
    I32EnumAttrCase<"wgmma_fence_2", 11>,
    I32EnumAttrCase<"wgmma_async", 12>,
    I32EnumAttrCase<"cuda_async_proxy", 13>,
    I32EnumAttrCase<"cuda_async_proxy_wgmma", 14>,
    I32EnumAttrCase<"cuda_generic_and_async_proxy", 15>]> {
  let cppNamespace = "::mlir::rake::gpuir";
  let genSpecializedAttr = 0;
}

// The instruction timeline of an instruction: which class of hardware
// instruction it is; selects the qualitative timeline of its accesses.
def GpuIR_InstrTimeline : I32EnumAttr<"InstrTimeline", "instruction timeline", [
    I32EnumAttrCase<"cpu_in_order", 0>,
    I32EnumAttrCase<"cpu_cuda_stream", 1>,
    I32EnumAttrCase<"cuda_in_order", 2>,
    I32EnumAttrCase<"Sm80_cp_async", 3>,
    I32EnumAttrCase<"tma_to_smem_async", 4>,
    I32EnumAttrCase<"tma_to_gmem_async", 5>,
    I32EnumAttrCase<"wgmma_async", 6>,
    I32EnumAttrCase<"wgmma_zero", 7>]> {
  let cppNamespace = "::mlir::rake::gpuir";
  let genSpecializedAttr = 0;
}

def GpuIR_AccessMode : I32EnumAttr<"AccessMode", "instruction parameter access", [
    I32EnumAttrCase<"read", 0>,
    I32EnumAttrCase<"write", 1>,
    I32EnumAttrCase<"read_write", 2>]> {
  let cppNamespace = "::mlir::rake::gpuir";
  let genSpecializedAttr = 0;
}

def GpuIR_RegisterChange : I32EnumAttr<"RegisterChange", "setmaxnreg direction", [
    I32EnumAttrCase<"none", 0>,
    I32EnumAttrCase<"dec", 1>,
    I32EnumAttrCase<"inc", 2>]> {
  let cppNamespace = "::mlir::rake::gpuir";
  let genSpecializedAttr = 0;
}

def GpuIR_CmpPredicate : I32EnumAttr<"CmpPredicate", "control comparison", [
    I32EnumAttrCase<"eq", 0, "==">,
    I32EnumAttrCase<"lt", 1, "<">,
    I32EnumAttrCase<"le", 2, "<=">,
    I32EnumAttrCase<"gt", 3, ">">,
    I32EnumAttrCase<"ge", 4, ">=">]> {
  let cppNamespace = "::mlir::rake::gpuir";
  let genSpecializedAttr = 0;
}

#endif // RAKE_GPUIR_ENUMS
