//===- Rewrites.cpp - checked rewrites of GpuIR ---------------------------===//
//
// Each rewrite checks that it keeps the sequential meaning, then rewrites
// through the rewriter (so the Transform dialect's handles follow). Control
// values are loop variables and parameters and every computation on them is
// an affine map on the op that uses them, so replacing a loop variable is a
// composition of maps (substituteControlValue).
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/TransformOps/Rewrites.h"
#include "Dependence.h"
#include "RewriteUtils.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::gpuir::detail;

std::optional<TailStrategy>
mlir::rake::gpuir::symbolizeTailStrategy(StringRef name) {
  return llvm::StringSwitch<std::optional<TailStrategy>>(name)
      .Case("perfect", TailStrategy::perfect)
      .Case("guard", TailStrategy::guard)
      .Case("cut", TailStrategy::cut)
      .Default(std::nullopt);
}

//===----------------------------------------------------------------------===//
// divide_loop
//===----------------------------------------------------------------------===//

FailureOr<std::pair<ForOp, ForOp>> mlir::rake::gpuir::divideLoop(
    RewriterBase &rewriter, ForOp loop, int64_t factor, TailStrategy tail,
    StringRef outerName, StringRef innerName, Refusal &why) {
  MLIRContext *ctx = loop.getContext();
  Location loc = loop.getLoc();
  ControlGroup lo{llvm::to_vector(loop.getLowerOperands()), loop.getLowerMap()};
  ControlGroup hi{llvm::to_vector(loop.getUpperOperands()), loop.getUpperMap()};
  auto [ctl, bounds] = combine(lo, hi);
  auto [loE, hiE] = bounds;
  unsigned n = ctl.size();
  AffineExpr trip = simplifyAffineExpr(hiE - loE, n, 0);

  if (tail == TailStrategy::perfect) {
    // Is there a value of the control values for which the trip count
    // leaves a remainder? trip = factor * q + r with 1 <= r < factor.
    FlatLinearConstraints cst(n + 2, 0);
    AffineExpr q = getAffineDimExpr(n, ctx), r = getAffineDimExpr(n + 1, ctx);
    unsigned z = cst.appendDimVar(1);
    auto mapOf = [&](AffineExpr e) {
      return AffineMap::get(cst.getNumDimVars(), 0, e);
    };
    bool ok = succeeded(cst.addBound(presburger::BoundType::EQ, z,
                                     mapOf(trip), true)) &&
              succeeded(cst.addBound(presburger::BoundType::EQ, z,
                                     mapOf(q * factor + r), true));
    cst.addBound(presburger::BoundType::LB, n + 1, 1);
    cst.addBound(presburger::BoundType::UB, n + 1, factor - 1);
    if (!ok)
      return why.refuse(loc, "cannot divide the loop over " + loopName(loop) +
                                 ": its bounds are not quasi-affine");
    if (factor > 1 && !cst.isIntegerEmpty())
      return why.refuse(
          loc, "cannot divide the loop over " + loopName(loop) + " by " +
                   Twine(factor) + " perfectly: its trip count " +
                   printExpr(trip, ctl) + " is not a multiple of " +
                   Twine(factor) +
                   " for every value of its parameters; use tail(guard) or "
                   "tail(cut)");
  }

  if (failed(checkSubstitutable(loop.getInductionVar(), why)))
    return failure();
  std::string base = loop.getIvName() ? loop.getIvName()->str() : "i";
  std::string oName = outerName.empty() ? base + "o" : outerName.str();
  std::string iName = innerName.empty() ? base + "i" : innerName.str();

  // The loop becomes the outer loop (so handles to it and to its body stay
  // valid); the inner loop is new. Uses of the variable are collected first:
  // the new ops use it as the outer loop's variable.
  Value iv = loop.getInductionVar();
  SmallVector<Operation *> users;
  for (Operation *user : iv.getUsers())
    if (!llvm::is_contained(users, user))
      users.push_back(user);
  ControlGroup outerHi = simplifyGroup(
      {ctl, AffineMap::get(n, 0,
                           tail == TailStrategy::guard ? trip.ceilDiv(factor)
                                                       : trip.floorDiv(factor))});
  if (tail == TailStrategy::cut) {
    // The rest: from lo + (trip floordiv factor) * factor to hi.
    rewriter.setInsertionPointAfter(loop);
    ForOp tailLoop = cast<ForOp>(rewriter.clone(*loop.getOperation()));
    ControlGroup tailLo = simplifyGroup(
        {ctl, AffineMap::get(n, 0, loE + trip.floorDiv(factor) * factor)});
    rewriter.modifyOpInPlace(tailLoop, [&] {
      tailLoop.getLowerOperandsMutable().assign(tailLo.operands);
      tailLoop.setLowerMapAttr(AffineMapAttr::get(tailLo.map));
    });
    // Where the loop may run no iteration with hi < lo, the tail would start
    // below lo: its body is guarded by %i >= lo.
    InstancePair pair(loop->getParentOfType<ProcOp>());
    FailureOr<AffineExpr> l, h;
    bool negative = true;
    if (succeeded(pair.addEnclosing(0, loop)) &&
        succeeded(l = pair.align(0, loE, ctl)) &&
        succeeded(h = pair.align(0, hiE, ctl)) &&
        succeeded(pair.addLt(*h, *l)))
      negative = !pair.isEmpty();
    if (negative) {
      Block *tb = tailLoop.getBodyBlock();
      SmallVector<Operation *> ops =
          llvm::map_to_vector(*tb, [](Operation &op) { return &op; });
      rewriter.setInsertionPointToStart(tb);
      SmallVector<Value> condOps(ctl);
      condOps.push_back(tailLoop.getInductionVar());
      guardStatements(rewriter, loc, ops, condOps, getAffineDimExpr(n, ctx),
                      CmpPredicate::ge, loE);
    }
  }
  ControlGroup zero = constantGroup(ctx, 0);
  rewriter.modifyOpInPlace(loop, [&] {
    setControlGroups(loop, {zero, outerHi});
    loop.setIvNameAttr(rewriter.getStringAttr(oName));
  });
  ForOp outer = loop;
  Block *body = loop.getBodyBlock();
  SmallVector<Operation *> bodyOps =
      llvm::map_to_vector(*body, [](Operation &op) { return &op; });
  rewriter.setInsertionPointToStart(body);
  ForOp inner = makeLoop(rewriter, loc, zero, constantGroup(ctx, factor),
                         loop.getModeAttr(), loop.getUnitAttr(), iName);
  Block *dest = inner.getBodyBlock();
  SmallVector<Value> replOps(ctl);
  replOps.push_back(iv);
  replOps.push_back(inner.getInductionVar());
  AffineExpr io = getAffineDimExpr(n, ctx), ii = getAffineDimExpr(n + 1, ctx);
  AffineExpr repl = loE + io * factor + ii;
  if (tail == TailStrategy::guard) {
    rewriter.setInsertionPointToStart(dest);
    dest = &guardStatements(rewriter, loc, {}, replOps, repl,
                            CmpPredicate::lt, hiE)
                .getThenRegion()
                .front();
  }
  // Move the body, then replace the old variable in the ops that used it.
  for (Operation *op : bodyOps)
    rewriter.moveOpBefore(op, dest, dest->end());
  for (Operation *user : users)
    if (failed(substituteControlValue(rewriter, user, iv, repl, replOps)))
      return why.refuse(user->getLoc(),
                        "the rewrite does not know the control expressions "
                        "of '" + user->getName().getStringRef() + "'");
  return std::make_pair(outer, inner);
}

