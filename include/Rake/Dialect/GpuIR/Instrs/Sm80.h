//===- Sm80.h - the Sm80 instruction set -------------------------*- C++ -*-===//
//
// Ampere instructions as GpuIR instruction ops (cp.async, ldmatrix, mma.sync,
// shfl.sync), registered with the GpuIR dialect.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_DIALECT_GPUIR_INSTRS_SM80_H
#define RAKE_DIALECT_GPUIR_INSTRS_SM80_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#define GET_OP_CLASSES
#include "Rake/Dialect/GpuIR/Instrs/Sm80.h.inc"

namespace mlir::rake::gpuir {
/// Adds the Sm80 instruction set's ops to the dialect (registerInstructionSets
/// does it for every set when the dialect loads).
void registerSm80Instructions(GpuIRDialect *dialect);
} // namespace mlir::rake::gpuir

#endif // RAKE_DIALECT_GPUIR_INSTRS_SM80_H
