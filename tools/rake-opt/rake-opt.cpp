//===- rake-opt.cpp - Rake GPU's optimizer driver -------------------------===//
//
// mlir-opt with the Rake dialects and passes registered beside the upstream
// ones that Rake lowers through.
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/AMIR/IR/AMIR.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Conversion/Passes.h"
#include "Rake/Transforms/Passes.h"
#include "TestInstrs.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::rake::registerRakePasses();
  mlir::rake::registerRakeConversionPasses();
  mlir::rake::registerGpuIRToPtxPipeline();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR and PTX.
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::rake::gpuir::GpuIRDialect,
                  mlir::rake::amir::AMIRDialect>();
  mlir::rake::rtest::registerTestDialect(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Rake GPU optimizer driver\n", registry));
}
