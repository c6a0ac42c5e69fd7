//===- CodegenFacts.cpp - what code generation does, for the check -------===//

#include "Rake/Analysis/CodegenFacts.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

/// Whether `op` runs only where `var` equals a constant: inside the then
/// branch of a gpuir.if (below `until`) whose condition is one conjunction
/// with a comparison `var == c`.
static bool pinnedByIf(Operation *op, Value var, Operation *until) {
  for (Operation *p = op->getParentOp(); p && p != until;
       p = p->getParentOp()) {
    auto ifOp = dyn_cast<IfOp>(p);
    if (!ifOp || !ifOp.getAlternativeSizes().empty() ||
        !ifOp.getThenRegion().isAncestor(op->getParentRegion()))
      continue;
    AffineMap m = ifOp.getMap();
    for (auto [i, pred] : llvm::enumerate(ifOp.getPredicates())) {
      if (pred != static_cast<int32_t>(CmpPredicate::eq))
        continue;
      AffineExpr lhs = m.getResult(2 * i), rhs = m.getResult(2 * i + 1);
      for (auto [x, y] : {std::pair(lhs, rhs), std::pair(rhs, lhs)}) {
        auto d = dyn_cast<AffineDimExpr>(x);
        if (d && isa<AffineConstantExpr>(y) &&
            ifOp.getOperands()[d.getPosition()] == var)
          return true;
      }
    }
  }
  return false;
}

FailureOr<int64_t> mlir::rake::arrivingThreads(Operation *op,
                                               const CollectiveAnalysis &coll,
                                               ValueRange indices,
                                               bool pinnedByIfs) {
  const CollTiling *scope = coll.getScopeTiling(op);
  if (!scope)
    return op->emitOpError() << "has no collective tiling";
  int64_t threads = scope->getNumThreads();
  for (Operation *p = op->getParentOp(); p && !isa<DeviceFunctionOp>(p);
       p = p->getParentOp()) {
    auto loop = dyn_cast<ForOp>(p);
    if (!loop || loop.getMode() != LoopMode::cuda_threads)
      continue;
    if (llvm::is_contained(indices, loop.getInductionVar()) ||
        (pinnedByIfs && pinnedByIf(op, loop.getInductionVar(), loop)))
      continue;
    auto lo = dyn_cast<AffineConstantExpr>(loop.getLowerMap().getResult(0));
    auto hi = dyn_cast<AffineConstantExpr>(loop.getUpperMap().getResult(0));
    if (!lo || !hi)
      return op->emitOpError()
             << "arrives inside a cuda_threads loop of unknown trip count";
    threads *= std::max<int64_t>(0, hi.getValue() - lo.getValue());
  }
  return threads;
}

FailureOr<int64_t> mlir::rake::arrivingThreads(ArriveOp arrive,
                                               const CollectiveAnalysis &coll,
                                               unsigned barrier) {
  return arrivingThreads(arrive, coll, arrive.getBarrierIndices(barrier),
                         /*pinnedByIfs=*/false);
}

/// The innermost sequential loop around `op` (or its task, or the device
/// function): the instructions completing on one mbarrier there arrive in
/// one phase.
static Operation *phaseScope(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (auto loop = dyn_cast<ForOp>(p);
        (loop && loop.getMode() != LoopMode::cuda_threads) ||
        isa<DeviceFunctionOp>(p))
      return p;
  return nullptr;
}

