//===- InstrSets.cpp - GpuIR's instruction sets as a dialect extension ----===//

#include "Rake/Dialect/GpuIR/Instrs/InstrSets.h"
#include "Rake/Dialect/GpuIR/Instrs/Sm120a.h"
#include "Rake/Dialect/GpuIR/Instrs/Sm80.h"
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::rake::gpuir;

void mlir::rake::gpuir::registerInstructionSets(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, GpuIRDialect *dialect) {
    registerSm80Instructions(dialect);
    registerSm90aInstructions(dialect);
    registerSm120aInstructions(dialect);
  });
}
