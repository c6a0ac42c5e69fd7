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

namespace {

struct ConvertGpuIRToNVVM
    : rake::impl::ConvertGpuIRToNVVMBase<ConvertGpuIRToNVVM> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The profile's tensor-core rule: no matrix product on the CUDA cores
    // outside a slow loop.
    if (failed(checkTensorCoreRule(module, "nvidia-ptx-sm90a")))
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
      b.setInsertionPoint(proc);
      if (!gpuModule)
        gpuModule = gpu::GPUModuleOp::create(
            b, proc.getLoc(), (proc.getSymName() + "_device").str());
      nvvm_detail::DeviceLowering lowering(b, coll, dist);
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
  pm.addPass(createConvertGpuIRToNVVM());
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
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format.str();
  binary.cmdOptions = ptxasOptions.str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
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
