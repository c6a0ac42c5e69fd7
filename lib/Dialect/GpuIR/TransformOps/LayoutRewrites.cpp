//===- LayoutRewrites.cpp - rewrites of buffers' shapes -------------------===//
//
// expand_dim, divide_dim, mult_dim, rearrange_dim, lift_alloc and
// inline_window. A buffer's layout is not part of the sequential meaning as
// long as every access reaches the element it did: each rewrite maps the
// old coordinates to the new ones by a bijection on the elements accessed
// (checked where it could fail) and rewrites every access with it. Windows
// of the buffer keep their type (the rewrite is refused where the window's
// strides would change, which the instructions taking it rely on).
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/TransformOps/Rewrites.h"
#include "Dependence.h"
#include "RewriteUtils.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::gpuir::detail;

namespace {

/// The coordinates of one use of a buffer: an element access's indices or a
/// window's coordinates (an interval as lo and hi), over `operands`.
struct Coords {
  Operation *op;
  SmallVector<Value> operands;
  /// One entry per buffer dimension: lo (and hi for an interval).
  SmallVector<AffineExpr> lo, hi;
  SmallVector<bool> interval;
};

/// The uses of a buffer, or failure (naming the use) for one the layout
/// rewrites cannot follow.
FailureOr<SmallVector<Coords, 4>> bufferUses(Value buffer, Refusal &why) {
  SmallVector<Coords, 4> uses;
  for (OpOperand &use : buffer.getUses()) {
    Operation *op = use.getOwner();
    Coords c{op, {}, {}, {}, {}};
    if (auto access = dyn_cast<AccessOpInterface>(op);
        access && &use == &access.getBufferOperand()) {
      c.operands = llvm::to_vector(access.getIndices());
      AffineMap map = access.getMap();
      unsigned r = 0;
      for (bool isInterval : access.getIntervalFlags()) {
        c.lo.push_back(map.getResult(r));
        c.hi.push_back(isInterval ? map.getResult(r + 1) : AffineExpr());
        c.interval.push_back(isInterval);
        r += isInterval ? 2 : 1;
      }
    } else if (isa<FreeOp>(op)) {
      continue;
    } else {
      return why.refuse(op->getLoc(),
                        "the buffer's layout cannot change: '" +
                            op->getName().getStringRef() +
                            "' takes the whole buffer");
    }
    uses.push_back(std::move(c));
  }
  return uses;
}

/// The window type of `window` were its source of type `source` and its
/// coordinates' intervals `intervals`.
MemRefType windowType(WindowOp window, ArrayRef<bool> intervals,
                      MemRefType source) {
  SmallVector<int64_t> strides, shape;
  int64_t offset;
  (void)source.getStridesAndOffset(strides, offset);
  SmallVector<int64_t> keptStrides;
  auto old = cast<MemRefType>(window.getResult().getType());
  unsigned k = 0;
  for (auto [d, isInterval] : llvm::enumerate(intervals))
    if (isInterval) {
      keptStrides.push_back(strides[d]);
      shape.push_back(old.getDimSize(k++));
    }
  return MemRefType::get(
      shape, source.getElementType(),
      StridedLayoutAttr::get(source.getContext(), ShapedType::kDynamic,
                             keptStrides),
      source.getMemorySpace());
}

/// Writes the new coordinates into each use and the buffer's new type.
LogicalResult applyLayout(RewriterBase &rewriter, Value buffer,
                          MemRefType newType, ArrayRef<Coords> uses,
                          ArrayRef<Coords> newUses, Refusal &why) {
  // Windows must keep their types.
  for (auto [old, now] : llvm::zip(uses, newUses))
    if (auto window = dyn_cast<WindowOp>(old.op)) {
      MemRefType t = windowType(window, now.interval, newType);
      auto before = cast<MemRefType>(window.getResult().getType());
      SmallVector<int64_t> s1, s2;
      int64_t o1, o2;
      if (failed(t.getStridesAndOffset(s1, o1)) ||
          failed(before.getStridesAndOffset(s2, o2)) || s1 != s2)
        return why.refuse(window.getLoc(),
                          "the buffer's layout cannot change: this window's "
                          "strides would change (the instructions taking it "
                          "rely on them)");
    }
  MLIRContext *ctx = buffer.getContext();
  for (const Coords &c : newUses) {
    SmallVector<AffineExpr> results;
    SmallVector<bool> intervals;
    for (unsigned d = 0; d < c.lo.size(); ++d) {
      results.push_back(c.lo[d]);
      if (c.interval[d])
        results.push_back(c.hi[d]);
      intervals.push_back(c.interval[d]);
    }
    // Kept as written (simplifyAffineMap would turn i mod 8 into
    // i - (i floordiv 8) * 8); unused operands dropped.
    ControlGroup g = simplifyGroup(
        {c.operands, AffineMap::get(c.operands.size(), 0, results, ctx)},
        /*simplify=*/false);
    rewriter.modifyOpInPlace(c.op, [&] {
      setControlGroups(c.op, g);
      if (auto window = dyn_cast<WindowOp>(c.op))
        window.setIntervals(intervals);
    });
  }
  if (auto alloc = buffer.getDefiningOp<AllocOp>())
    rewriter.modifyOpInPlace(alloc, [&] { buffer.setType(newType); });
  return success();
}

MemRefType reshaped(MemRefType t, ArrayRef<int64_t> shape) {
  return MemRefType::get(shape, t.getElementType(), MemRefLayoutAttrInterface(),
                         t.getMemorySpace());
}

FailureOr<MemRefType> allocType(Value buffer, StringRef what, Refusal &why) {
  auto alloc = buffer.getDefiningOp<AllocOp>();
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!alloc || !type)
    return why.refuse(buffer.getLoc(),
                      what.str() + " changes the shape of an allocated buffer");
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return why.refuse(alloc.getLoc(), what.str() +
                                          " needs a buffer of static shape "
                                          "and row-major layout");
  return type;
}

} // namespace

