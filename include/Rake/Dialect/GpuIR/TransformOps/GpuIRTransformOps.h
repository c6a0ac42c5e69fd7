//===- GpuIRTransformOps.h - checked rewrites of GpuIR ----------*- C++ -*-===//
//
// The Transform-dialect extension `transform.gpuir.*`: the scheduling
// language, run by `--transform-interpreter`.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_DIALECT_GPUIR_TRANSFORMOPS_GPUIRTRANSFORMOPS_H
#define RAKE_DIALECT_GPUIR_TRANSFORMOPS_GPUIRTRANSFORMOPS_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "Rake/Dialect/GpuIR/TransformOps/GpuIRTransformOps.h.inc"

namespace mlir {
class DialectRegistry;
namespace rake::gpuir {
/// Registers the `transform.gpuir.*` ops with the Transform dialect.
void registerTransformDialectExtension(DialectRegistry &registry);
} // namespace rake::gpuir
} // namespace mlir

#endif // RAKE_DIALECT_GPUIR_TRANSFORMOPS_GPUIRTRANSFORMOPS_H
