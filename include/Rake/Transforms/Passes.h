//===- Passes.h - passes that check, change or annotate GpuIR ---*- C++ -*-===//

#ifndef RAKE_TRANSFORMS_PASSES_H
#define RAKE_TRANSFORMS_PASSES_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::rake {

#define GEN_PASS_DECL
#include "Rake/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Rake/Transforms/Passes.h.inc"

/// Registers the passes and the named pipelines (rake-check).
void registerRakePasses();

} // namespace mlir::rake

#endif // RAKE_TRANSFORMS_PASSES_H
