//===- InitRake.h - registering Rake GPU in an MLIR context ------*- C++ -*-===//
//
// What a compiler that embeds Rake GPU registers: the GpuIR and AMIR
// dialects with the upstream dialects, extensions and LLVM IR translations
// that Rake lowers through, and Rake's passes and pipelines. The tools
// (rake-opt, rake-translate, rake-run, rake-bundle) and the C API use these.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_INIT_INITRAKE_H
#define RAKE_INIT_INITRAKE_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class Operation;
namespace rake {

/// GpuIR, AMIR, every upstream dialect and extension, and the translations
/// to LLVM IR (gpu-module-to-binary needs them).
void registerRakeDialects(DialectRegistry &registry);

/// Rake's passes (analyses, conversions) and the rake-gpuir-to-ptx
/// pipeline, beside every upstream pass, for textual pass pipelines.
void registerRakePassesAndPipelines();

/// Compiles the GpuIR procedures under `op` to PTX for `chip` (the
/// rake-gpuir-to-ptx pipeline, then the text of the gpu.binary objects);
/// fails with diagnostics at the ops it cannot lower.
FailureOr<std::string> compileGpuIRToPtx(Operation *op, StringRef chip);

} // namespace rake
} // namespace mlir

#endif // RAKE_INIT_INITRAKE_H
