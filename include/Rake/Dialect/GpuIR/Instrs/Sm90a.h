//===- Sm90a.h - the Sm90a instruction set -----------------------*- C++ -*-===//
//
// Hopper instructions as GpuIR instruction ops (wgmma), registered with the
// GpuIR dialect.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_DIALECT_GPUIR_INSTRS_SM90A_H
#define RAKE_DIALECT_GPUIR_INSTRS_SM90A_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#define GET_OP_CLASSES
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.h.inc"

namespace mlir::rake::gpuir {
/// Adds the Sm90a instruction set's ops to the dialect (registerInstructionSets
/// does it for every set when the dialect loads).
void registerSm90aInstructions(GpuIRDialect *dialect);
} // namespace mlir::rake::gpuir

#endif // RAKE_DIALECT_GPUIR_INSTRS_SM90A_H
