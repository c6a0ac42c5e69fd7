//===- UniformityPass.cpp - mark control uniform or lane-varying ----------===//

#include "Rake/Analysis/Uniformity.h"
#include "Rake/Transforms/Passes.h"

namespace mlir::rake {
#define GEN_PASS_DEF_UNIFORMITYPASS
#include "Rake/Transforms/Passes.h.inc"
} // namespace mlir::rake

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace {

/// How a report names a control value: the loop variable's name.
std::string valueName(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (auto loop = dyn_cast<ForOp>(arg.getOwner()->getParentOp()))
      if (std::optional<StringRef> name = loop.getIvName())
        return "%" + name->str();
  return "a lane index";
}

struct UniformityPass : rake::impl::UniformityPassBase<UniformityPass> {
  using UniformityPassBase::UniformityPassBase;

  void runOnOperation() override {
    UniformityAnalysis analysis(getOperation());
    MLIRContext *ctx = &getContext();
    bool failedCheck = false;
    getOperation()->walk([&](Operation *op) {
      if (!op->getParentOfType<DeviceFunctionOp>())
        return;
      if (!annotate) {
        // Only the check.
      } else if (auto loop = dyn_cast<ForOp>(op))
        op->setAttr("gpuir.uniformity",
                    StringAttr::get(ctx, analysis.mapsLanes(loop) ? "lanes"
                                         : analysis.hasLaneVaryingControl(op)
                                             ? "lane_varying"
                                             : "uniform"));
      else if (isa<IfOp>(op))
        op->setAttr("gpuir.uniformity",
                    StringAttr::get(ctx, analysis.hasLaneVaryingControl(op)
                                             ? "lane_varying"
                                             : "uniform"));
      if (auto instr = dyn_cast<InstrOpInterface>(op))
        failedCheck |= failed(checkCollective(analysis, instr));
    });
    if (failedCheck)
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  /// A warp (or larger) collective runs where every lane of each of its
  /// warps reaches it: not inside a loop over lanes, not under control
  /// that differs between lanes.
  LogicalResult checkCollective(const UniformityAnalysis &analysis,
                                InstrOpInterface instr) {
    Operation *op = instr;
    auto device = op->getParentOfType<DeviceFunctionOp>();
    std::optional<int64_t> threads = instr.getCollUnit().getNumThreads(
        device.getBlockDim(), device.getCluster());
    if (!threads || *threads < UniformityAnalysis::kWarpLanes)
      return success();
    // Its index operands (which lanes are data lanes: `active`; control
    // values, which GpuIR keeps to parameters and loop variables) must be
    // the same for every lane, or the lanes could disagree on who takes part.
    for (OpOperand &operand : op->getOpOperands())
      if (operand.get().getType().isIndex() &&
          analysis.isLaneVarying(operand.get()))
        return op->emitOpError()
               << "is a collective of " << *threads << " threads whose index "
               << "operand #" << operand.getOperandNumber()
               << " may differ between the lanes of a warp; profile "
               << profile
               << ": every lane of a warp must agree on which lanes take "
                  "part, so the check could not establish the collective's "
                  "lanes (compute the operand from procedure parameters, "
                  "task indices, loops over warps and constants)";
    Operation *p = analysis.laneVaryingControlAround(op);
    if (!p)
      return success();
    auto loop = dyn_cast<ForOp>(p);
    bool lanes = loop && analysis.mapsLanes(loop);
    std::string what =
        lanes ? "inside a loop over lanes"
              : std::string("under lane-varying control (it depends on ") +
                    valueName(analysis.laneVaryingOperand(p)) + ")";
    InFlightDiagnostic diag =
        op->emitOpError()
        << "is a collective of " << *threads << " threads " << what
        << "; profile " << profile
        << ": every lane of a warp reaches a collective with the same "
           "membership, so the control around it must be warp-uniform "
           "(move the instruction out, or make the loop or condition "
           "depend on warp-uniform values)";
    diag.attachNote(p->getLoc())
        << (lanes ? "the loop over lanes" : "the lane-varying control");
    return failure();
  }
};

} // namespace