//===----------------------------------------------------------------------===//
// reorder_loops
//===----------------------------------------------------------------------===//

FailureOr<std::pair<ForOp, ForOp>>
mlir::rake::gpuir::reorderLoops(RewriterBase &rewriter, ForOp outer,
                                Refusal &why) {
  Block *body = outer.getBodyBlock();
  auto inner = dyn_cast<ForOp>(body->empty() ? nullptr : &body->front());
  if (!inner || !llvm::hasSingleElement(*body))
    return why.refuse(outer.getLoc(),
                      "cannot reorder the loop over " + loopName(outer) +
                          ": its body must be exactly one gpuir.for (the "
                          "loops must be perfectly nested)");
  Value i = outer.getInductionVar(), j = inner.getInductionVar();
  if (llvm::is_contained(inner->getOperands(), i))
    return why.refuse(inner.getLoc(),
                      "cannot reorder the loops over " + loopName(outer) +
                          " and " + loopName(inner) + ": the bounds of " +
                          loopName(inner) + " use " + loopName(outer));

  SmallVector<Access> accesses;
  if (failed(collectAccesses(inner, accesses, why)))
    return failure();
  // A conflict the interchange reverses: i1 < i2 and j1 > j2.
  FailureOr<std::optional<Conflict>> conflict = findConflict(
      outer->getParentOp(), accesses, accesses,
      [&](InstancePair &p) {
        return success(
            succeeded(p.addLt(p.dim(p.var(0, i)), p.dim(p.var(1, i)))) &&
            succeeded(p.addLt(p.dim(p.var(1, j)), p.dim(p.var(0, j)))));
      },
      why);
  if (failed(conflict))
    return failure();
  if (*conflict) {
    const Conflict &c = **conflict;
    (void)why.refuse(outer.getLoc(),
               "cannot reorder the loops over " + loopName(outer) + " and " +
                   loopName(inner) + ": " + reach(c) +
                   " one element in iterations whose order the interchange "
                   "reverses");
    noteConflict(why, c);
    return failure();
  }

  // The loops trade headers (bounds, mode, unit, name and attributes) and
  // variables, in place: no op is created or erased, so handles stay valid
  // (the op that was outer is still outer, now over %j).
  auto headerOf = [](ForOp l) {
    return std::make_tuple(
        SmallVector<ControlGroup>{
            {llvm::to_vector(l.getLowerOperands()), l.getLowerMap()},
            {llvm::to_vector(l.getUpperOperands()), l.getUpperMap()}},
        l.getModeAttr(), l.getUnitAttr(), l.getIvNameAttr(),
        l->getDiscardableAttrDictionary());
  };
  auto outerHeader = headerOf(outer), innerHeader = headerOf(inner);
  auto setHeader = [&](ForOp l, const decltype(outerHeader) &h) {
    rewriter.modifyOpInPlace(l, [&] {
      setControlGroups(l, std::get<0>(h));
      l.setModeAttr(std::get<1>(h));
      if (std::get<2>(h))
        l.setUnitAttr(std::get<2>(h));
      else
        l.removeUnitAttr();
      if (std::get<3>(h))
        l.setIvNameAttr(std::get<3>(h));
      else
        l.removeIvNameAttr();
      l->setDiscardableAttrs(std::get<4>(h));
    });
  };
  setHeader(outer, innerHeader);
  setHeader(inner, outerHeader);
  SmallVector<OpOperand *> usesOfI, usesOfJ;
  for (OpOperand &use : i.getUses())
    usesOfI.push_back(&use);
  for (OpOperand &use : j.getUses())
    usesOfJ.push_back(&use);
  for (OpOperand *use : usesOfI)
    rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(j); });
  for (OpOperand *use : usesOfJ)
    rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(i); });
  return std::make_pair(outer, inner);
}

