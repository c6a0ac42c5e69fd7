//===- Sm120a.h - the Sm120a instruction set ---------------------*- C++
//-*-===//
//
// Blackwell (sm_120a) instructions as GpuIR instruction ops (the block-scaled
// mma.sync), registered with the GpuIR dialect.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_DIALECT_GPUIR_INSTRS_SM120A_H
#define RAKE_DIALECT_GPUIR_INSTRS_SM120A_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#define GET_OP_CLASSES
#include "Rake/Dialect/GpuIR/Instrs/Sm120a.h.inc"

namespace mlir::rake::gpuir {
/// Adds the Sm120a instruction set's ops to the dialect
/// (registerInstructionSets does it for every set when the dialect loads).
void registerSm120aInstructions(GpuIRDialect *dialect);
} // namespace mlir::rake::gpuir

#endif // RAKE_DIALECT_GPUIR_INSTRS_SM120A_H