/// An mbarrier that instructions complete on (their trailing barrier, as
/// TMA copies do): each instruction is one arrival of its threads, so a
/// phase gets the arrivals of every such instruction in one sequential
/// loop body; every loop body that has them must give the same count.
static FailureOr<int64_t>
instructionArrivals(AllocOp alloc, ArrayRef<Operation *> instrs,
                    const CollectiveAnalysis &coll) {
  llvm::MapVector<Operation *, int64_t> perScope;
  for (Operation *op : instrs) {
    SmallVector<Value> indices;
    AffineMap map;
    SmallVector<bool> intervals;
    cast<InstrOpInterface>(op).getTrailingBarrierCoords(indices, map,
                                                         intervals);
    FailureOr<int64_t> n =
        arrivingThreads(op, coll, indices, /*pinnedByIfs=*/true);
    if (failed(n))
      return failure();
    perScope[phaseScope(op)] += *n;
  }
  int64_t count = perScope.front().second;
  for (auto [scope, n] : llvm::drop_begin(perScope))
    if (n != count)
      return scope->emitOpError()
             << "completes " << n << " instruction arrivals a phase on "
             << "an mbarrier array on which another loop body completes "
             << count
             << "; code generation initializes each mbarrier with one count, "
                "so every loop body must complete as many instructions on it";
  return count;
}