//===----------------------------------------------------------------------===//
// divide_dim, mult_dim, rearrange_dim, expand_dim
//===----------------------------------------------------------------------===//

LogicalResult mlir::rake::gpuir::divideDim(RewriterBase &rewriter,
                                           Value buffer, int64_t dim,
                                           int64_t factor, Refusal &why) {
  FailureOr<MemRefType> type = allocType(buffer, "divide_dim", why);
  if (failed(type))
    return failure();
  if (dim < 0 || dim >= type->getRank() || factor <= 0 ||
      type->getDimSize(dim) % factor)
    return why.refuse(buffer.getLoc(),
                      "cannot divide dimension " + Twine(dim) + " of " +
                          controlName(buffer) + " by " + Twine(factor) +
                          ": its size is not a multiple");
  FailureOr<SmallVector<Coords, 4>> uses = bufferUses(buffer, why);
  if (failed(uses))
    return failure();
  SmallVector<Coords, 4> now(*uses);
  for (Coords &c : now) {
    if (c.interval[dim])
      return why.refuse(c.op->getLoc(),
                        "cannot divide dimension " + Twine(dim) + " of " +
                            controlName(buffer) +
                            ": this window takes an interval of it");
    AffineExpr i = c.lo[dim];
    c.lo[dim] = i.floorDiv(factor);
    c.lo.insert(c.lo.begin() + dim + 1, i % factor);
    c.hi.insert(c.hi.begin() + dim + 1, AffineExpr());
    c.interval.insert(c.interval.begin() + dim + 1, false);
  }
  SmallVector<int64_t> shape(type->getShape());
  shape[dim] /= factor;
  shape.insert(shape.begin() + dim + 1, factor);
  return applyLayout(rewriter, buffer, reshaped(*type, shape), *uses, now, why);
}

LogicalResult mlir::rake::gpuir::multDims(RewriterBase &rewriter, Value buffer,
                                          int64_t dim, Refusal &why) {
  FailureOr<MemRefType> type = allocType(buffer, "mult_dim", why);
  if (failed(type))
    return failure();
  // (A negative dim, unsigned, wrapped dim + 1 to 0 and crashed.)
  if (dim < 0 || dim + 1 >= type->getRank())
    return why.refuse(buffer.getLoc(),
                      "mult_dim merges dimensions " + Twine(dim) + " and " +
                          Twine(dim + 1) + "; " + controlName(buffer) +
                          " has " + Twine(type->getRank()));
  FailureOr<SmallVector<Coords, 4>> uses = bufferUses(buffer, why);
  if (failed(uses))
    return failure();
  int64_t inner = type->getDimSize(dim + 1);
  SmallVector<Coords, 4> now(*uses);
  for (Coords &c : now) {
    if (c.interval[dim] || c.interval[dim + 1])
      return why.refuse(c.op->getLoc(),
                        "cannot merge dimensions " + Twine(dim) + " and " +
                            Twine(dim + 1) + " of " + controlName(buffer) +
                            ": this window takes an interval of them");
    c.lo[dim] = c.lo[dim] * inner + c.lo[dim + 1];
    c.lo.erase(c.lo.begin() + dim + 1);
    c.hi.erase(c.hi.begin() + dim + 1);
    c.interval.erase(c.interval.begin() + dim + 1);
  }
  SmallVector<int64_t> shape(type->getShape());
  shape[dim] *= inner;
  shape.erase(shape.begin() + dim + 1);
  return applyLayout(rewriter, buffer, reshaped(*type, shape), *uses, now, why);
}

