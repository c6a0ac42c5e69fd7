//===- LeafPatterns.h - GpuIR leaf statements as conversion patterns -*- C++ -*-===//
//
// The leaf statements of GpuIR (reads, writes, reductions, windows, fences,
// arrives, awaits and instructions) are lowered by dialect-conversion
// patterns; the structural statements (procedures, loops, ifs, scopes,
// allocations) by the `Lowering` walker, which builds the output's nest
// (and, on the device, one copy of it per warp path).
//
// How they meet: at each leaf, the walker copies the statement to the
// output position with its operands as lowered (Lowering::lowerLeaf) and
// runs the dialect conversion on that copy, with its patterns. A pattern
// sees the copy and its adaptor (the lowered operands), and the statement
// of the input program it copies (`source`): what the analyses know is
// keyed by the input program's values (a buffer's distribution over
// threads, an mbarrier's phase register), and diagnostics point at the
// statement as written. A pattern records the values that stand for the
// source's results in the walker's map and erases the copy.
//
// Running the conversion statement by statement keeps the order in which
// the lowering sees the program (the device lowering's state, such as the
// asynchronously written registers still to fence, depends on it), and
// the output identical to building at the walker's position.
//
//   populateLeafAccessPatterns: reads, writes and reductions, for both
//     lowerings (the device narrows an access to a thread's part of a
//     distributed buffer through Lowering::accessIndices);
//   populateSequentialLeafPatterns: those, windows as subviews,
//     synchronization as nothing and an instruction as its behavior;
//   the device lowering's own (lib/Conversion/GpuIRToNVVM/DevicePatterns.cpp):
//     windows of distributed buffers, fences, arrives, awaits and
//     instructions as device code.
//
// A new leaf statement is one pattern here (and one on the device where
// its meaning differs there); a new instruction needs none: it lowers
// through InstrOpInterface.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_CONVERSION_COMMON_LEAFPATTERNS_H
#define RAKE_CONVERSION_COMMON_LEAFPATTERNS_H

#include "Rake/Conversion/Common/SequentialLowering.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::rake::gpuir {

/// What both pattern bases do with a copy: find the statement it copies
/// (as `Source`), let `lower` build at the copy with the lowering's
/// builder, and erase the copy once it has.
template <typename Source, typename Lower>
LogicalResult lowerLeafCopy(Lowering &lowering, Operation *copy,
                            ConversionPatternRewriter &rewriter,
                            Lower lower) {
  auto source = dyn_cast_or_null<Source>(lowering.leafSource());
  if (!source)
    return rewriter.notifyMatchFailure(copy, "not the statement lowered");
  {
    Lowering::BuildAt at(lowering, copy, rewriter);
    if (failed(lower(source)))
      return failure();
  }
  rewriter.eraseOp(copy);
  return success();
}

/// A pattern that lowers a copy of one leaf statement of the walk that
/// `lowering` runs. `lower` builds at the copy's position with the
/// lowering's builder (tracked by the conversion, as the rewriter's own
/// ops are) and records the values of the source's results in the
/// lowering's map; the copy is then erased here, so that no pattern can
/// leave it behind.
template <typename SourceOp>
class LeafPattern : public OpConversionPattern<SourceOp> {
public:
  using OpAdaptor = typename SourceOp::Adaptor;

  LeafPattern(Lowering &lowering, PatternBenefit benefit = 1)
      : OpConversionPattern<SourceOp>(lowering.getContext(), benefit),
        lowering(lowering) {}

  LogicalResult
  matchAndRewrite(SourceOp copy, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    return lowerLeafCopy<SourceOp>(lowering, copy, rewriter, [&](SourceOp source) {
      return lower(source, copy, adaptor, rewriter);
    });
  }

protected:
  virtual LogicalResult lower(SourceOp source, SourceOp copy,
                              OpAdaptor adaptor,
                              ConversionPatternRewriter &rewriter) const = 0;

  Lowering &lowering;
};

/// The same for an op interface (every instruction).
template <typename SourceIface>
class LeafInterfacePattern : public OpInterfaceConversionPattern<SourceIface> {
public:
  LeafInterfacePattern(Lowering &lowering, PatternBenefit benefit = 1)
      : OpInterfaceConversionPattern<SourceIface>(lowering.getContext(),
                                                  benefit),
        lowering(lowering) {}

  LogicalResult
  matchAndRewrite(SourceIface copy, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const final {
    return lowerLeafCopy<SourceIface>(
        lowering, copy, rewriter,
        [&](SourceIface source) { return lower(source, copy, operands, rewriter); });
  }

protected:
  virtual LogicalResult lower(SourceIface source, SourceIface copy,
                              ArrayRef<Value> operands,
                              ConversionPatternRewriter &rewriter) const = 0;

  Lowering &lowering;
};

/// Reads, writes and reductions, for both lowerings: loads and stores at
/// Lowering::accessIndices (the device's drop the dimensions distributed
/// over threads) after Lowering::checkAccess (the device refuses swizzled
/// shared memory), with the bounds checks of Lowering::boundsSites.
void populateLeafAccessPatterns(Lowering &lowering,
                                RewritePatternSet &patterns);

/// The sequential meaning of every leaf statement: the access patterns,
/// windows as subviews, synchronization as nothing (an annotation),
/// instructions as their behavior (InstrOpInterface::buildSequential).
void populateSequentialLeafPatterns(Lowering &lowering,
                                    RewritePatternSet &patterns);

} // namespace mlir::rake::gpuir

#endif // RAKE_CONVERSION_COMMON_LEAFPATTERNS_H
