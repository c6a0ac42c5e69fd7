//===- rake-opt.cpp - Rake GPU's optimizer driver -------------------------===//
//
// mlir-opt with the Rake dialects and passes registered beside the upstream
// ones that Rake lowers through.
//
//===----------------------------------------------------------------------===//

#include "Rake/Init/InitRake.h"
#include "TestInstrs.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

/// Rake's pipelines and passes, printed before MLIR's --help (which lists
/// them among some three hundred upstream passes).
static void printRakeHelp() {
  llvm::outs() << "Rake GPU pipelines:\n";
  for (const char *name :
       {"rake-check", "rake-gpuir-to-llvm-cpu", "rake-gpuir-to-ptx"})
    if (const mlir::PassPipelineInfo *info =
            mlir::PassPipelineInfo::lookup(name))
      info->printHelpStr(/*indent=*/2, /*descIndent=*/34);
  llvm::outs() << "Rake GPU passes:\n";
  for (const char *name :
       {"rake-sync-check", "rake-collective-analysis",
        "rake-distributed-memory", "convert-gpuir-to-amir",
        "convert-gpuir-to-cpu", "convert-gpuir-to-nvvm"})
    if (const mlir::PassInfo *info = mlir::PassInfo::lookup(name))
      info->printHelpStr(/*indent=*/2, /*descIndent=*/34);
  llvm::outs() << "\n(MLIR's options and upstream passes follow.)\n\n";
}

int main(int argc, char **argv) {
  mlir::rake::registerRakePassesAndPipelines();
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]) == "--help" ||
        llvm::StringRef(argv[i]) == "-help" ||
        llvm::StringRef(argv[i]) == "-h")
      printRakeHelp();
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