LogicalResult mlir::rake::gpuir::rearrangeDims(RewriterBase &rewriter,
                                               Value buffer,
                                               ArrayRef<int64_t> perm,
                                               Refusal &why) {
  FailureOr<MemRefType> type = allocType(buffer, "rearrange_dim", why);
  if (failed(type))
    return failure();
  SmallVector<int64_t> sorted(perm);
  llvm::sort(sorted);
  bool isPerm = sorted.size() == static_cast<size_t>(type->getRank());
  for (auto [i, v] : llvm::enumerate(sorted))
    isPerm &= v == static_cast<int64_t>(i);
  if (!isPerm)
    return why.refuse(buffer.getLoc(),
                      "rearrange_dim takes a permutation of the " +
                          Twine(type->getRank()) + " dimensions of " +
                          controlName(buffer));
  FailureOr<SmallVector<Coords, 4>> uses = bufferUses(buffer, why);
  if (failed(uses))
    return failure();
  SmallVector<Coords, 4> now(*uses);
  for (auto [c, old] : llvm::zip(now, *uses)) {
    // A window's kept dimensions are its type's: they must stay in order
    // (a square tile's transposed strides would look the same).
    int64_t last = -1;
    for (int64_t p : perm)
      if (old.interval[p]) {
        if (p < last)
          return why.refuse(old.op->getLoc(),
                            "the buffer's layout cannot change: the "
                            "permutation reorders the intervals of this "
                            "window, whose dimensions are its type's");
        last = p;
      }
    for (auto [d, p] : llvm::enumerate(perm)) {
      c.lo[d] = old.lo[p];
      c.hi[d] = old.hi[p];
      c.interval[d] = old.interval[p];
    }
  }
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type->getDimSize(p));
  return applyLayout(rewriter, buffer, reshaped(*type, shape), *uses, now, why);
}

LogicalResult mlir::rake::gpuir::expandDim(RewriterBase &rewriter,
                                           Value buffer, int64_t size,
                                           AffineExpr index,
                                           ArrayRef<Value> indexOperands,
                                           Refusal &why) {
  FailureOr<MemRefType> type = allocType(buffer, "expand_dim", why);
  if (failed(type))
    return failure();
  FailureOr<SmallVector<Coords, 4>> uses = bufferUses(buffer, why);
  if (failed(uses))
    return failure();
  auto alloc = buffer.getDefiningOp<AllocOp>();
  // The index must not change while the buffer lives: its values are the
  // variables of loops around the allocation. Then every access of one
  // lifetime reaches one slot, which behaves as the whole buffer did (an
  // index over a loop inside the lifetime would part values written in one
  // iteration from reads in the next).
  for (Value v : indexOperands) {
    auto arg = dyn_cast<BlockArgument>(v);
    Operation *owner = arg ? arg.getOwner()->getParentOp() : nullptr;
    if (!owner || !owner->isProperAncestor(alloc))
      return why.refuse(alloc.getLoc(),
                        "cannot expand " + controlName(buffer) + " by an "
                        "index over " + controlName(v) + ": it changes while "
                        "the buffer lives (index by loops around its "
                        "allocation; expand before lift_alloc)");
  }
  // The index must be in [0, size) at every use.
  for (const Coords &c : *uses) {
    for (bool below : {true, false}) {
      InstancePair pair(alloc->getParentOfType<ProcOp>());
      if (failed(pair.addEnclosing(0, c.op)))
        return why.refuse(c.op->getLoc(), "cannot analyse the loops here");
      FailureOr<AffineExpr> e = pair.align(0, index, indexOperands);
      MLIRContext *ctx = buffer.getContext();
      if (failed(e) ||
          failed(below ? pair.addLt(*e, getAffineConstantExpr(0, ctx))
                       : pair.addLe(getAffineConstantExpr(size, ctx), *e)))
        return why.refuse(c.op->getLoc(), "cannot analyse the index");
      if (!pair.isEmpty())
        return why.refuse(c.op->getLoc(),
                          "cannot expand " + controlName(buffer) + ": the "
                          "new index " + printExpr(index, indexOperands) +
                          " leaves [0, " + Twine(size) + ") at this use");
    }
  }
  SmallVector<Coords, 4> now(*uses);
  for (Coords &c : now) {
    SmallVector<AffineExpr> dims;
    for (Value v : indexOperands) {
      auto it = llvm::find(c.operands, v);
      if (it == c.operands.end()) {
        c.operands.push_back(v);
        it = c.operands.end() - 1;
      }
      dims.push_back(getAffineDimExpr(it - c.operands.begin(),
                                      buffer.getContext()));
    }
    c.lo.insert(c.lo.begin(), index.replaceDims(dims));
    c.hi.insert(c.hi.begin(), AffineExpr());
    c.interval.insert(c.interval.begin(), false);
  }
  SmallVector<int64_t> shape(type->getShape());
  shape.insert(shape.begin(), size);
  return applyLayout(rewriter, buffer, reshaped(*type, shape), *uses, now, why);
}

