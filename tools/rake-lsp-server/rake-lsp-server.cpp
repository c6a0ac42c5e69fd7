//===- rake-lsp-server.cpp - The MLIR language server with Rake's dialects ===//
//
// MLIR's language server (mlir-lsp-server) with GpuIR, AMIR and the upstream
// dialects Rake lowers through registered: an editor gets diagnostics (the
// dialects' verifiers: GpuIR's rules with their messages), hover, go to
// definition, references and the document outline for .mlir files with
// GpuIR. docs/Editors.md says how to use it from VS Code and Neovim.
//
//===----------------------------------------------------------------------===//

#include "Rake/Init/InitRake.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::rake::registerRakeDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
