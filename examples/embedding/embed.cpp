//===- embed.cpp - a compiler that embeds Rake GPU ------------------------===//
//
// Parses a GpuIR file into a context with Rake's dialects, runs the
// synchronization check with Rake's pass pipeline, and compiles the
// procedures to PTX: what a compiler of one's own does with Rake's dialects
// (include/Rake/Init/InitRake.h), without the Rake tools.
//
//   rake-embed-example KERNEL.mlir
//
//===----------------------------------------------------------------------===//

#include "Rake/Init/InitRake.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: rake-embed-example KERNEL.mlir\n";
    return 2;
  }
  mlir::rake::registerRakePassesAndPipelines();
  mlir::DialectRegistry registry;
  mlir::rake::registerRakeDialects(registry);
  mlir::MLIRContext context(registry);

  llvm::SourceMgr sources;
  std::string error;
  auto file = mlir::openInputFile(argv[1], &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return 2;
  }
  sources.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sources, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sources, &context);
  if (!module)
    return 1;

  // The synchronization check: Rake's rake-check pipeline, on a copy (its
  // analyses annotate the IR).
  mlir::OwningOpRef<mlir::ModuleOp> checked(module->clone());
  mlir::PassManager pm(&context);
  if (mlir::failed(mlir::parsePassPipeline("rake-check", pm, llvm::errs())) ||
      mlir::failed(pm.run(*checked)))
    return 1;
  llvm::outs() << "synchronization check passed\n";

  mlir::FailureOr<std::string> ptx =
      mlir::rake::compileGpuIRToPtx(*module, "sm_90a");
  if (mlir::failed(ptx))
    return 1;
  llvm::outs() << *ptx;
  return 0;
}
