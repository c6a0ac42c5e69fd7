//===- CodegenFacts.cpp - what code generation does, for the check -------===//

#include "Rake/Analysis/CodegenFacts.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

FailureOr<int64_t> mlir::rake::arrivingThreads(ArriveOp arrive,
                                               const CollectiveAnalysis &coll) {
  const CollTiling *scope = coll.getScopeTiling(arrive);
  if (!scope)
    return arrive.emitOpError() << "has no collective tiling";
  int64_t threads = scope->getNumThreads();
  ValueRange indices = arrive.getBarrierIndices(0);
  for (Operation *p = arrive->getParentOp(); p && !isa<DeviceFunctionOp>(p);
       p = p->getParentOp()) {
    auto loop = dyn_cast<ForOp>(p);
    if (!loop || loop.getMode() != LoopMode::cuda_threads)
      continue;
    if (llvm::is_contained(indices, loop.getInductionVar()))
      continue;
    auto lo = dyn_cast<AffineConstantExpr>(loop.getLowerMap().getResult(0));
    auto hi = dyn_cast<AffineConstantExpr>(loop.getUpperMap().getResult(0));
    if (!lo || !hi)
      return arrive.emitOpError()
             << "arrives inside a cuda_threads loop of unknown trip count";
    threads *= std::max<int64_t>(0, hi.getValue() - lo.getValue());
  }
  return threads;
}

FailureOr<int64_t> mlir::rake::mbarrierArrivals(AllocOp alloc,
                                                const CollectiveAnalysis &coll) {
  Operation *device = alloc->getParentOfType<DeviceFunctionOp>();
  if (!device)
    return alloc.emitOpError() << "allocates an mbarrier outside a device "
                                  "function";
  for (Operation *user : alloc.getResult().getUsers())
    if (isa<InstrOpInterface>(user))
      return user->emitOpError()
             << "completes on an mbarrier; instructions that arrive on "
                "mbarriers are not lowered yet";
  // In program order, so that a mismatch is reported at the later one.
  SmallVector<ArriveOp> arrives;
  device->walk([&](ArriveOp arrive) {
    if (llvm::is_contained(arrive.getBarriers(), alloc.getResult()))
      arrives.push_back(arrive);
  });
  if (arrives.empty())
    return alloc.emitOpError()
           << "has no arrive statement; code generation initializes an "
              "mbarrier with the number of threads that arrive on it";
  FailureOr<int64_t> count = arrivingThreads(arrives.front(), coll);
  if (failed(count))
    return failure();
  // Several arrive statements (say, in a loop and after it) must come from
  // as many threads each: the barrier is initialized with one count.
  for (ArriveOp other : llvm::drop_begin(arrives)) {
    FailureOr<int64_t> n = arrivingThreads(other, coll);
    if (failed(n))
      return failure();
    if (*n != *count)
      return other.emitOpError()
             << "arrives from " << *n << " threads on an mbarrier array "
             << "that another arrive statement arrives on from " << *count
             << "; code generation initializes each mbarrier with one "
                "count, so every arrive statement on it must come from "
                "as many threads";
  }
  return *count;
}

LogicalResult mlir::rake::verifyMbarrierLag(AwaitOp await) {
  auto type = dyn_cast<BarrierType>(await.getBarrier().getType());
  if (!type || !type.isMbarrier() || await.getLag().value_or(0) == 0)
    return success();
  return await.emitOpError()
         << "awaits with lag(" << *await.getLag()
         << "); only lag 0 (and mbarrier_prearrive's first phase) is "
            "lowered yet";
}

LogicalResult mlir::rake::verifyOneDeviceFunction(ProcOp proc) {
  bool seen = false;
  for (auto device : proc.getBody().front().getOps<DeviceFunctionOp>()) {
    if (seen)
      return device.emitOpError()
             << "is a second device function in the procedure; code "
                "generation lowers one device function per procedure to a "
                "kernel: write each kernel as a procedure of its own";
    seen = true;
  }
  return success();
}
