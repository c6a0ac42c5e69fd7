//===- VerifierUtils.h - what GpuIR's verifiers share ------------*- C++
//-*-===//

#ifndef RAKE_LIB_DIALECT_GPUIR_IR_VERIFIERUTILS_H
#define RAKE_LIB_DIALECT_GPUIR_IR_VERIFIERUTILS_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

namespace mlir::rake::gpuir::detail {

/// The GpuIR memory type of a memref type, or null.
MemoryTypeAttrInterface getMemoryType(Type type);

/// Checks that a memref names a GpuIR memory type.
LogicalResult verifyMemorySpace(Operation *op, Type type, StringRef what);

/// Checks that a memory type may be accessed from the op's scope.
LogicalResult verifyAccessScope(Operation *op, Type type);

/// Checks that the op does not write a grid constant on the device.
LogicalResult verifyWritable(Operation *op, Type type, StringRef what);

} // namespace mlir::rake::gpuir::detail

#endif // RAKE_LIB_DIALECT_GPUIR_IR_VERIFIERUTILS_H
