//===- DistributedMemoryPass.cpp - annotate buffers with their sharding ---===//

#include "Rake/Analysis/DistributedMemory.h"
#include "Rake/Transforms/Passes.h"

namespace mlir::rake {
#define GEN_PASS_DEF_DISTRIBUTEDMEMORYPASS
#include "Rake/Transforms/Passes.h.inc"
} // namespace mlir::rake

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace {
struct DistributedMemoryPass
    : rake::impl::DistributedMemoryPassBase<DistributedMemoryPass> {
  void runOnOperation() override {
    auto &coll = getAnalysis<CollectiveAnalysis>();
    if (failed(coll.emitErrors()))
      return signalPassFailure();
    DistributedMemoryAnalysis analysis(getOperation(), coll);
    if (failed(analysis.emitErrors()))
      return signalPassFailure();
    getOperation()->walk([&](AllocOp alloc) {
      if (const Sharding *s = analysis.getSharding(alloc.getResult()))
        alloc->setAttr("gpuir.sharding",
                       ShardingAttr::get(&getContext(), s->pitches));
    });
    markAllAnalysesPreserved();
  }
};
} // namespace
