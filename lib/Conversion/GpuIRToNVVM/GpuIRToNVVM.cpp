//===- GpuIRToNVVM.cpp - GpuIR device functions to GPU kernels ------------===//
//
// A procedure whose body is a device function becomes a kernel in a
// gpu.func of one gpu.module, from where MLIR's GPU and NVVM lowerings take
// it to PTX. This file holds the pass (convert-gpuir-to-nvvm), which runs
// the collective and distributed memory analyses and lowers each procedure
// with a DeviceLowering (DeviceLowering.h), and the pipeline to PTX with
// its pass that declares the dynamic shared memory external.
//
// - Persistent kernel: the host launches as many CTAs as fill the device
//   (SMs times blocks_per_sm, recorded on the kernel); the cuda_tasks nest
//   is walked in lexicographic order, CTA b taking tasks b, b + gridDim, ...
// - A cuda_threads loop becomes an index function of the thread's
//   coordinate in its scope's tiling (from the collective analysis), under a
//   guard that keeps the threads with no iteration out.
// - Shared memory: each allocation is a workgroup buffer of the kernel.
// - A fence on the in-order timelines is bar.sync over a CTA, bar.warp.sync
//   over a warp and a named barrier over an aligned group of warps.
// - Clusters, warp paths (one code path per path, setmaxnreg), split
//   barriers on mbarriers and commit groups, and the Sm80/Sm90a instructions
//   are lowered (docs/Codegen.md).
//
// What cannot be lowered (register buffers too large for registers, shared
// memory past the profile's limit, accesses proven out of bounds) is
// refused with a diagnostic at the op.
//
// - Fused regions: the ops of the i-th gpuir.fused (program order) carry a
//   marker in their locations through the lowering; at the end, a kernel
//   with fused regions gets a line table of its own (file
//   `rake-fused-regions`: line 1 outside the regions, line 2 + i inside
//   region i) that ptxas keeps in the cubin, so that rake-verify can tell
//   which machine instructions belong to which region.
//
// The lowering itself is split by concern: DeviceLowering.cpp (the kernel,
// warp paths, the task nest and loops), DeviceMemory.cpp (shared and
// register memory, TMA) and DeviceBarriers.cpp (mbarriers, arrives and
// awaits, commit groups, fences).
//
//===----------------------------------------------------------------------===//

#include "DeviceLowering.h"

#include "Rake/Analysis/CollectiveAnalysis.h"
#include "Rake/Analysis/TensorCoreRule.h"
#include "Rake/Analysis/DistributedMemory.h"
#include "Rake/Analysis/KernelABI.h"
#include "Rake/Conversion/Passes.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::rake {
#define GEN_PASS_DEF_CONVERTGPUIRTONVVM
#include "Rake/Conversion/Passes.h.inc"
} // namespace mlir::rake

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

//===----------------------------------------------------------------------===//
// Fused regions in the line table
//===----------------------------------------------------------------------===//

static constexpr llvm::StringLiteral kFusedMarker = "rake.fused_region.";

/// Gives the ops of each fused region of \p proc (numbered in program order)
/// a location that names the region, which the lowering carries to the ops
/// it makes from them.
static void markFusedRegions(ProcOp proc) {
  MLIRContext *ctx = proc.getContext();
  unsigned next = 0;
  proc.walk<WalkOrder::PreOrder>([&](FusedOp fused) {
    StringAttr name =
        StringAttr::get(ctx, kFusedMarker + std::to_string(next++));
    fused.walk([&](Operation *op) {
      op->setLoc(NameLoc::get(name, op->getLoc()));
    });
  });
}

