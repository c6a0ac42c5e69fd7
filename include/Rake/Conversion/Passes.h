//===- Passes.h - conversions out of GpuIR ----------------------*- C++ -*-===//

#ifndef RAKE_CONVERSION_PASSES_H
#define RAKE_CONVERSION_PASSES_H

#include "Rake/Conversion/GpuIRToAMIR/GpuIRToAMIR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::rake {

#define GEN_PASS_DECL
#include "Rake/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Rake/Conversion/Passes.h.inc"

} // namespace mlir::rake

#endif // RAKE_CONVERSION_PASSES_H
