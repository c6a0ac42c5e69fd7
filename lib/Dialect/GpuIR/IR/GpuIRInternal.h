//===- GpuIRInternal.h - declarations shared by GpuIR's sources -*- C++ -*-===//
//
// Private to lib/Dialect/GpuIR/IR: what GpuIROps.cpp, GpuIRSyntax.cpp and
// GpuIRVerifiers.cpp share beyond the public headers.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_LIB_DIALECT_GPUIR_IR_GPUIRINTERNAL_H
#define RAKE_LIB_DIALECT_GPUIR_IR_GPUIRINTERNAL_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

namespace mlir::rake::gpuir {

/// `cuda_in_order`: a sync timeline spelled as its keyword, for use as
/// `custom<SyncTimeline>($attr)`. The generated FenceOp syntax in
/// Ops.cpp.inc (included by GpuIROps.cpp) calls these, and so do ArriveOp's
/// and AwaitOp's parsers in GpuIRSyntax.cpp.
ParseResult parseSyncTimeline(OpAsmParser &parser, SyncTimelineAttr &attr);
void printSyncTimeline(OpAsmPrinter &p, Operation *, SyncTimelineAttr attr);

} // namespace mlir::rake::gpuir

#endif // RAKE_LIB_DIALECT_GPUIR_IR_GPUIRINTERNAL_H
