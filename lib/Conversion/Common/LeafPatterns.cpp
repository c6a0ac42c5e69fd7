//===- LeafPatterns.cpp - GpuIR leaf statements as conversion patterns ----===//
//
// The leaf patterns both lowerings share (the access patterns) and those of
// the sequential meaning; see LeafPatterns.h for how the walker runs them.
//
//===----------------------------------------------------------------------===//

#include "Rake/Conversion/Common/LeafPatterns.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace {

/// Reads, writes and reductions: a load, a store, or both around an add.
template <typename AccessOp>
struct AccessPattern : LeafPattern<AccessOp> {
  using LeafPattern<AccessOp>::LeafPattern;
  using OpAdaptor = typename LeafPattern<AccessOp>::OpAdaptor;

  LogicalResult lower(AccessOp source, AccessOp, OpAdaptor,
                      ConversionPatternRewriter &) const override {
    if (failed(this->lowering.checkAccess(source, source.getBuffer())))
      return failure();
    return this->lowering.lowerAccess(source);
  }
};

/// A window: a subview of its source.
struct WindowPattern : LeafPattern<WindowOp> {
  using LeafPattern::LeafPattern;

  LogicalResult lower(WindowOp source, WindowOp, OpAdaptor,
                      ConversionPatternRewriter &) const override {
    return success(succeeded(lowering.lowerWindow(source)));
  }
};

/// Fences, arrives and awaits order a parallel program; the sequential
/// one needs none of it.
template <typename SyncOp>
struct SequentialSyncPattern : LeafPattern<SyncOp> {
  using LeafPattern<SyncOp>::LeafPattern;
  using OpAdaptor = typename LeafPattern<SyncOp>::OpAdaptor;

  LogicalResult lower(SyncOp, SyncOp, OpAdaptor,
                      ConversionPatternRewriter &) const override {
    return success();
  }
};

/// An instruction: its sequential behavior.
struct SequentialInstrPattern : LeafInterfacePattern<InstrOpInterface> {
  using LeafInterfacePattern::LeafInterfacePattern;

  LogicalResult lower(InstrOpInterface source, InstrOpInterface,
                      ArrayRef<Value>,
                      ConversionPatternRewriter &rewriter) const override {
    return lowering.lowerInstrSequential(source, rewriter);
  }
};

} // namespace

void mlir::rake::gpuir::populateLeafAccessPatterns(
    Lowering &lowering, RewritePatternSet &patterns) {
  patterns.add<AccessPattern<ReadOp>, AccessPattern<WriteOp>,
               AccessPattern<ReduceOp>>(lowering);
}

void mlir::rake::gpuir::populateSequentialLeafPatterns(
    Lowering &lowering, RewritePatternSet &patterns) {
  populateLeafAccessPatterns(lowering, patterns);
  patterns.add<WindowPattern, SequentialSyncPattern<FenceOp>,
               SequentialSyncPattern<ArriveOp>,
               SequentialSyncPattern<AwaitOp>, SequentialInstrPattern>(
      lowering);
}
