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

#include <vector>

int main(int argc, char **argv) {
  mlir::rake::registerRakePassesAndPipelines();
  mlir::DialectRegistry registry;
  mlir::rake::registerRakeDialects(registry);
  // The test dialect's instructions (rtest), for the lit tests.
  mlir::rake::rtest::registerTestDialect(registry);

  // Diagnostics without MLIR's dump of the whole operation in generic form
  // appended (for a procedure, screens of IR after a one-line error); the
  // source line is printed, and --mlir-print-op-on-diagnostic brings the
  // dump back (a later occurrence of the option wins).
  std::vector<char *> args(argv, argv + argc);
  static char quiet[] = "--mlir-print-op-on-diagnostic=false";
  args.insert(args.begin() + 1, quiet);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      static_cast<int>(args.size()), args.data(),
      "Rake GPU optimizer driver\n", registry));
}