FailureOr<int64_t> mlir::rake::mbarrierArrivals(AllocOp alloc,
                                                const CollectiveAnalysis &coll) {
  Operation *device = alloc->getParentOfType<DeviceFunctionOp>();
  if (!device)
    return alloc.emitOpError() << "allocates an mbarrier outside a device "
                                  "function";
  // In program order, so that a mismatch is reported at the later one.
  SmallVector<ArriveOp> arrives;
  SmallVector<Operation *> instrs;
  device->walk([&](Operation *op) {
    if (auto arrive = dyn_cast<ArriveOp>(op);
        arrive && llvm::is_contained(arrive.getBarriers(), alloc.getResult()))
      arrives.push_back(arrive);
    if (auto instr = dyn_cast<InstrOpInterface>(op);
        instr && instr.getTrailingBarrier() == alloc.getResult())
      instrs.push_back(op);
  });
  if (!instrs.empty() && !arrives.empty())
    return arrives.front().emitOpError()
           << "arrives on an mbarrier that instructions also complete on "
              "(their trailing barrier); code generation counts one kind "
              "of arrival per mbarrier: use an mbarrier of its own for each";
  if (!instrs.empty())
    return instructionArrivals(alloc, instrs, coll);
  if (arrives.empty())
    return alloc.emitOpError()
           << "has no arrive statement; code generation initializes an "
              "mbarrier with the number of threads that arrive on it";
  // Which of an arrive's barriers is this one.
  auto position = [&](ArriveOp arrive) {
    return unsigned(llvm::find(arrive.getBarriers(), alloc.getResult()) -
                    arrive.getBarriers().begin());
  };
  FailureOr<int64_t> count =
      arrivingThreads(arrives.front(), coll, position(arrives.front()));
  if (failed(count))
    return failure();
  // Several arrive statements (say, in a loop and after it) must come from
  // as many threads each: the barrier is initialized with one count.
  for (ArriveOp other : llvm::drop_begin(arrives)) {
    FailureOr<int64_t> n = arrivingThreads(other, coll, position(other));
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

namespace {

/// The affine constraints under which an op runs: its control values (loop
/// variables, procedure parameters) as dimensions, bounded by their loops
/// and by the conditions of the enclosing ifs (negated in an else branch).
class Domain {
public:
  explicit Domain(Operation *op) {
    for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
      if (auto loop = dyn_cast<ForOp>(p))
        addValue(loop.getInductionVar());
      if (auto ifOp = dyn_cast<IfOp>(p)) {
        // In the else branch, the negation of a single comparison is one
        // comparison too (that of a conjunction is not: left out, which only
        // widens the domain).
        // An `or` of alternatives is not a conjunction either: left out.
        bool inThen = ifOp.getThenRegion().isAncestor(op->getParentRegion());
        bool oneAlternative =
            ifOp.getAlternativeSizes().size() <= 1;
        if (oneAlternative && (inThen || ifOp.getPredicates().size() == 1))
          ifs.push_back({ifOp, !inThen});
      }
    }
    for (auto [ifOp, negated] : ifs)
      for (Value v : ifOp.getOperands())
        addValue(v);
  }

  void addValue(Value v) {
    if (llvm::is_contained(values, v))
      return;
    values.push_back(v);
    if (auto arg = dyn_cast<BlockArgument>(v))
      if (auto loop = dyn_cast<ForOp>(arg.getOwner()->getParentOp())) {
        for (Value o : loop.getLowerOperands())
          addValue(o);
        for (Value o : loop.getUpperOperands())
          addValue(o);
      }
  }

  /// `e` over `operands`, as an expression of the domain's values.
  AffineExpr lift(AffineExpr e, ValueRange operands) {
    SmallVector<AffineExpr> dims;
    for (Value v : operands) {
      addValue(v);
      dims.push_back(getAffineDimExpr(
          llvm::find(values, v) - values.begin(), e.getContext()));
    }
    return e.replaceDims(dims);
  }

  /// Whether `index` (over `operands`) can lie outside [0, extent) in the
  /// domain; an interval's `hi` (exclusive) may equal the extent.
  bool canLeave(AffineExpr index, ValueRange operands, int64_t extent,
                bool exclusiveEnd) {
    AffineExpr e = lift(index, operands);
    int64_t limit = exclusiveEnd ? extent + 1 : extent;
    for (bool below : {true, false}) {
      FlatLinearConstraints cst = constraints();
      unsigned z = cst.appendDimVar();
      AffineMap map = AffineMap::get(cst.getNumDimVars(), 0, e);
      if (failed(cst.addBound(presburger::BoundType::EQ, z, map)))
        return false; // Not affine: left to the check's sizes.
      if (below)
        cst.addBound(presburger::BoundType::UB, z, -1);
      else
        cst.addBound(presburger::BoundType::LB, z, limit);
      // Exact integer emptiness (isEmpty() only eliminates variables, which
      // cannot see that floor divisions of nonnegative values are
      // nonnegative).
      if (!cst.isIntegerEmpty())
        return true;
    }
    return false;
  }

  /// Whether `e` (already lifted over the domain's values) can be other
  /// than a multiple of `k` in the domain: e = k q + r, 1 <= r < k has an
  /// integer solution. Not affine counts as possible.
  bool canMissMultiple(AffineExpr e, int64_t k) {
    if (k <= 1)
      return false;
    FlatLinearConstraints cst = constraints();
    unsigned z = cst.appendDimVar();
    unsigned q = cst.appendDimVar();
    unsigned r = cst.appendDimVar();
    MLIRContext *ctx = e.getContext();
    AffineMap map = AffineMap::get(cst.getNumDimVars(), 0, e);
    if (failed(cst.addBound(presburger::BoundType::EQ, z, map)))
      return true;
    AffineMap split = AffineMap::get(
        cst.getNumDimVars(), 0,
        getAffineDimExpr(q, ctx) * k + getAffineDimExpr(r, ctx));
    if (failed(cst.addBound(presburger::BoundType::EQ, z, split)))
      return true;
    cst.addBound(presburger::BoundType::LB, r, 1);
    cst.addBound(presburger::BoundType::UB, r, k - 1);
    return !cst.isIntegerEmpty();
  }

private:
  /// The loops' bounds and the ifs' conditions, over the values (and one
  /// slack variable per comparison, after them).
  FlatLinearConstraints constraints() {
    unsigned n = values.size();
    FlatLinearConstraints cst(n, 0);
    auto over = [&](AffineExpr e) {
      return AffineMap::get(cst.getNumDimVars(), 0, e);
    };
    for (unsigned i = 0; i < n; ++i) {
      Value v = values[i];
      auto arg = dyn_cast<BlockArgument>(v);
      auto loop = arg ? dyn_cast<ForOp>(arg.getOwner()->getParentOp())
                      : ForOp();
      if (!loop) {
        cst.addBound(presburger::BoundType::LB, i, 0); // a size or index
        continue;
      }
      AffineExpr lb = lift(loop.getLowerMap().getResult(0),
                           loop.getLowerOperands());
      AffineExpr ub = lift(loop.getUpperMap().getResult(0),
                           loop.getUpperOperands());
      (void)cst.addBound(presburger::BoundType::LB, i, over(lb),
                         /*isClosedBound=*/true);
      (void)cst.addBound(presburger::BoundType::UB, i, over(ub),
                         /*isClosedBound=*/false);
    }
    for (auto [ifOp, negated] : ifs) {
      AffineMap m = ifOp.getMap();
      for (auto [k, p] : llvm::enumerate(ifOp.getPredicates())) {
        auto pred = static_cast<CmpPredicate>(p);
        if (negated && pred == CmpPredicate::eq)
          continue; // l != r: not one comparison.
        AffineExpr l = lift(m.getResult(2 * k), ifOp.getOperands());
        AffineExpr r = lift(m.getResult(2 * k + 1), ifOp.getOperands());
        // slack = l - r, compared with 0.
        unsigned slack = cst.appendDimVar();
        if (failed(cst.addBound(presburger::BoundType::EQ, slack,
                                over(l - r))))
          continue;
        if (negated)
          pred = pred == CmpPredicate::lt   ? CmpPredicate::ge
                 : pred == CmpPredicate::le ? CmpPredicate::gt
                 : pred == CmpPredicate::gt ? CmpPredicate::le
                                            : CmpPredicate::lt;
        switch (pred) {
        case CmpPredicate::eq:
          cst.addBound(presburger::BoundType::EQ, slack, 0);
          break;
        case CmpPredicate::lt:
          cst.addBound(presburger::BoundType::UB, slack, -1);
          break;
        case CmpPredicate::le:
          cst.addBound(presburger::BoundType::UB, slack, 0);
          break;
        case CmpPredicate::gt:
          cst.addBound(presburger::BoundType::LB, slack, 1);
          break;
        case CmpPredicate::ge:
          cst.addBound(presburger::BoundType::LB, slack, 0);
          break;
        }
      }
    }
    return cst;
  }

  SmallVector<Value> values;
  /// The enclosing ifs, and whether the op is in the else branch.
  SmallVector<std::pair<IfOp, bool>> ifs;
};


} // namespace

LogicalResult mlir::rake::verifyStaticBounds(ProcOp proc) {
  auto refuse = [](Operation *op, unsigned dim, int64_t extent) {
    return op->emitOpError()
           << "the index of dimension " << dim
           << " can leave the extent " << extent
           << " of its buffer for some sizes (the synchronization check "
              "proves accesses in bounds only at the sizes it runs); keep "
              "the index inside the buffer for every value, with a guard "
              "or a larger buffer";
  };
  WalkResult result = proc.walk([&](Operation *op) -> WalkResult {
    if (auto window = dyn_cast<WindowOp>(op)) {
      auto type = cast<MemRefType>(window.getSource().getType());
      AffineMap m = window.getMap();
      unsigned r = 0;
      for (auto [d, isInterval] : llvm::enumerate(window.getIntervals())) {
        AffineExpr lo = m.getResult(r++);
        AffineExpr hi = isInterval ? m.getResult(r++) : AffineExpr();
        if (type.isDynamicDim(d))
          continue;
        int64_t extent = type.getDimSize(d);
        Domain dom(op);
        if (dom.canLeave(lo, window.getIndices(), extent, false))
          return refuse(op, d, extent), WalkResult::interrupt();
        if (hi && dom.canLeave(hi, window.getIndices(), extent, true))
          return refuse(op, d, extent), WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    auto access = dyn_cast<AccessOpInterface>(op);
    if (!access || !access.isElementAccess())
      return WalkResult::advance();
    Value memref = access.getBuffer();
    AffineMap m = access.getMap();
    ValueRange indices = access.getIndices();
    auto type = cast<MemRefType>(memref.getType());
    for (auto [d, e] : llvm::enumerate(m.getResults())) {
      if (type.isDynamicDim(d))
        continue;
      if (Domain(op).canLeave(e, indices, type.getDimSize(d), false))
        return refuse(op, d, type.getDimSize(d)), WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult mlir::rake::verifyVectorAlignment(
    ProcOp proc,
    llvm::function_ref<std::optional<VectorAccess>(Operation *)> accessOf) {
  WalkResult result = proc.walk([&](Operation *op) -> WalkResult {
    std::optional<VectorAccess> access = accessOf(op);
    if (!access)
      return WalkResult::advance();
    int64_t bytes = access->bytes;
    Domain dom(op);
    // The access's offset from its buffer's first element, in elements: the
    // windows' starts times their sources' strides, down to the parameter.
    AffineExpr offset = getAffineConstantExpr(0, op->getContext());
    Value v = access->global;
    // A static offset in a memref type is what the lowering addresses
    // through (the windows' verifier holds it to the window's own; a
    // parameter's is the caller's promise): it pins the offset from there.
    auto staticOffset = [](Value m) -> std::optional<int64_t> {
      SmallVector<int64_t> strides;
      int64_t off;
      if (failed(cast<MemRefType>(m.getType()).getStridesAndOffset(strides,
                                                                  off)) ||
          ShapedType::isDynamic(off))
        return std::nullopt;
      return off;
    };
    bool pinned = false;
    if (std::optional<int64_t> c = staticOffset(v)) {
      offset = offset + *c;
      pinned = true;
    }
    while (auto window = v.getDefiningOp<WindowOp>()) {
      if (pinned) {
        v = window.getSource();
        continue;
      }
      auto type = cast<MemRefType>(window.getSource().getType());
      SmallVector<int64_t> strides;
      int64_t base;
      if (failed(type.getStridesAndOffset(strides, base)))
        return op->emitOpError() << "is a vector access whose window's "
                                    "source has no strided layout; its "
                                    "alignment cannot be proven",
               WalkResult::interrupt();
      AffineMap m = window.getMap();
      unsigned r = 0;
      for (auto [d, isInterval] : llvm::enumerate(window.getIntervals())) {
        AffineExpr lo = m.getResult(r++);
        if (isInterval)
          ++r;
        if (ShapedType::isDynamic(strides[d]))
          return op->emitOpError()
                     << "is a vector access of " << bytes
                     << " bytes through dimension " << d << " of " << type
                     << ", whose stride is not static; its alignment cannot "
                        "be proven (give the buffer static inner extents)",
                 WalkResult::interrupt();
        offset = offset + dom.lift(lo, window.getIndices()) * strides[d];
      }
      v = window.getSource();
      if (std::optional<int64_t> c = staticOffset(v)) {
        offset = offset + *c;
        pinned = true;
      }
    }
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner()->getParentOp() != proc.getOperation())
      return op->emitOpError() << "is a vector access of global memory that "
                                  "is not a window of a procedure's buffer "
                                  "parameter",
             WalkResult::interrupt();
    auto type = cast<MemRefType>(v.getType());
    unsigned index = arg.getArgNumber();
    auto align = proc.getArgAttrOfType<IntegerAttr>(index, kAlignAttrName);
    if (!align || align.getInt() < bytes)
      return op->emitOpError()
                 << "moves " << bytes << " bytes at once, which needs the "
                 << "first element of its buffer (parameter #" << index
                 << ") aligned to " << bytes << " bytes; declare it with {"
                 << kAlignAttrName << " = " << bytes
                 << "} (every launch must then pass a buffer so aligned)",
             WalkResult::interrupt();
    int64_t elementBytes = type.getElementTypeBitWidth() / 8;
    int64_t k = bytes / elementBytes;
    if (dom.canMissMultiple(offset, k))
      return op->emitOpError()
                 << "moves " << bytes << " bytes at once, but its window "
                 << "can start at an element offset that is not a multiple "
                    "of "
                 << k << " for some values of the loops and sizes under "
                 << "its guards; start each run at a multiple of " << k
                 << " elements, or read the elements one by one",
             WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
