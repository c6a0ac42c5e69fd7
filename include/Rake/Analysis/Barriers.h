//===- Barriers.h - facts about barriers shared by check and build -*- C++ -*-===//
//
// What code generation makes of an mbarrier, computed once for both sides:
// the synchronization check compares every phase it interprets against the
// same arrival count that code generation initializes the hardware with.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_ANALYSIS_BARRIERS_H
#define RAKE_ANALYSIS_BARRIERS_H

#include "Rake/Analysis/CollectiveAnalysis.h"

namespace mlir::rake {

/// The number of thread arrivals that completes one phase of each element
/// of the mbarrier array `alloc` makes: mbarrier.init's count. It is the
/// thread count of its arrive statements (each must give the same); guards
/// around an arrive do not change it, so a phase that fewer threads reach
/// never completes. Fails, with an error at the statement, where code
/// generation cannot initialize the barrier.
FailureOr<int64_t> mbarrierArrivals(gpuir::AllocOp alloc,
                                    const CollectiveAnalysis &coll);

/// The threads that arrive on one element of a barrier per execution of an
/// arrive statement: its collective, times the iterations of the enclosing
/// cuda_threads loops whose variables do not pick the element.
FailureOr<int64_t> arrivingThreads(gpuir::ArriveOp arrive,
                                   const CollectiveAnalysis &coll);

} // namespace mlir::rake

#endif // RAKE_ANALYSIS_BARRIERS_H
