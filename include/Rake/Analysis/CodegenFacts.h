//===- CodegenFacts.h - what code generation does, for the check -*- C++ -*-===//
//
// What code generation makes of a program, computed once for both sides, so
// that what the synchronization check accepts is what is compiled: the
// arrival count an mbarrier is initialized with (the check holds every
// phase it interprets to it), and the constructs code generation refuses,
// which the check refuses with the same message.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_ANALYSIS_CODEGENFACTS_H
#define RAKE_ANALYSIS_CODEGENFACTS_H

#include "Rake/Analysis/CollectiveAnalysis.h"

namespace mlir::rake {

/// The number of thread arrivals that completes one phase of each element
/// of the mbarrier array `alloc` makes: mbarrier.init's count. It is the
/// thread count of its arrive statements (each must give the same), or, for
/// an mbarrier that instructions complete on (TMA copies), the sum of the
/// instructions' arrivals in one sequential loop body; guards around an
/// arrive statement do not change it, so a phase that fewer threads reach
/// never completes (for instructions, `if %c == constant` on a cuda_threads
/// loop's variable, which one iteration passes, counts that iteration). Fails, with an error at the statement, where code
/// generation cannot initialize the barrier.
FailureOr<int64_t> mbarrierArrivals(gpuir::AllocOp alloc,
                                    const CollectiveAnalysis &coll);

/// The threads that arrive on one element of the arrive statement's
/// `barrier`-th barrier per execution: its collective, times the iterations
/// of the enclosing cuda_threads loops whose variables do not pick the
/// element.
FailureOr<int64_t> arrivingThreads(gpuir::ArriveOp arrive,
                                   const CollectiveAnalysis &coll,
                                   unsigned barrier = 0);
/// The same for any op arriving on a barrier element named by `indices`;
/// with `pinnedByIfs`, a loop whose variable an enclosing `gpuir.if %c ==
/// constant` pins counts once (for instructions completing on a barrier,
/// such as a multicast issued by one CTA of the cluster).
FailureOr<int64_t> arrivingThreads(Operation *op,
                                   const CollectiveAnalysis &coll,
                                   ValueRange indices, bool pinnedByIfs);

/// Code generation waits on an mbarrier with the parity of the phase, which
/// it tracks per element; it has no count of a thread's awaits, so an await
/// with lag(n) on an mbarrier is refused, by the check as by the build.
LogicalResult verifyMbarrierLag(gpuir::AwaitOp await);

/// Code generation lowers a procedure's one device function to one kernel:
/// a second device function is refused. (CPU code beside it is refused by
/// code generation alone: the check interprets it, as the sequential
/// meaning runs it.)
LogicalResult verifyOneDeviceFunction(gpuir::ProcOp proc);

/// Code generation refuses what the synchronization check cannot have
/// proven for every size: an index into a buffer of static extent (shared
/// memory, registers, a static window) that can leave it for some values of
/// the control parameters, given the loop bounds and the enclosing ifs
/// (decided by Presburger arithmetic on the affine constraints). The check
/// proves accesses in bounds only at the sizes it runs; without this, an
/// index such as (k + 1) mod 3 into a two-stage ring would compile for
/// sizes the check never saw.
LogicalResult verifyStaticBounds(gpuir::ProcOp proc);

/// A vector access of global memory: the op, its operand in global memory
/// and the bytes it moves at once (the alignment it needs).
struct VectorAccess {
  Value global;
  int64_t bytes;
};

/// Code generation lowers a vector access to one 8- or 16-byte load or
/// store, which the hardware requires aligned: refuses, at the op, an access
/// whose window is not proven to start at a multiple of its size in bytes
/// for every value of the loop variables and sizes under its guards
/// (Presburger arithmetic on the windows' offsets and static strides), or
/// whose buffer does not declare at least that alignment (gpuir.align,
/// which the runtime checks at each launch). `accessOf` says which ops are
/// vector accesses.
LogicalResult verifyVectorAlignment(
    gpuir::ProcOp proc,
    llvm::function_ref<std::optional<VectorAccess>(Operation *)> accessOf);

} // namespace mlir::rake

#endif // RAKE_ANALYSIS_CODEGENFACTS_H
