//===- rake-translate.cpp - Rake GPU's translation driver -----------------===//
//
// Translations out of MLIR: the upstream ones (MLIR's LLVM and NVVM dialects
// to LLVM IR, and the rest), and GpuIR to PTX text (--gpuir-to-ptx) or a
// cubin (--gpuir-to-cubin, through the CUDA toolkit's ptxas) by the
// rake-gpuir-to-ptx pipeline.
//
//===----------------------------------------------------------------------===//

#include "Rake/Conversion/Passes.h"
#include "Rake/Dialect/AMIR/IR/AMIR.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "TestInstrs.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

using namespace mlir;

static void registerGpuIRDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<rake::gpuir::GpuIRDialect, rake::amir::AMIRDialect>();
  rake::rtest::registerTestDialect(registry);
}

/// Runs the pipeline to a gpu.binary and writes its objects' bytes.
static LogicalResult translateKernels(Operation *op, raw_ostream &os,
                                      StringRef format) {
  PassManager pm(op->getContext());
  rake::buildGpuIRToPtxPipeline(pm, "sm_90a", format);
  if (failed(pm.run(op)))
    return failure();
  bool any = false;
  op->walk([&](gpu::BinaryOp binary) {
    for (Attribute a : binary.getObjects()) {
      os << cast<gpu::ObjectAttr>(a).getObject().getValue();
      any = true;
    }
  });
  if (!any)
    return op->emitError() << "the module holds no GpuIR procedure to compile";
  return success();
}

int main(int argc, char **argv) {
  registerAllTranslations();
  TranslateFromMLIRRegistration toPtx(
      "gpuir-to-ptx", "Compile GpuIR procedures to PTX for sm_90a",
      [](Operation *op, raw_ostream &os) {
        return translateKernels(op, os, "isa");
      },
      registerGpuIRDialects);
  TranslateFromMLIRRegistration toCubin(
      "gpuir-to-cubin",
      "Compile GpuIR procedures to a cubin for sm_90a (needs ptxas)",
      [](Operation *op, raw_ostream &os) {
        return translateKernels(op, os, "bin");
      },
      registerGpuIRDialects);
  return failed(mlirTranslateMain(argc, argv, "Rake GPU translation driver\n"));
}