//===----------------------------------------------------------------------===//
// lift_alloc, inline_window
//===----------------------------------------------------------------------===//

LogicalResult mlir::rake::gpuir::liftAlloc(RewriterBase &rewriter,
                                           AllocOp alloc, Refusal &why) {
  Operation *scope = alloc->getParentOp();
  if (!isa<ForOp, IfOp>(scope))
    return why.refuse(alloc.getLoc(),
                      "lift_alloc moves an allocation out of the gpuir.for or "
                      "gpuir.if around it; this one is directly in '" +
                          scope->getName().getStringRef() + "'");
  // Out of a parallel loop only when each iteration keeps its own part: a
  // dimension every use indexes by the loop's variable (as expand_dim
  // makes), so iterations touch disjoint elements and no iteration's
  // values reach another, in either meaning.
  auto ownPart = [&](ForOp loop) {
    Refusal quiet(alloc.getLoc());
    FailureOr<SmallVector<Coords, 4>> uses = bufferUses(alloc.getResult(), quiet);
    if (failed(uses))
      return false;
    unsigned rank = cast<MemRefType>(alloc.getType()).getRank();
    for (unsigned d = 0; d < rank; ++d) {
      bool all = llvm::all_of(*uses, [&](const Coords &c) {
        if (c.interval[d])
          return false;
        auto dim = dyn_cast<AffineDimExpr>(c.lo[d]);
        return dim && c.operands[dim.getPosition()] == loop.getInductionVar();
      });
      if (all && !uses->empty())
        return true;
    }
    return false;
  };
  // Threads may keep their parts of one buffer; tasks may not (a task's
  // buffers live in its CTA, and the tasks nest holds nothing else).
  if (isa<ForOp>(scope) &&
      cast<ForOp>(scope).getLoopMode() == LoopMode::cuda_tasks &&
      ownPart(cast<ForOp>(scope)))
    return why.refuse(alloc.getLoc(),
                      "cannot lift this allocation out of a cuda_tasks loop: "
                      "a task's buffers live in its CTA, and the tasks nest "
                      "holds nothing else");
  if (isa<ForOp>(scope) && cast<ForOp>(scope).getLoopMode() != LoopMode::seq &&
      !ownPart(cast<ForOp>(scope)))
    return why.refuse(alloc.getLoc(),
                      "cannot lift this allocation out of a parallel loop: "
                      "each iteration (task or thread) has its own copy; "
                      "give the buffer a dimension per iteration with "
                      "expand_dim instead");
  for (Value v : alloc.getDynamicSizes())
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && arg.getOwner()->getParentOp() == scope)
      return why.refuse(alloc.getLoc(),
                        "cannot lift this allocation: its size uses the "
                        "loop's variable");
  for (Operation *user : alloc.getResult().getUsers())
    if (isa<FreeOp>(user) && scope->isAncestor(user))
      return why.refuse(user->getLoc(),
                        "cannot lift this allocation: it is freed inside the "
                        "scope it would leave");
  // A fresh buffer each iteration holds nothing defined at its start, so
  // one buffer for all iterations reads the same wherever the program's
  // reads are defined.
  rewriter.moveOpBefore(alloc, scope);
  return success();
}

