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

/// Appends the passes from GpuIR to a gpu.binary for `chip` (`format`: isa
/// for PTX, bin for a cubin, fatbin); `ptxasOptions` go to ptxas.
void buildGpuIRToPtxPipeline(OpPassManager &pm, StringRef chip = "sm_90a",
                             StringRef format = "isa",
                             StringRef ptxasOptions = "");
/// Registers `rake-gpuir-to-ptx{chip=... format=...}`.
void registerGpuIRToPtxPipeline();

} // namespace mlir::rake

#endif // RAKE_CONVERSION_PASSES_H
