//===- GpuIRToAMIR.h - GpuIR to the abstract machine ------------*- C++ -*-===//

#ifndef RAKE_CONVERSION_GPUIRTOAMIR_GPUIRTOAMIR_H
#define RAKE_CONVERSION_GPUIRTOAMIR_GPUIRTOAMIR_H

#include "Rake/Analysis/CollectiveAnalysis.h"
#include "Rake/Dialect/AMIR/IR/AMIR.h"

namespace mlir::rake {

/// Translates one GpuIR procedure into an AMIR procedure, inserted at the
/// builder's insertion point. Fails, after emitting a diagnostic, on what it
/// cannot translate.
FailureOr<amir::ProcOp> convertProcToAMIR(gpuir::ProcOp proc,
                                          const CollectiveAnalysis &coll,
                                          OpBuilder &builder);

} // namespace mlir::rake

#endif // RAKE_CONVERSION_GPUIRTOAMIR_GPUIRTOAMIR_H