FailureOr<AllocOp> mlir::rake::gpuir::ringStages(RewriterBase &rewriter,
                                                AllocOp alloc, int64_t stages,
                                                StringRef loopName,
                                                StringRef barrierName,
                                                Refusal &why) {
  auto loop = dyn_cast<ForOp>(alloc->getParentOp());
  if (!loop || !loop.getIvName() || *loop.getIvName() != loopName)
    return why.refuse(alloc.getLoc(),
                      "ring needs the buffer allocated directly in the body "
                      "of the loop over %" + loopName +
                          " (lift_alloc it there first)");
  if (loop.getLoopMode() != LoopMode::seq)
    return why.refuse(alloc.getLoc(), "a ring's stages follow a sequential "
                                      "loop; the loop over %" + loopName +
                                          " is parallel");
  for (Operation *user : alloc.getResult().getUsers())
    if (isa<FreeOp>(user))
      return why.refuse(user->getLoc(),
                        "cannot lift this allocation: it is freed inside the "
                        "scope it would leave");
  MLIRContext *ctx = alloc.getContext();
  // The barriers: an existing ring's, or new ones before the loop.
  Value bar = lookupBuffer(loop, barrierName);
  auto ringType = BarrierType::get(ctx, BarrierMechanism::mbarrier, {stages});
  if (bar && bar.getType() != ringType) {
    std::string found;
    llvm::raw_string_ostream os(found);
    bar.getType().print(os);
    return why.refuse(alloc.getLoc(), "the ring's barrier '" + barrierName +
                                          "' is " + found + "; a ring of " +
                                          Twine(stages) + " stages needs " +
                                          "!gpuir.barrier<mbarrier [" +
                                          Twine(stages) + "]>");
  }
  if (failed(expandDim(rewriter, alloc.getResult(), stages,
                       getAffineDimExpr(0, ctx) % stages,
                       {loop.getInductionVar()}, why)))
    return failure();
  AllocOp made;
  if (!bar) {
    rewriter.setInsertionPoint(loop);
    made = AllocOp::create(rewriter, loop.getLoc(), ringType, ValueRange(),
                           rewriter.getStringAttr(barrierName));
  }
  if (failed(liftAlloc(rewriter, alloc, why))) {
    if (made)
      rewriter.eraseOp(made);
    return failure();
  }
  return made ? made : bar.getDefiningOp<AllocOp>();
}

LogicalResult mlir::rake::gpuir::inlineWindow(RewriterBase &rewriter,
                                              WindowOp window, Refusal &why) {
  MLIRContext *ctx = window.getContext();
  for (OpOperand &use : window.getResult().getUses())
    if (!isa<ReadOp, WriteOp, ReduceOp>(use.getOwner()))
      return why.refuse(use.getOwner()->getLoc(),
                        "cannot inline this window: '" +
                            use.getOwner()->getName().getStringRef() +
                            "' takes it whole (only element accesses see "
                            "through a window)");
  SmallVector<Operation *> users(window.getResult().getUsers());
  for (Operation *op : users) {
    ControlGroup g = (*getControlGroups(op))[0];
    // Operands: the access's, then the window's.
    SmallVector<Value> ops(g.operands);
    unsigned base = ops.size();
    llvm::append_range(ops, window.getIndices());
    AffineMap wmap = window.getMap();
    SmallVector<AffineExpr> results;
    unsigned r = 0, k = 0;
    for (bool isInterval : window.getIntervals()) {
      AffineExpr start = wmap.getResult(r).shiftDims(wmap.getNumDims(), base);
      if (isInterval)
        results.push_back(start + g.map.getResult(k++));
      else
        results.push_back(start);
      r += isInterval ? 2 : 1;
    }
    ControlGroup now = simplifyGroup(
        {ops, AffineMap::get(ops.size(), 0, results, ctx)});
    rewriter.modifyOpInPlace(op, [&] {
      for (OpOperand &o : op->getOpOperands())
        if (o.get() == window.getResult())
          o.set(window.getSource());
      setControlGroups(op, now);
    });
  }
  rewriter.eraseOp(window);
  return success();
}
