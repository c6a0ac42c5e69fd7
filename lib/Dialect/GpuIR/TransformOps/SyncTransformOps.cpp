//===- SyncTransformOps.cpp - transform.gpuir ops that synchronize -------===//
//
// permute_loops, skew, and the ops that add synchronization (alloc_barrier,
// insert_arrive, insert_await); the rest are in GpuIRTransformOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/IR/Syntax.h"
#include "Rake/Dialect/GpuIR/TransformOps/GpuIRTransformOps.h"
#include "Rake/Dialect/GpuIR/TransformOps/Rewrites.h"
#include "RewriteUtils.h"
#include "TransformOpUtils.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::transform;
using namespace mlir::rake::gpuir::detail;

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

void transform::GpuIRPermuteLoopsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readsTargetModifiesPayload(*this, getTargetMutable(), effects);
}

DiagnosedSilenceableFailure transform::GpuIRPermuteLoopsOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  auto loop = dyn_cast<ForOp>(target);
  if (!loop)
    return notALoop(*this, target);
  Refusal why(target->getLoc());
  if (failed(permuteLoops(rewriter, loop, getPerm(), why)))
    return refused(*this, why);
  results.push_back(loop);
  return DiagnosedSilenceableFailure::success();
}

void transform::GpuIRSkewOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readsTargetModifiesPayload(*this, getTargetMutable(), effects);
}

DiagnosedSilenceableFailure transform::GpuIRSkewOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  FailureOr<ForOp> loop = skewLoop(rewriter, target, getDepth(), why);
  if (failed(loop))
    return refused(*this, why);
  results.push_back(*loop);
  return DiagnosedSilenceableFailure::success();
}

void transform::GpuIRAllocBarrierOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readsTargetModifiesPayload(*this, getTargetMutable(), effects);
}
void transform::GpuIRInsertArriveOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readsTargetModifiesPayload(*this, getTargetMutable(), effects);
}
void transform::GpuIRInsertAwaitOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readsTargetModifiesPayload(*this, getTargetMutable(), effects);
}

DiagnosedSilenceableFailure transform::GpuIRAllocBarrierOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  if (!isa<BarrierType>(getType())) {
    (void)why.refuse(target->getLoc(), "alloc_barrier allocates a "
                                       "!gpuir.barrier<...>");
    return refused(*this, why);
  }
  rewriter.setInsertionPoint(target);
  auto alloc = AllocOp::create(rewriter, target->getLoc(), getType(),
                               ValueRange(), rewriter.getStringAttr(getName()));
  results.push_back(alloc);
  return DiagnosedSilenceableFailure::success();
}

/// The barrier named at `target`, and its coordinates' operands (the named
/// loops around `target`), or a refusal.
LogicalResult mlir::rake::gpuir::detail::syncOperands(
    Operation *target, StringRef barrier, std::optional<AffineMap> coords,
    std::optional<ArrayAttr> loops, Value &bar, SmallVector<Value> &operands,
    Refusal &why) {
  bar = lookupBuffer(target, barrier);
  if (!bar || !isa<BarrierType>(bar.getType()))
    return why.refuse(target->getLoc(), "no barrier named '" + barrier +
                                            "' is visible at this statement");
  if (!coords)
    return success();
  if (!loops || coords->getNumDims() != loops->size() ||
      coords->getNumSymbols())
    return why.refuse(target->getLoc(),
                      "the barrier's coordinates are a map over the named "
                      "loops' variables, one dimension each");
  for (Attribute a : *loops) {
    StringRef name = cast<StringAttr>(a).getValue();
    Value iv;
    for (Operation *p = target; p && !iv; p = p->getParentOp())
      if (auto loop = dyn_cast<ForOp>(p))
        if (loop.getIvName() && *loop.getIvName() == name)
          iv = loop.getInductionVar();
    if (!iv)
      return why.refuse(target->getLoc(),
                        "no loop over %" + name + " around this statement");
    operands.push_back(iv);
  }
  return success();
}

/// Verifies a new synchronization statement; on failure, erases it and
/// refuses with the verifier's message.
static LogicalResult verifyInserted(RewriterBase &rewriter, Operation *op,
                                    Refusal &why) {
  std::string message;
  auto valid = [&]() -> LogicalResult {
    if (failed(op->getName().verifyInvariants(op)))
      return failure();
    return verify(op);
  };
  if (succeeded(gpuir::detail::checkQuietly(op->getContext(), valid, message)))
    return success();
  Location loc = op->getLoc();
  rewriter.eraseOp(op);
  return why.refuse(loc,
                    "the inserted statement is not valid here: " + message);
}

DiagnosedSilenceableFailure transform::GpuIRInsertArriveOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  Value bar;
  SmallVector<Value> operands;
  if (failed(syncOperands(target, getBarrier(), getCoords(), getLoops(), bar,
                          operands, why)))
    return refused(*this, why);
  if (getBefore())
    rewriter.setInsertionPoint(target);
  else
    rewriter.setInsertionPointAfter(target);
  AffineMap map =
      getCoords() ? *getCoords() : AffineMap::get(0, 0, {}, getContext());
  SmallVector<bool> intervals(map.getNumResults(), false);
  auto arrive = ArriveOp::create(
      rewriter, target->getLoc(), getPreAttr(), ValueRange{bar}, operands,
      rewriter.getArrayAttr({AffineMapAttr::get(map)}),
      rewriter.getArrayAttr({rewriter.getDenseBoolArrayAttr(intervals)}));
  if (failed(verifyInserted(rewriter, arrive, why)))
    return refused(*this, why);
  results.push_back(arrive);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::GpuIRInsertAwaitOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  Value bar;
  SmallVector<Value> operands;
  if (failed(syncOperands(target, getBarrier(), getCoords(), getLoops(), bar,
                          operands, why)))
    return refused(*this, why);
  if (getBefore())
    rewriter.setInsertionPoint(target);
  else
    rewriter.setInsertionPointAfter(target);
  AffineMap map =
      getCoords() ? *getCoords() : AffineMap::get(0, 0, {}, getContext());
  auto await = AwaitOp::create(
      rewriter, target->getLoc(), bar, operands, AffineMapAttr::get(map),
      getPostAttr(),
      getLag() ? rewriter.getI64IntegerAttr(*getLag()) : IntegerAttr(),
      getOutstanding() ? rewriter.getI64IntegerAttr(*getOutstanding())
                       : IntegerAttr(),
      /*read=*/UnitAttr());
  if (failed(verifyInserted(rewriter, await, why)))
    return refused(*this, why);
  results.push_back(await);
  return DiagnosedSilenceableFailure::success();
}
