//===- InitRake.cpp - registering Rake GPU in an MLIR context -------------===//

#include "Rake/Init/InitRake.h"

#include "Rake/Conversion/Passes.h"
#include "Rake/Dialect/AMIR/IR/AMIR.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Dialect/GpuIR/Instrs/InstrSets.h"
#include "Rake/Dialect/GpuIR/TransformOps/GpuIRTransformOps.h"
#include "Rake/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

using namespace mlir;

void mlir::rake::registerRakeDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<gpuir::GpuIRDialect, amir::AMIRDialect>();
  // The instruction sets (Sm80, Sm90a), added when GpuIR loads.
  gpuir::registerInstructionSets(registry);
  // The scheduling language: transform.gpuir.* for --transform-interpreter.
  gpuir::registerTransformDialectExtension(registry);
}

void mlir::rake::registerRakePassesAndPipelines() {
  static bool done = [] {
    registerAllPasses();
    registerRakePasses();
    registerRakeConversionPasses();
    registerGpuIRToPtxPipeline();
    return true;
  }();
  (void)done;
}

FailureOr<std::string> mlir::rake::compileGpuIRToPtx(Operation *op,
                                                      StringRef chip) {
  PassManager pm(op->getContext());
  buildGpuIRToPtxPipeline(pm, chip, "isa");
  if (failed(pm.run(op)))
    return failure();
  std::string ptx;
  op->walk([&](gpu::BinaryOp binary) {
    for (Attribute a : binary.getObjects())
      ptx += cast<gpu::ObjectAttr>(a).getObject().getValue();
  });
  if (ptx.empty())
    return op->emitError() << "the module holds no GpuIR procedure to compile";
  return ptx;
}
