//===- rake-translate.cpp - Rake GPU's translation driver -----------------===//
//
// Translations out of MLIR: for now the upstream ones (MLIR's LLVM and NVVM
// dialects to LLVM IR, and the rest). GpuIR to PTX and cubin join them with
// code generation.
//
//===----------------------------------------------------------------------===//

#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "Rake GPU translation driver\n"));
}