/// The fused region a location marks, if any.
static std::optional<unsigned> fusedRegionOf(Location loc) {
  std::optional<unsigned> found;
  loc->walk([&](Location l) {
    auto named = dyn_cast<NameLoc>(l);
    StringRef name = named ? named.getName().strref() : StringRef();
    unsigned k;
    if (name.consume_front(kFusedMarker) && !name.getAsInteger(10, k)) {
      found = k;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

namespace {
/// The line table of kernels with fused regions: every op of such a
/// function gets the location `rake-fused-regions`:L, L = 2 + i in fused
/// region i and 1 elsewhere, under a debug-directives-only compile unit
/// (PTX .file/.loc, no DWARF sections of its own), from which ptxas writes
/// the cubin's .debug_line. Kernels without fused regions are left alone
/// (their PTX and cubin are unchanged).
struct FusedRegionLines
    : PassWrapper<FusedRegionLines, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FusedRegionLines)
  StringRef getArgument() const override { return "rake-fused-region-lines"; }
  StringRef getDescription() const override {
    return "Mark the machine code of fused regions in the line table";
  }
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    StringAttr fileName = StringAttr::get(ctx, "rake-fused-regions");
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      bool any = false;
      func.walk([&](Operation *op) {
        any |= op != func && fusedRegionOf(op->getLoc()).has_value();
      });
      if (!any)
        continue;
      auto file = LLVM::DIFileAttr::get(ctx, fileName, StringAttr::get(ctx, ""));
      auto unit = LLVM::DICompileUnitAttr::get(
          DistinctAttr::create(UnitAttr::get(ctx)), llvm::dwarf::DW_LANG_C,
          file, StringAttr::get(ctx, "rake"), /*isOptimized=*/true,
          LLVM::DIEmissionKind::DebugDirectivesOnly);
      auto program = LLVM::DISubprogramAttr::get(
          ctx, DistinctAttr::create(UnitAttr::get(ctx)), unit, file,
          func.getSymNameAttr(), func.getSymNameAttr(), file, /*line=*/1,
          /*scopeLine=*/1,
          LLVM::DISubprogramFlags::Definition |
              LLVM::DISubprogramFlags::Optimized,
          LLVM::DISubroutineTypeAttr::get(ctx, {}), {}, {});
      func.walk([&](Operation *op) {
        if (op == func)
          return;
        std::optional<unsigned> k = fusedRegionOf(op->getLoc());
        op->setLoc(FileLineColLoc::get(fileName, k ? 2 + *k : 1, 0));
      });
      func->setLoc(
          FusedLoc::get(ctx, {FileLineColLoc::get(fileName, 1, 0)}, program));
    }
  }
};
} // namespace

namespace {
/// LLVM gives an instruction line 0 when it cannot name one source line
/// for it (an instruction hoisted or sunk, or merged from two), and the
/// NVPTX back end writes `.loc F 0 0`, for which ptxas writes no line-table
/// row: the machine instruction would take the row before it, which may be
/// a fused region's. In a PTX module with fused regions, line 0 becomes
/// line 1 (outside the regions): a fused region's own instructions all
/// have its line, so what LLVM could not place is counted outside, never
/// code from outside counted in a region.
struct FusedRegionLinesInPtx
    : PassWrapper<FusedRegionLinesInPtx, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FusedRegionLinesInPtx)
  StringRef getArgument() const override {
    return "rake-fused-region-lines-in-ptx";
  }
  StringRef getDescription() const override {
    return "Give PTX line-0 locations the line outside fused regions";
  }
  static std::optional<std::string> rewrite(StringRef ptx) {
    // `.file N "rake-fused-regions"`
    std::string file;
    for (StringRef line : llvm::split(ptx, '\n')) {
      StringRef t = line.trim();
      if (t.consume_front(".file") && t.ends_with("\"rake-fused-regions\"")) {
        file = t.trim().split(' ').first.split('\t').first.str();
        break;
      }
    }
    if (file.empty())
      return std::nullopt;
    std::string out;
    out.reserve(ptx.size());
    for (StringRef line : llvm::split(ptx, '\n')) {
      SmallVector<StringRef> w;
      line.split(w, ' ', -1, false);
      SmallVector<StringRef> words;
      for (StringRef part : w) {
        SmallVector<StringRef> tabs;
        part.split(tabs, '\t', -1, false);
        words.append(tabs.begin(), tabs.end());
      }
      if (words.size() >= 3 && words[0] == ".loc" && words[1] == file &&
          words[2] == "0")
        out += "\t.loc\t" + file + " 1 0";
      else
        out += line.str();
      out += '\n';
    }
    if (!ptx.ends_with("\n") && !out.empty())
      out.pop_back();
    return out;
  }
  void runOnOperation() override {
    getOperation().walk([&](gpu::BinaryOp binary) {
      SmallVector<Attribute> objects;
      bool changed = false;
      for (Attribute a : binary.getObjectsAttr()) {
        auto object = cast<gpu::ObjectAttr>(a);
        std::optional<std::string> text;
        if (object.getFormat() == gpu::CompilationTarget::Assembly)
          text = rewrite(object.getObject().getValue());
        if (!text) {
          objects.push_back(a);
          continue;
        }
        changed = true;
        objects.push_back(gpu::ObjectAttr::get(
            object.getTarget(), object.getFormat(),
            StringAttr::get(&getContext(), *text), object.getProperties(),
            object.getKernels()));
      }
      if (changed)
        binary.setObjectsAttr(ArrayAttr::get(&getContext(), objects));
    });
  }
};
} // namespace

