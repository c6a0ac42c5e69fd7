//===- TensorCoreInputs.h - which parameters the tensor cores multiply -*- C++
//-*-===//
//
// The format in which a procedure's tensor-core instructions multiply the
// values of each buffer parameter: a parameter whose elements reach a
// multiplicand of a mma_sync or wgmma (through windows, copies, loads and
// writes of values read from it) is multiplied in that instruction's input
// format. The seed's narrower-format warning reads it: f32 buffers
// multiplied as tf32 whose every value is exact in bf16 or f16 could be
// passed in the narrower format without losing anything.
//
// The tracing over-approximates the flow of values (an instruction's
// written parameters take data from all its read ones; a written value
// from every buffer read in its computation), so a parameter it names may
// reach a product only along a path not taken; a parameter it does not
// name reaches none.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_ANALYSIS_TENSORCOREINPUTS_H
#define RAKE_ANALYSIS_TENSORCOREINPUTS_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::rake {

/// For each buffer parameter (by argument number) of `proc` whose values
/// reach a tensor-core multiplicand: the input format it is multiplied in
/// ("tf32", "f16", "bf16", "e4m3", "s8", ...; the first one found where
/// several products read it).
llvm::DenseMap<unsigned, llvm::StringRef>
tensorCoreInputFormats(gpuir::ProcOp proc);

} // namespace mlir::rake

#endif // RAKE_ANALYSIS_TENSORCOREINPUTS_H
