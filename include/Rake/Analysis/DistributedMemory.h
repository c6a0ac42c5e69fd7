//===- DistributedMemory.h - how buffers are sharded over threads -*- C++ -*-===//
//
// Distributed memory analysis (section 4.1 of the Exo-GPU paper). A buffer
// whose memory type has a native unit (registers: a thread; shared memory:
// a CTA) and that is allocated at a scope larger than that unit has one copy
// per unit. Its leading dimensions select the copy; they must be indexed by
// the variables of the cuda_threads loops that split the allocating scope
// down to the unit, the same way at every access. The analysis deduces, for
// each such buffer, the thread pitch of each distributed dimension.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_ANALYSIS_DISTRIBUTEDMEMORY_H
#define RAKE_ANALYSIS_DISTRIBUTEDMEMORY_H

#include "Rake/Analysis/CollectiveAnalysis.h"

namespace mlir::rake {

/// How a buffer's copies map to threads: the thread pitch of each leading
/// distributed dimension, and the thread offset of copy 0 within the
/// allocating collective.
struct Sharding {
  SmallVector<int64_t> pitches;
  int64_t base = 0;
  bool operator==(const Sharding &o) const {
    return pitches == o.pitches && base == o.base;
  }
};

class DistributedMemoryAnalysis {
public:
  DistributedMemoryAnalysis(Operation *root, const CollectiveAnalysis &coll);

  /// The sharding deduced for an allocation's result, if it has one.
  const Sharding *getSharding(Value buffer) const;
  LogicalResult emitErrors() const;

private:
  void analyze(Operation *alloc, Value buffer, gpuir::CollUnitAttr native);

  const CollectiveAnalysis &coll;
  llvm::DenseMap<Value, Sharding> shardings;
  SmallVector<AnalysisError> errors;
};

} // namespace mlir::rake

#endif // RAKE_ANALYSIS_DISTRIBUTEDMEMORY_H