namespace {

struct ConvertGpuIRToNVVM
    : rake::impl::ConvertGpuIRToNVVMBase<ConvertGpuIRToNVVM> {
  using ConvertGpuIRToNVVMBase::ConvertGpuIRToNVVMBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The profile's tensor-core rule: no matrix product on the CUDA cores
    // outside a slow loop.
    // The rule of the profile for the target (sm_90a's for targets no
    // profile has, such as sm_80).
    std::string profile =
        chip == "sm_120a" ? "nvidia-ptx-sm120a" : "nvidia-ptx-sm90a";
    if (failed(checkTensorCoreRule(module, profile)))
      return signalPassFailure();
    CollectiveAnalysis coll(module);
    if (failed(coll.emitErrors()))
      return signalPassFailure();
    DistributedMemoryAnalysis dist(module, coll);
    if (failed(dist.emitErrors()))
      return signalPassFailure();
    OpBuilder b(module.getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    // One device module for all the procedures' kernels, so that a file of
    // several procedures compiles to one PTX module (and one cubin).
    gpu::GPUModuleOp gpuModule;
    for (ProcOp proc : llvm::to_vector(module.getOps<ProcOp>())) {
      if (failed(expandExactMath(proc, /*device=*/true)))
        return signalPassFailure();
      markFusedRegions(proc);
      b.setInsertionPoint(proc);
      if (!gpuModule)
        gpuModule = gpu::GPUModuleOp::create(
            b, proc.getLoc(), (proc.getSymName() + "_device").str());
      nvvm_detail::DeviceLowering lowering(b, coll, dist, chip);
      if (failed(lowering.lowerProc(proc, gpuModule)))
        return signalPassFailure();
      proc.erase();
    }
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// The pipeline to PTX
//===----------------------------------------------------------------------===//

namespace {
enum class BinaryFormat { isa, bin, fatbin };
struct PtxPipelineOptions : PassPipelineOptions<PtxPipelineOptions> {
  PassOptions::Option<std::string> chip{*this, "chip",
                                        llvm::cl::desc("The target SM"),
                                        llvm::cl::init("sm_90a")};
  PassOptions::Option<BinaryFormat> format{
      *this, "format",
      llvm::cl::desc("What gpu-module-to-binary makes"),
      llvm::cl::init(BinaryFormat::isa),
      llvm::cl::values(
          clEnumValN(BinaryFormat::isa, "isa", "PTX text"),
          clEnumValN(BinaryFormat::bin, "bin", "a cubin (needs ptxas)"),
          clEnumValN(BinaryFormat::fatbin, "fatbin", "a fat binary"))};
};
} // namespace

namespace {
/// MLIR lowers gpu.dynamic_shared_memory to an internal zero-sized shared
/// global, which the NVPTX back end demotes to a one-byte static variable
/// that the dynamic buffer would overlap. An external declaration is what
/// PTX means by dynamic shared memory (`.extern .shared ... []`); it is
/// aligned for every use of the layout (SharedMemoryLayout's alignments).
struct ExternDynamicSharedMemory
    : PassWrapper<ExternDynamicSharedMemory, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExternDynamicSharedMemory)
  StringRef getArgument() const override {
    return "rake-extern-dynamic-shared-memory";
  }
  StringRef getDescription() const override {
    return "Declare the dynamic shared memory global external and aligned";
  }
  void runOnOperation() override {
    int64_t alignment = SharedMemoryLayout::kAlignment;
    if (auto attr = getOperation()->getAttrOfType<IntegerAttr>(
            "rake.shared_alignment"))
      alignment = attr.getInt();
    getOperation().walk([&](LLVM::GlobalOp global) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() != 3 || !array || array.getNumElements() != 0)
        return;
      global.setLinkage(LLVM::Linkage::External);
      global.setAlignment(alignment);
    });
  }
};
} // namespace

void mlir::rake::buildGpuIRToPtxPipeline(OpPassManager &pm, StringRef chip,
                                         StringRef format,
                                         StringRef ptxasOptions) {
  ConvertGpuIRToNVVMOptions convert;
  convert.chip = chip.str();
  pm.addPass(createConvertGpuIRToNVVM(convert));
  pm.addNestedPass<gpu::GPUModuleOp>(createRakeModCounters());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = chip.str();
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createConvertNVGPUToNVVMPass());
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(createConvertVectorToLLVMPass());
  // NVVM ops that are PTX with a loop (mbarrier.try_wait.parity) become
  // inline assembly.
  device.addPass(createConvertNVVMToLLVMPass());
  device.addPass(std::make_unique<ExternDynamicSharedMemory>());
  device.addPass(std::make_unique<FusedRegionLines>());
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format.str();
  binary.cmdOptions = ptxasOptions.str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(std::make_unique<FusedRegionLinesInPtx>());
}

void mlir::rake::registerGpuIRToPtxPipeline() {
  PassPipelineRegistration<PtxPipelineOptions>(
      "rake-gpuir-to-ptx",
      "Lower GpuIR kernels to a gpu.binary: convert-gpuir-to-nvvm, then "
      "MLIR's GPU lowering to NVVM and the NVPTX back end (format=isa: PTX "
      "text; bin: a cubin through ptxas)",
      [](OpPassManager &pm, const PtxPipelineOptions &o) {
        StringRef format = o.format == BinaryFormat::isa   ? "isa"
                           : o.format == BinaryFormat::bin ? "bin"
                                                           : "fatbin";
        buildGpuIRToPtxPipeline(pm, o.chip, format);
      });
}