//===----------------------------------------------------------------------===//
// reorder_stmts
//===----------------------------------------------------------------------===//

Operation *mlir::rake::gpuir::detail::usesValueOf(Operation *user,
                                                  Operation *def) {
  Operation *found = nullptr;
  user->walk([&](Operation *op) {
    for (Value v : op->getOperands()) {
      Operation *d = v.getDefiningOp();
      if (!d)
        if (auto arg = dyn_cast<BlockArgument>(v))
          d = arg.getOwner()->getParentOp();
      if (d && (d == def || def->isProperAncestor(d))) {
        found = op;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return found;
}

LogicalResult mlir::rake::gpuir::reorderStmts(RewriterBase &rewriter,
                                              Operation *first, Refusal &why) {
  Operation *second = first->getNextNode();
  if (!second)
    return why.refuse(first->getLoc(),
                      "cannot move this statement down: it is the last of its "
                      "block");
  if (Operation *user = usesValueOf(second, first)) {
    (void)why.refuse(first->getLoc(),
               "cannot swap this statement with the next: the next uses a "
               "value it makes");
    why.note(user->getLoc(), "the use");
    return failure();
  }
  SmallVector<Access> a, b;
  if (failed(collectAccesses(first, a, why)) ||
      failed(collectAccesses(second, b, why)))
    return failure();
  FailureOr<std::optional<Conflict>> conflict = findConflict(
      first->getParentOp(), a, b, [](InstancePair &) { return success(); },
      why);
  if (failed(conflict))
    return failure();
  if (*conflict) {
    const Conflict &c = **conflict;
    (void)why.refuse(first->getLoc(),
               "cannot swap this statement with the next: " + reach(c) +
                   " one element, so their order matters");
    noteConflict(why, c);
    return failure();
  }
  rewriter.moveOpAfter(first, second);
  return success();
}

//===----------------------------------------------------------------------===//
// fission
//===----------------------------------------------------------------------===//

FailureOr<std::pair<ForOp, ForOp>>
mlir::rake::gpuir::fissionAfter(RewriterBase &rewriter, Operation *stmt,
                                Refusal &why) {
  auto loop = dyn_cast_or_null<ForOp>(stmt->getParentOp());
  if (!loop)
    return why.refuse(stmt->getLoc(),
                      "cannot split the loop after this statement: it is not "
                      "directly in a gpuir.for");
  if (!stmt->getNextNode())
    return why.refuse(stmt->getLoc(),
                      "cannot split the loop after this statement: it is the "
                      "last of the loop's body, so the second loop would be "
                      "empty");
  BodySplit split;
  if (failed(splitBody(loop, stmt, split,
                       "cannot split the loop over " + loopName(loop) +
                           " after this statement: a statement after it uses "
                           "a value or buffer made before it (move the "
                           "allocation out of the loop first)",
                       /*noteMade=*/true, why)))
    return failure();
  ArrayRef<Operation *> secondPart = split.second;
  ArrayRef<Access> accA = split.firstAccesses, accB = split.secondAccesses;
  // B at i1 before A at i2 > i1 in the loop; after fission A at i2 would run
  // first.
  Value i = loop.getInductionVar();
  FailureOr<std::optional<Conflict>> conflict = findConflict(
      loop->getParentOp(), accB, accA,
      [&](InstancePair &p) {
        return p.addLt(p.dim(p.var(0, i)), p.dim(p.var(1, i)));
      },
      why);
  if (failed(conflict))
    return failure();
  if (*conflict) {
    const Conflict &c = **conflict;
    (void)why.refuse(stmt->getLoc(),
               "cannot split the loop over " + loopName(loop) +
                   " after this statement: " + describeAccess(c.first) +
                   " after it and " + describeAccess(c.second) +
                   " before it reach one element in different iterations, "
                   "and splitting would run the later iteration's first");
    noteConflict(why, c);
    return failure();
  }
  rewriter.setInsertionPointAfter(loop);
  ForOp second = makeLoop(
      rewriter, loop.getLoc(),
      {llvm::to_vector(loop.getLowerOperands()), loop.getLowerMap()},
      {llvm::to_vector(loop.getUpperOperands()), loop.getUpperMap()},
      loop.getModeAttr(), loop.getUnitAttr(),
      loop.getIvName() ? *loop.getIvName() : StringRef());
  second->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *dest = second.getBodyBlock();
  for (Operation *b : secondPart)
    rewriter.moveOpBefore(b, dest, dest->end());
  for (Operation *b : secondPart)
    b->walk([&](Operation *op) {
      for (OpOperand &use : op->getOpOperands())
        if (use.get() == i)
          rewriter.modifyOpInPlace(
              op, [&] { use.set(second.getInductionVar()); });
    });
  return std::make_pair(loop, second);
}

//===----------------------------------------------------------------------===//
// unroll
//===----------------------------------------------------------------------===//

LogicalResult mlir::rake::gpuir::unrollLoop(RewriterBase &rewriter, ForOp loop,
                                            Refusal &why) {
  std::optional<int64_t> lo = loop.getConstantLowerBound();
  std::optional<int64_t> hi = loop.getConstantUpperBound();
  if (!lo || !hi)
    return why.refuse(loop.getLoc(),
                      "cannot unroll the loop over " + loopName(loop) +
                          ": its bounds are not constants (divide it first)");
  Value iv = loop.getInductionVar();
  if (failed(checkSubstitutable(iv, why)))
    return failure();
  rewriter.setInsertionPoint(loop);
  for (int64_t v = *lo; v < *hi; ++v) {
    IRMapping map;
    for (Operation &op : *loop.getBodyBlock()) {
      Operation *copy = rewriter.clone(op, map);
      SmallVector<Operation *> users;
      copy->walk([&](Operation *o) {
        if (llvm::is_contained(o->getOperands(), iv))
          users.push_back(o);
      });
      for (Operation *u : users)
        if (failed(substituteControlValue(
                rewriter, u, iv,
                getAffineConstantExpr(v, loop.getContext()), {})))
          return why.refuse(u->getLoc(),
                            "the rewrite does not know the control "
                            "expressions of '" +
                                u->getName().getStringRef() + "'");
    }
  }
  rewriter.eraseOp(loop);
  return success();
}

//===----------------------------------------------------------------------===//
// set_loop_mode
//===----------------------------------------------------------------------===//

LogicalResult mlir::rake::gpuir::setLoopMode(RewriterBase &rewriter,
                                             ForOp loop, LoopMode mode,
                                             CollUnitAttr unit, Refusal &why) {
  LoopModeAttr oldMode = loop.getModeAttr();
  CollUnitAttr oldUnit = loop.getUnitAttr();
  auto set = [&](LoopModeAttr m, CollUnitAttr u) {
    rewriter.modifyOpInPlace(loop, [&] {
      loop.setModeAttr(m);
      if (u)
        loop.setUnitAttr(u);
      else
        loop.removeUnitAttr();
    });
  };
  set(LoopModeAttr::get(loop.getContext(), mode), unit);
  // GpuIR's rules on modes: the loop's own, and those of the loops it
  // holds and is held by (a cuda_tasks nest must stay perfect).
  std::string message;
  {
    ScopedDiagnosticHandler handler(loop.getContext(), [&](Diagnostic &d) {
      if (message.empty()) {
        message = d.str();
        StringRef prefix = "'gpuir.for' op ";
        if (StringRef(message).starts_with(prefix))
          message = message.substr(prefix.size());
      }
      return success();
    });
    bool bad = failed(loop.verify());
    if (!bad)
      if (auto parent = dyn_cast<ForOp>(loop->getParentOp()))
        bad = failed(parent.verify());
    if (!bad)
      loop.getBodyBlock()->walk([&](ForOp nested) {
        if (!bad && nested->getParentOp() == loop)
          bad = failed(nested.verify());
      });
    if (!bad)
      return success();
  }
  set(oldMode, oldUnit);
  return why.refuse(loop.getLoc(), "cannot set the mode of the loop over " +
                                       loopName(loop) + ": " + message);
}

//===----------------------------------------------------------------------===//
// cut_loop, fuse, mult_loops, add_loop
//===----------------------------------------------------------------------===//

FailureOr<std::pair<ForOp, ForOp>>
mlir::rake::gpuir::cutLoop(RewriterBase &rewriter, ForOp loop, int64_t n,
                           Refusal &why) {
  MLIRContext *ctx = loop.getContext();
  if (n < 0)
    return why.refuse(loop.getLoc(), "cut_loop cuts after a number of "
                                     "iterations >= 0");
  if (n >= kLargeControlConstant)
    return why.refuse(loop.getLoc(),
                      "cut_loop cuts after fewer than 2^31 iterations: the "
                      "new bounds are decided over unbounded integers, and "
                      "64-bit index arithmetic could wrap at " +
                          Twine(n));
  ControlGroup lo{llvm::to_vector(loop.getLowerOperands()), loop.getLowerMap()};
  ControlGroup hi{llvm::to_vector(loop.getUpperOperands()), loop.getUpperMap()};
  auto [ctl, bounds] = combine(lo, hi);
  auto [loE, hiE] = bounds;
  unsigned m = ctl.size();
  // Does the loop always run at least n iterations (around it, for every
  // parameter value)? If not, the first part is guarded by i < hi.
  bool guard;
  {
    InstancePair pair(loop->getParentOfType<ProcOp>());
    if (failed(pair.addEnclosing(0, loop)))
      return why.refuse(loop.getLoc(), "cannot analyse the loops around");
    FailureOr<AffineExpr> l = pair.align(0, loE, ctl);
    FailureOr<AffineExpr> h = pair.align(0, hiE, ctl);
    if (failed(l) || failed(h) || failed(pair.addLt(*h, *l + n)))
      return why.refuse(loop.getLoc(), "cannot analyse the loop's bounds");
    guard = !pair.isEmpty();
  }
  Value iv = loop.getInductionVar();
  rewriter.setInsertionPointAfter(loop);
  auto second = cast<ForOp>(rewriter.clone(*loop.getOperation()));
  ControlGroup cut = simplifyGroup({ctl, AffineMap::get(m, 0, loE + n, ctx)});
  rewriter.modifyOpInPlace(second, [&] {
    second.getLowerOperandsMutable().assign(cut.operands);
    second.setLowerMapAttr(AffineMapAttr::get(cut.map));
  });
  rewriter.modifyOpInPlace(loop, [&] {
    loop.getUpperOperandsMutable().assign(cut.operands);
    loop.setUpperMapAttr(AffineMapAttr::get(cut.map));
  });
  if (guard) {
    Block *body = loop.getBodyBlock();
    SmallVector<Operation *> ops =
        llvm::map_to_vector(*body, [](Operation &op) { return &op; });
    rewriter.setInsertionPointToStart(body);
    SmallVector<Value> condOps(ctl);
    condOps.push_back(iv);
    guardStatements(rewriter, loop.getLoc(), ops, condOps,
                    getAffineDimExpr(m, ctx), CmpPredicate::lt, hiE);
  }
  return std::make_pair(loop, second);
}

FailureOr<ForOp> mlir::rake::gpuir::fuseLoops(RewriterBase &rewriter,
                                              ForOp first, Refusal &why) {
  auto second = dyn_cast_or_null<ForOp>(first->getNextNode());
  if (!second)
    return why.refuse(first.getLoc(),
                      "fuse joins a loop with the loop right after it; the "
                      "next statement is not a gpuir.for");
  auto sameGroup = [](ControlGroup a, ControlGroup b) {
    a = simplifyGroup(a);
    b = simplifyGroup(b);
    return a.operands == b.operands && a.map == b.map;
  };
  if (!sameGroup({llvm::to_vector(first.getLowerOperands()), first.getLowerMap()},
                 {llvm::to_vector(second.getLowerOperands()), second.getLowerMap()}) ||
      !sameGroup({llvm::to_vector(first.getUpperOperands()), first.getUpperMap()},
                 {llvm::to_vector(second.getUpperOperands()), second.getUpperMap()}))
    return why.refuse(second.getLoc(),
                      "cannot fuse the loops over " + loopName(first) +
                          " and " + loopName(second) +
                          ": their bounds differ");
  if (first.getModeAttr() != second.getModeAttr() ||
      first.getUnitAttr() != second.getUnitAttr())
    return why.refuse(second.getLoc(),
                      "cannot fuse the loops over " + loopName(first) +
                          " and " + loopName(second) + ": their modes differ");
  SmallVector<Access> a, b;
  if (failed(collectAccesses(first, a, why)) ||
      failed(collectAccesses(second, b, why)))
    return failure();
  // The second loop's iteration i1 ran after the first's i2 > i1; fused, it
  // runs before.
  Value i = first.getInductionVar(), j = second.getInductionVar();
  FailureOr<std::optional<Conflict>> conflict = findConflict(
      first->getParentOp(), b, a,
      [&](InstancePair &p) {
        return p.addLt(p.dim(p.var(0, j)), p.dim(p.var(1, i)));
      },
      why);
  if (failed(conflict))
    return failure();
  if (*conflict) {
    const Conflict &c = **conflict;
    (void)why.refuse(second.getLoc(),
                     "cannot fuse the loops over " + loopName(first) +
                         " and " + loopName(second) + ": " +
                         describeAccess(c.first) + " in the second and " +
                         describeAccess(c.second) +
                         " in the first reach one element, the second's "
                         "iteration before the first's; fused, it would run "
                         "first");
    noteConflict(why, c);
    return failure();
  }
  Block *dest = first.getBodyBlock();
  for (Operation &op : llvm::make_early_inc_range(*second.getBodyBlock()))
    rewriter.moveOpBefore(&op, dest, dest->end());
  rewriter.replaceAllUsesWith(j, i);
  rewriter.eraseOp(second);
  return first;
}

FailureOr<ForOp> mlir::rake::gpuir::multLoops(RewriterBase &rewriter,
                                              ForOp outer, StringRef name,
                                              Refusal &why) {
  MLIRContext *ctx = outer.getContext();
  Block *body = outer.getBodyBlock();
  auto inner = dyn_cast<ForOp>(body->empty() ? nullptr : &body->front());
  if (!inner || !llvm::hasSingleElement(*body))
    return why.refuse(outer.getLoc(),
                      "cannot merge the loop over " + loopName(outer) +
                          ": its body must be exactly one gpuir.for");
  std::optional<int64_t> lo = inner.getConstantLowerBound();
  std::optional<int64_t> hi = inner.getConstantUpperBound();
  if (!lo || !hi || *hi <= *lo)
    return why.refuse(inner.getLoc(),
                      "cannot merge the loop over " + loopName(inner) +
                          " into " + loopName(outer) +
                          ": its bounds must be constants, at least one "
                          "iteration");
  if (outer.getModeAttr() != inner.getModeAttr() ||
      outer.getUnitAttr() != inner.getUnitAttr())
    return why.refuse(inner.getLoc(),
                      "cannot merge the loops over " + loopName(outer) +
                          " and " + loopName(inner) + ": their modes differ");
  int64_t n = *hi - *lo;
  if (failed(checkSubstitutable(outer.getInductionVar(), why)) ||
      failed(checkSubstitutable(inner.getInductionVar(), why)))
    return failure();
  ControlGroup olo{llvm::to_vector(outer.getLowerOperands()), outer.getLowerMap()};
  ControlGroup ohi{llvm::to_vector(outer.getUpperOperands()), outer.getUpperMap()};
  auto [ctl, bounds] = combine(olo, ohi);
  auto [loE, hiE] = bounds;
  unsigned m = ctl.size();
  Value i = outer.getInductionVar(), j = inner.getInductionVar();
  SmallVector<Operation *> iUsers, jUsers;
  for (Operation *u : i.getUsers())
    if (!llvm::is_contained(iUsers, u))
      iUsers.push_back(u);
  for (Operation *u : j.getUsers())
    if (!llvm::is_contained(jUsers, u))
      jUsers.push_back(u);
  ControlGroup newHi =
      simplifyGroup({ctl, AffineMap::get(m, 0, (hiE - loE) * n, ctx)});
  rewriter.modifyOpInPlace(outer, [&] {
    setControlGroups(outer, {constantGroup(ctx, 0), newHi});
    std::string nm = name.empty()
                         ? (outer.getIvName() ? outer.getIvName()->str() : "") +
                               (inner.getIvName() ? inner.getIvName()->str() : "")
                         : name.str();
    outer.setIvNameAttr(rewriter.getStringAttr(nm));
  });
  for (Operation &op : llvm::make_early_inc_range(*inner.getBodyBlock()))
    rewriter.moveOpBefore(&op, body, body->end());
  SmallVector<Value> ops(ctl);
  ops.push_back(i);
  AffineExpr k = getAffineDimExpr(m, ctx);
  for (Operation *u : iUsers)
    if (u != inner.getOperation() &&
        failed(substituteControlValue(rewriter, u, i, loE + k.floorDiv(n), ops)))
      return why.refuse(u->getLoc(), "the rewrite does not know the control "
                                     "expressions of this op");
  for (Operation *u : jUsers)
    if (failed(substituteControlValue(rewriter, u, j,
                                      getAffineDimExpr(0, ctx) % n + *lo, {i})))
      return why.refuse(u->getLoc(), "the rewrite does not know the control "
                                     "expressions of this op");
  rewriter.eraseOp(inner);
  return outer;
}

FailureOr<ForOp> mlir::rake::gpuir::addLoop(RewriterBase &rewriter,
                                            Operation *stmt, int64_t n,
                                            StringRef name, Refusal &why) {
  MLIRContext *ctx = stmt->getContext();
  if (n <= 0)
    return why.refuse(stmt->getLoc(), "add_loop adds a loop of at least one "
                                      "iteration");
  rewriter.setInsertionPoint(stmt);
  ForOp loop = makeLoop(rewriter, stmt->getLoc(), constantGroup(ctx, 0),
                        constantGroup(ctx, n),
                        LoopModeAttr::get(ctx, LoopMode::seq), CollUnitAttr(),
                        name);
  rewriter.setInsertionPointToStart(loop.getBodyBlock());
  // Iteration 0 runs the statement, so it runs once: no precondition.
  guardStatements(rewriter, stmt->getLoc(), {stmt},
                  ValueRange{loop.getInductionVar()}, getAffineDimExpr(0, ctx),
                  CmpPredicate::eq, getAffineConstantExpr(0, ctx));
  return loop;
}

//===----------------------------------------------------------------------===//
// skew
//===----------------------------------------------------------------------===//

FailureOr<ForOp> mlir::rake::gpuir::skewLoop(RewriterBase &rewriter,
                                             Operation *stmt, int64_t depth,
                                             Refusal &why) {
  MLIRContext *ctx = stmt->getContext();
  auto loop = dyn_cast_or_null<ForOp>(stmt->getParentOp());
  if (!loop)
    return why.refuse(stmt->getLoc(), "skew delays the statements after "
                                      "this one in the gpuir.for around it; "
                                      "it is not directly in one");
  if (depth <= 0)
    return why.refuse(stmt->getLoc(), "skew delays by at least one iteration");
  if (depth >= kLargeControlConstant)
    return why.refuse(stmt->getLoc(),
                      "skew delays by fewer than 2^31 iterations: the new "
                      "bounds are decided over unbounded integers, and 64-bit "
                      "index arithmetic could wrap at " +
                          Twine(depth));
  if (!stmt->getNextNode())
    return why.refuse(stmt->getLoc(), "skew delays the statements after this "
                                      "one; it is the last of the loop");
  BodySplit split;
  if (failed(splitBody(loop, stmt, split,
                       "cannot delay the statements after this one: one of "
                       "them uses a value or buffer made before it (in its "
                       "own iteration)",
                       /*noteMade=*/false, why)))
    return failure();
  ArrayRef<Operation *> first = split.first, second = split.second;
  ArrayRef<Access> accA = split.firstAccesses, accB = split.secondAccesses;
  // B at i ran before A at j for i < j <= i + depth; delayed, after it.
  Value iv = loop.getInductionVar();
  FailureOr<std::optional<Conflict>> conflict = findConflict(
      loop->getParentOp(), accB, accA,
      [&](InstancePair &p) {
        AffineExpr i = p.dim(p.var(0, iv)), j = p.dim(p.var(1, iv));
        return success(succeeded(p.addLt(i, j)) &&
                       succeeded(p.addLe(j, i + depth)));
      },
      why);
  if (failed(conflict))
    return failure();
  if (*conflict) {
    const Conflict &c = **conflict;
    (void)why.refuse(stmt->getLoc(),
                     "cannot delay the statements after this one by " +
                         Twine(depth) + " iterations of " + loopName(loop) +
                         ": " + describeAccess(c.first) + " after it and " +
                         describeAccess(c.second) +
                         " before it reach one element within " +
                         Twine(depth) + " iterations");
    noteConflict(why, c);
    return failure();
  }
  if (failed(checkSubstitutable(iv, why)))
    return failure();
  ControlGroup lo{llvm::to_vector(loop.getLowerOperands()), loop.getLowerMap()};
  ControlGroup hi{llvm::to_vector(loop.getUpperOperands()), loop.getUpperMap()};
  auto [ctl, bounds] = combine(lo, hi);
  auto [loE, hiE] = bounds;
  unsigned m = ctl.size();
  SmallVector<Operation *> users;
  for (Operation *b : second)
    b->walk([&](Operation *op) {
      if (llvm::is_contained(op->getOperands(), iv) &&
          !llvm::is_contained(users, op))
        users.push_back(op);
    });
  rewriter.modifyOpInPlace(loop, [&] {
    ControlGroup newHi =
        simplifyGroup({ctl, AffineMap::get(m, 0, hiE + depth, ctx)});
    loop.getUpperOperandsMutable().assign(newHi.operands);
    loop.setUpperMapAttr(AffineMapAttr::get(newHi.map));
  });
  SmallVector<Value> ops(ctl);
  ops.push_back(iv);
  AffineExpr k = getAffineDimExpr(m, ctx);
  auto guard = [&](AffineExpr lhs, CmpPredicate pred, AffineExpr rhs,
                   ArrayRef<Operation *> body) {
    rewriter.setInsertionPoint(body.front());
    guardStatements(rewriter, stmt->getLoc(), body, ops, lhs, pred, rhs);
  };
  guard(k, CmpPredicate::lt, hiE, first);
  guard(k, CmpPredicate::ge, loE + depth, second);
  for (Operation *u : users)
    if (failed(substituteControlValue(rewriter, u, iv,
                                      getAffineDimExpr(0, ctx) - depth, {iv})))
      return why.refuse(u->getLoc(), "the rewrite does not know the control "
                                     "expressions of this op");
  return loop;
}

//===----------------------------------------------------------------------===//
// Guards that always hold
//===----------------------------------------------------------------------===//

bool mlir::rake::gpuir::guardAlwaysHolds(IfOp cond) {
  if (cond.getAlternativeSizes().size() > 1)
    return false;
  Operation *proc = cond->getParentOfType<ProcOp>();
  if (!proc)
    return false;
  // Holds everywhere iff no comparison fails at any iteration around it.
  AffineMap map = cond.getMap();
  for (auto [i, pred] : llvm::enumerate(cond.getPredicates())) {
    auto fails = [&](function_ref<LogicalResult(InstancePair &, AffineExpr,
                                                AffineExpr)>
                         negate) {
      InstancePair p(proc);
      if (failed(p.addEnclosing(0, cond)))
        return true;
      FailureOr<AffineExpr> l = p.align(0, map.getResult(2 * i),
                                        cond.getOperands());
      FailureOr<AffineExpr> r = p.align(0, map.getResult(2 * i + 1),
                                        cond.getOperands());
      if (failed(l) || failed(r) || failed(negate(p, *l, *r)))
        return true;
      return !p.isEmpty();
    };
    using IP = InstancePair;
    bool f = false;
    switch (static_cast<CmpPredicate>(pred)) {
    case CmpPredicate::eq:
      f = fails([](IP &p, AffineExpr l, AffineExpr r) { return p.addLt(l, r); }) ||
          fails([](IP &p, AffineExpr l, AffineExpr r) { return p.addLt(r, l); });
      break;
    case CmpPredicate::lt:
      f = fails([](IP &p, AffineExpr l, AffineExpr r) { return p.addLe(r, l); });
      break;
    case CmpPredicate::le:
      f = fails([](IP &p, AffineExpr l, AffineExpr r) { return p.addLt(r, l); });
      break;
    case CmpPredicate::gt:
      f = fails([](IP &p, AffineExpr l, AffineExpr r) { return p.addLe(l, r); });
      break;
    case CmpPredicate::ge:
      f = fails([](IP &p, AffineExpr l, AffineExpr r) { return p.addLt(l, r); });
      break;
    }
    if (f)
      return false;
  }
  return true;
}

void mlir::rake::gpuir::removeTrueGuards(RewriterBase &rewriter,
                                         Operation *root) {
  SmallVector<IfOp> ifs;
  root->walk([&](IfOp cond) { ifs.push_back(cond); });
  for (IfOp cond : ifs) {
    if (!guardAlwaysHolds(cond))
      continue;
    Block *then = &cond.getThenRegion().front();
    for (Operation &op : llvm::make_early_inc_range(*then))
      rewriter.moveOpBefore(&op, cond);
    rewriter.eraseOp(cond);
  }
}

//===----------------------------------------------------------------------===//
// add_if
//===----------------------------------------------------------------------===//

FailureOr<IfOp> mlir::rake::gpuir::addIf(RewriterBase &rewriter,
                                         Operation *stmt, IntegerSet condition,
                                         ArrayRef<Value> operands,
                                         bool specialize, Refusal &why) {
  Location loc = stmt->getLoc();
  if (!stmt->getParentOfType<ProcOp>() || isa<ProcOp>(stmt))
    return why.refuse(loc, "add_if guards a statement of a gpuir.proc");
  for (Value v : stmt->getResults())
    if (!v.use_empty())
      return why.refuse(loc, "add_if guards a statement whose values are not "
                             "used after it; this one's are");
  // A data value made before the statement in its block would be used
  // from another block (GpuIR keeps data values in their statement).
  Block *block = stmt->getBlock();
  WalkResult uses = stmt->walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp();
          def && def->getBlock() == block && def != stmt &&
          !v.getType().isIndex())
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (uses.wasInterrupted())
    return why.refuse(loc, "add_if guards a statement that uses no data "
                           "value made before it; bind_expr the value into "
                           "a buffer first");
  if (condition.getNumSymbols() ||
      condition.getNumDims() != operands.size())
    return why.refuse(loc, "the condition is an integer set over the named "
                           "control values, one dimension each");
  if (llvm::any_of(condition.getConstraints(),
                   [](AffineExpr e) { return bool(nonPositiveDivisor(e)); }))
    return why.refuse(loc, "the condition is a control expression: floordiv, "
                           "ceildiv and mod take a positive constant");
  // Each constraint e >= 0 or e == 0 as a comparison with zero.
  MLIRContext *ctx = stmt->getContext();
  SmallVector<AffineExpr> results;
  SmallVector<int32_t> preds;
  for (auto [e, isEq] :
       llvm::zip(condition.getConstraints(), condition.getEqFlags())) {
    // Written as a comparison of the positive terms with the negated
    // negative ones: Kt - k - 2 >= 0 as Kt >= k + 2.
    SmallVector<AffineExpr> terms;
    sumTerms(e, terms);
    AffineExpr lhs = getAffineConstantExpr(0, ctx), rhs = lhs;
    for (AffineExpr t : terms) {
      int64_t coeff = 1;
      if (auto c = dyn_cast<AffineConstantExpr>(t))
        coeff = c.getValue();
      else if (t.getKind() == AffineExprKind::Mul)
        if (auto c = dyn_cast<AffineConstantExpr>(
                cast<AffineBinaryOpExpr>(t).getRHS()))
          coeff = c.getValue();
      if (coeff < 0)
        rhs = rhs - t;
      else
        lhs = lhs + t;
    }
    results.push_back(simplifyAffineExpr(lhs, operands.size(), 0));
    results.push_back(simplifyAffineExpr(rhs, operands.size(), 0));
    preds.push_back(static_cast<int32_t>(isEq ? CmpPredicate::eq
                                              : CmpPredicate::ge));
  }
  ControlGroup c = simplifyGroup(
      {llvm::to_vector(operands),
       AffineMap::get(operands.size(), 0, results, ctx)});
  rewriter.setInsertionPoint(stmt);
  auto cond = IfOp::create(rewriter, loc, c.operands,
                           AffineMapAttr::get(c.map),
                           rewriter.getDenseI32ArrayAttr(preds),
                           DenseI32ArrayAttr());
  cond.getThenRegion().push_back(new Block());
  rewriter.moveOpBefore(stmt, &cond.getThenRegion().front(),
                        cond.getThenRegion().front().end());
  auto undo = [&] {
    rewriter.moveOpBefore(stmt, cond);
    rewriter.eraseOp(cond);
  };
  if (!guardAlwaysHolds(cond)) {
    if (!specialize) {
      undo();
      return why.refuse(loc, "the condition does not hold wherever this "
                             "statement runs; add `specialize` to run it "
                             "under the condition and a copy of it otherwise");
    }
    cond.getElseRegion().push_back(new Block());
    rewriter.setInsertionPointToStart(&cond.getElseRegion().front());
    rewriter.clone(*stmt);
  }
  // GpuIR's rules on where a statement may be (a cuda_tasks nest is a
  // device function's whole body, for one).
  std::string message;
  if (succeeded(checkQuietly(
          stmt->getContext(), [&] { return mlir::verify(cond); }, message)))
    return cond;
  undo();
  return why.refuse(loc, "cannot guard this statement: " + message);
}

//===----------------------------------------------------------------------===//
// permute_loops
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<ForOp>> mlir::rake::gpuir::permuteLoops(
    RewriterBase &rewriter, ForOp outer, ArrayRef<int64_t> perm, Refusal &why) {
  SmallVector<ForOp> nest{outer};
  while (nest.size() < perm.size()) {
    Block *b = nest.back().getBodyBlock();
    auto next = dyn_cast<ForOp>(b->empty() ? nullptr : &b->front());
    if (!next || !llvm::hasSingleElement(*b))
      return why.refuse(nest.back().getLoc(),
                        "permute_loops needs a perfect nest of " +
                            Twine(perm.size()) + " loops; the loop over " +
                            loopName(nest.back()) +
                            " holds something else than one gpuir.for");
    nest.push_back(next);
  }
  SmallVector<int64_t> sorted(perm);
  llvm::sort(sorted);
  for (auto [i, v] : llvm::enumerate(sorted))
    if (v != static_cast<int64_t>(i))
      return why.refuse(outer.getLoc(), "permute_loops takes a permutation of "
                                        "the nest's " + Twine(perm.size()) +
                                        " loops");
  // Bubble the loops into place by interchanges, each checked. at[d]: which
  // original loop is at depth d; the loop ops stay, their headers move.
  SmallVector<int64_t> at = llvm::to_vector(llvm::seq<int64_t>(0, perm.size()));
  for (unsigned d = 0; d < perm.size(); ++d) {
    unsigned from = llvm::find(at, perm[d]) - at.begin();
    for (unsigned p = from; p > d; --p) {
      if (failed(reorderLoops(rewriter, nest[p - 1], why)))
        return failure();
      std::swap(at[p - 1], at[p]);
    }
  }
  return nest;
}
