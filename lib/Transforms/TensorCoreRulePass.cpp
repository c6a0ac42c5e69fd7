//===- TensorCoreRulePass.cpp - matrix products on the tensor cores -------===//

#include "Rake/Analysis/TensorCoreRule.h"
#include "Rake/Transforms/Passes.h"

namespace mlir::rake {
#define GEN_PASS_DEF_TENSORCORERULEPASS
#include "Rake/Transforms/Passes.h.inc"
} // namespace mlir::rake

using namespace mlir;
using namespace mlir::rake;

namespace {
struct TensorCoreRulePass
    : rake::impl::TensorCoreRulePassBase<TensorCoreRulePass> {
  using TensorCoreRulePassBase::TensorCoreRulePassBase;

  void runOnOperation() override {
    if (failed(checkTensorCoreRule(getOperation(), profile)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
