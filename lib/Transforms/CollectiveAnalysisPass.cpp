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
      op->setAttr("gpuir.tiling", tiling->toAttr(ctx));
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
