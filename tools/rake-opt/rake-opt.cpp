//===- rake-opt.cpp - Rake GPU's optimizer driver -------------------------===//
//
// mlir-opt with the Rake dialects and passes registered beside the upstream
// ones that Rake lowers through.
//
//===----------------------------------------------------------------------===//

#include "Rake/Init/InitRake.h"
#include "TestInstrs.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::rake::registerRakePassesAndPipelines();
  mlir::DialectRegistry registry;
  mlir::rake::registerRakeDialects(registry);
  // The test dialect's instructions (rtest), for the lit tests.
  mlir::rake::rtest::registerTestDialect(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Rake GPU optimizer driver\n", registry));
}
