//===- InstrSets.h - GpuIR's instruction sets -------------------*- C++ -*-===//
//
// The instruction sets (Sm80, Sm90a) are a library of their own,
// RakeGpuIRInstrs, apart from the core dialect (RakeGpuIR, which links no
// NVVM): their ops, sequential behaviors and device code. A dialect
// extension adds them to the GpuIR dialect when it loads. An embedding
// compiler that inserts GpuIRDialect into its registry itself calls this
// too (Rake/Init/InitRake.h's registerRakeDialects does).
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_DIALECT_GPUIR_INSTRS_INSTRSETS_H
#define RAKE_DIALECT_GPUIR_INSTRS_INSTRSETS_H

namespace mlir {
class DialectRegistry;
namespace rake::gpuir {

/// Registers the extension that adds every instruction set to GpuIR.
void registerInstructionSets(DialectRegistry &registry);

} // namespace rake::gpuir
} // namespace mlir

#endif // RAKE_DIALECT_GPUIR_INSTRS_INSTRSETS_H
