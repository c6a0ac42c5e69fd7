//===- CollectiveAnalysisPass.cpp - annotate scopes with their tilings ----===//

#include "Rake/Analysis/CollectiveAnalysis.h"
#include "Rake/Transforms/Passes.h"

namespace mlir::rake {
#define GEN_PASS_DEF_COLLECTIVEANALYSISPASS
#include "Rake/Transforms/Passes.h.inc"
} // namespace mlir::rake

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace {
struct CollectiveAnalysisPass
    : rake::impl::CollectiveAnalysisPassBase<CollectiveAnalysisPass> {
  void runOnOperation() override {
    auto &analysis = getAnalysis<CollectiveAnalysis>();
    if (failed(analysis.emitErrors()))
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    getOperation()->walk([&](Operation *op) {
      const CollTiling *tiling = analysis.getTilingInside(op);
      if (!tiling)
        return;
      ++numScopes;
      // Printed once where it changes: a scope whose tiling is its
      // enclosing scope's (a sequential loop, a task loop, an if) gets none.
      Attribute attr = tiling->toAttr(ctx);
      Operation *outer = op->getParentOp();
      while (outer && !analysis.getTilingInside(outer))
        outer = outer->getParentOp();
      if (outer && analysis.getTilingInside(outer)->toAttr(ctx) == attr) {
        op->removeAttr("gpuir.tiling");
        op->removeAttr("gpuir.scope");
        return;
      }
      op->setAttr("gpuir.tiling", attr);
      auto [blockDim, clusterDim] = analysis.getLaunchShape(op);
      if (CollUnitAttr unit = analysis.classify(*tiling, blockDim, clusterDim))
        op->setAttr("gpuir.scope", unit);
      else
        op->removeAttr("gpuir.scope");
    });
    markAllAnalysesPreserved();
  }
};
} // namespace
