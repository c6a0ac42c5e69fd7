//===- Uniformity.cpp - warp-uniform and lane-varying control -------------===//

#include "Rake/Analysis/Uniformity.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

/// The threads one iteration of a cuda_threads loop's unit has, at the
/// launch shape of its device function (nullopt if unknown).
static std::optional<int64_t> unitThreads(ForOp loop) {
  auto device = loop->getParentOfType<DeviceFunctionOp>();
  std::optional<CollUnitAttr> unit = loop.getUnit();
  if (!device || !unit)
    return std::nullopt;
  return unit->getNumThreads(device.getBlockDim(), device.getCluster());
}

static ValueRange controlOperands(Operation *op) {
  if (auto ifOp = dyn_cast<IfOp>(op))
    return ifOp.getOperands();
  return {};
}

UniformityAnalysis::UniformityAnalysis(Operation *root) {
  // Pre-order: a loop's bounds are classified before its body.
  root->walk<WalkOrder::PreOrder>([&](ForOp loop) {
    if (!loop->getParentOfType<DeviceFunctionOp>())
      return;
    Value iv = loop.getInductionVar();
    if (loop.getMode() == LoopMode::cuda_threads) {
      // A unit of fewer threads than a warp, or of a size that is not
      // whole warps (or one whose size the launch does not fix), tells
      // lanes apart.
      std::optional<int64_t> n = unitThreads(loop);
      if (!n || *n < kWarpLanes || *n % kWarpLanes != 0) {
        varying.insert(iv);
        laneLoops.insert(loop);
      }
      return;
    }
    if (hasLaneVaryingControl(loop))
      varying.insert(iv);
  });
}

bool UniformityAnalysis::hasLaneVaryingControl(Operation *op) const {
  auto any = [&](ValueRange operands) {
    return llvm::any_of(operands,
                        [&](Value v) { return varying.contains(v); });
  };
  if (auto loop = dyn_cast<ForOp>(op))
    return any(loop.getLowerOperands()) || any(loop.getUpperOperands());
  return any(controlOperands(op));
}

Value UniformityAnalysis::laneVaryingOperand(Operation *op) const {
  SmallVector<Value> operands;
  if (auto loop = dyn_cast<ForOp>(op)) {
    operands.append(loop.getLowerOperands().begin(),
                    loop.getLowerOperands().end());
    operands.append(loop.getUpperOperands().begin(),
                    loop.getUpperOperands().end());
  } else {
    ValueRange c = controlOperands(op);
    operands.append(c.begin(), c.end());
  }
  for (Value v : operands)
    if (varying.contains(v))
      return v;
  return nullptr;
}

Operation *UniformityAnalysis::laneVaryingControlAround(Operation *op) const {
  for (Operation *p = op->getParentOp(); p && !isa<DeviceFunctionOp>(p);
       p = p->getParentOp())
    if (laneLoops.contains(p) ||
        (isa<ForOp, IfOp>(p) && hasLaneVaryingControl(p)))
      return p;
  return nullptr;
}
