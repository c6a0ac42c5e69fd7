//===- Dependence.cpp - conflicting accesses, decided by Presburger -------===//

#include "Dependence.h"
#include "RewriteUtils.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using presburger::BoundType;

std::string mlir::rake::gpuir::controlName(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast_or_null<ForOp>(owner))
      if (std::optional<StringRef> name = loop.getIvName())
        return "%" + name->str();
    if (auto proc = dyn_cast_or_null<ProcOp>(owner))
      if (ArrayAttr names = proc.getArgNamesAttr())
        if (arg.getArgNumber() < names.size())
          if (auto n = dyn_cast<StringAttr>(names[arg.getArgNumber()]))
            return n.str();
    return "a parameter";
  }
  if (auto alloc = v.getDefiningOp<AllocOp>())
    if (std::optional<StringRef> name = alloc.getName())
      return name->str();
  if (auto window = v.getDefiningOp<WindowOp>())
    return controlName(window.getSource());
  return "a buffer";
}

std::string mlir::rake::gpuir::describeAccess(const Access &a) {
  std::string buffer = controlName(a.root);
  if (isa<ReadOp>(a.op))
    return "the read of " + buffer;
  if (isa<WriteOp>(a.op))
    return "the write of " + buffer;
  if (isa<FreeOp>(a.op))
    return "the free of " + buffer;
  if (isa<ReduceOp>(a.op))
    return "the reduction into " + buffer;
  StringRef verb = a.mode == AccessMode::read    ? "reading"
                   : a.mode == AccessMode::write ? "writing"
                                                 : "updating";
  return "the '" + a.op->getName().getStringRef().str() + "' " + verb.str() +
         " " + buffer;
}

LogicalResult mlir::rake::gpuir::collectAccesses(Operation *stmt,
                                                 SmallVectorImpl<Access> &out,
                                                 Refusal &why) {
  WalkResult result = stmt->walk([&](Operation *op) -> WalkResult {
    auto add = [&](Value operand, AccessMode mode, bool whole) {
      out.push_back({op, operand, mode, whole, viewedBuffer(operand)});
    };
    if (auto access = dyn_cast<AccessOpInterface>(op);
        access && access.isElementAccess()) {
      add(access.getBuffer(),
          !access.mutatesElement() ? AccessMode::read
          : !access.readsElement() ? AccessMode::write
                                   : AccessMode::read_write,
          false);
      return WalkResult::advance();
    }
    if (auto instr = dyn_cast<InstrOpInterface>(op)) {
      for (const InstrParam &p : instr.getParams()) {
        Value v = op->getOperand(p.operandIndex);
        if (isa<MemRefType>(v.getType()))
          add(v, p.access, true);
      }
      return WalkResult::advance();
    }
    if (auto free = dyn_cast<FreeOp>(op)) {
      // The end of the buffer's lifetime: ordered like a write of all of it.
      if (isa<MemRefType>(free.getBuffer().getType()))
        add(free.getBuffer(), AccessMode::write, true);
      return WalkResult::advance();
    }
    if (auto call = dyn_cast<CallOp>(op)) {
      (void)why.refuse(op->getLoc(),
                       "the rewrite cannot see what the call to '" +
                           call.getCallee() +
                           "' accesses; rewrite the called procedure instead");
      return WalkResult::interrupt();
    }
    // Control flow, allocation, windows and synchronization access no
    // element in the sequential meaning.
    if (isa_and_nonnull<GpuIRDialect>(op->getDialect()) ||
        isMemoryEffectFree(op))
      return WalkResult::advance();
    (void)why.refuse(op->getLoc(), "the rewrite cannot tell what '" +
                                       op->getName().getStringRef() +
                                       "' accesses");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// InstancePair
//===----------------------------------------------------------------------===//

unsigned InstancePair::var(unsigned k, Value v) {
  auto it = inst[k].vars.find(v);
  if (it != inst[k].vars.end())
    return it->second;
  auto sh = shared.find(v);
  if (sh != shared.end())
    return sh->second;
  unsigned pos = cst.appendDimVar(1);
  shared[v] = pos;
  return pos;
}

FailureOr<AffineExpr> InstancePair::align(unsigned k, AffineExpr e,
                                          ValueRange operands) {
  SmallVector<AffineExpr> dims;
  for (Value v : operands)
    dims.push_back(dim(var(k, v)));
  return e.replaceDims(dims);
}

LogicalResult InstancePair::bound(BoundType type, unsigned pos, AffineExpr e,
                                  bool closed) {
  // Decided over unbounded integers: with a large constant, 64-bit index
  // arithmetic may wrap where the integers do not (kLargeControlConstant).
  if (detail::hasLargeConstant(e)) {
    largeConstant = true;
    return failure();
  }
  AffineMap map = AffineMap::get(cst.getNumDimVars(), 0, e);
  return cst.addBound(type, pos, map, closed);
}

LogicalResult InstancePair::addEq(AffineExpr lhs, AffineExpr rhs) {
  unsigned z = cst.appendDimVar(1);
  return success(succeeded(bound(BoundType::EQ, z, lhs)) &&
                 succeeded(bound(BoundType::EQ, z, rhs)));
}

LogicalResult InstancePair::addLt(AffineExpr lhs, AffineExpr rhs) {
  unsigned z = cst.appendDimVar(1);
  return success(succeeded(bound(BoundType::EQ, z, lhs)) &&
                 succeeded(bound(BoundType::UB, z, rhs, /*closed=*/false)));
}

LogicalResult InstancePair::addLe(AffineExpr lhs, AffineExpr rhs) {
  unsigned z = cst.appendDimVar(1);
  return success(succeeded(bound(BoundType::EQ, z, lhs)) &&
                 succeeded(bound(BoundType::UB, z, rhs, /*closed=*/true)));
}

LogicalResult InstancePair::addLoop(unsigned k, ForOp loop) {
  FailureOr<AffineExpr> lo =
      align(k, loop.getLowerMap().getResult(0), loop.getLowerOperands());
  FailureOr<AffineExpr> hi =
      align(k, loop.getUpperMap().getResult(0), loop.getUpperOperands());
  if (failed(lo) || failed(hi))
    return failure();
  unsigned pos = cst.appendDimVar(1);
  inst[k].vars[loop.getInductionVar()] = pos;
  return success(succeeded(bound(BoundType::LB, pos, *lo)) &&
                 succeeded(bound(BoundType::UB, pos, *hi, /*closed=*/false)));
}

/// The then-branch of a conjunction constrains its instances; an `or`, or
/// the else-branch, is left out (more instances, so more conflicts: safe).
LogicalResult InstancePair::addCondition(unsigned k, IfOp cond) {
  if (cond.getAlternativeSizes().size() > 1)
    return success();
  AffineMap map = cond.getMap();
  for (auto [i, pred] : llvm::enumerate(cond.getPredicates())) {
    FailureOr<AffineExpr> lhs =
        align(k, map.getResult(2 * i), cond.getOperands());
    FailureOr<AffineExpr> rhs =
        align(k, map.getResult(2 * i + 1), cond.getOperands());
    if (failed(lhs) || failed(rhs))
      return failure();
    LogicalResult r = success();
    switch (static_cast<CmpPredicate>(pred)) {
    case CmpPredicate::eq: r = addEq(*lhs, *rhs); break;
    case CmpPredicate::lt: r = addLt(*lhs, *rhs); break;
    case CmpPredicate::le: r = addLe(*lhs, *rhs); break;
    case CmpPredicate::gt: r = addLt(*rhs, *lhs); break;
    case CmpPredicate::ge: r = addLe(*rhs, *lhs); break;
    }
    if (failed(r))
      return failure();
  }
  return success();
}

FailureOr<AffineExpr> InstancePair::addRange(AffineExpr lo, AffineExpr hi) {
  unsigned v = cst.appendDimVar(1);
  if (failed(bound(BoundType::LB, v, lo)) ||
      failed(bound(BoundType::UB, v, hi, /*closed=*/false)))
    return failure();
  return dim(v);
}

LogicalResult InstancePair::addEnclosing(unsigned k, Operation *op) {
  // The loops and conditions between the scope and the op, outermost first.
  SmallVector<Operation *> chain;
  for (Operation *p = op->getParentOp(); p && p != scope; p = p->getParentOp())
    chain.push_back(p);
  for (Operation *p : llvm::reverse(chain)) {
    if (auto loop = dyn_cast<ForOp>(p)) {
      if (failed(addLoop(k, loop)))
        return failure();
    } else if (auto cond = dyn_cast<IfOp>(p)) {
      if (cond.getThenRegion().isAncestor(op->getParentRegion()) &&
          failed(addCondition(k, cond)))
        return failure();
    }
  }
  return success();
}

FailureOr<SmallVector<AffineExpr>>
InstancePair::addInstance(unsigned k, const Access &access) {
  if (failed(addEnclosing(k, access.op)))
    return failure();

  // The element, in the coordinates of the accessed operand.
  Value v = access.operand;
  SmallVector<AffineExpr> idx;
  if (!access.whole) {
    auto element = cast<AccessOpInterface>(access.op);
    AffineMap map = element.getMap();
    ValueRange indices = element.getIndices();
    for (AffineExpr e : map.getResults()) {
      FailureOr<AffineExpr> a = align(k, e, indices);
      if (failed(a))
        return failure();
      idx.push_back(*a);
    }
  } else {
    auto type = cast<MemRefType>(v.getType());
    auto window = v.getDefiningOp<WindowOp>();
    SmallVector<AffineExpr> extents;
    if (window) {
      AffineMap map = window.getMap();
      unsigned r = 0;
      for (bool interval : window.getIntervals()) {
        if (interval) {
          FailureOr<AffineExpr> lo =
              align(k, map.getResult(r), window.getIndices());
          FailureOr<AffineExpr> hi =
              align(k, map.getResult(r + 1), window.getIndices());
          if (failed(lo) || failed(hi))
            return failure();
          extents.push_back(*hi - *lo);
          r += 2;
        } else {
          ++r;
        }
      }
    }
    for (int64_t d = 0; d < type.getRank(); ++d) {
      unsigned y = cst.appendDimVar(1);
      if (failed(bound(BoundType::LB, y, getAffineConstantExpr(0, context()))))
        return failure();
      if (!type.isDynamicDim(d)) {
        if (failed(bound(BoundType::UB, y,
                         getAffineConstantExpr(type.getDimSize(d), context()),
                         /*closed=*/false)))
          return failure();
      } else if (d < static_cast<int64_t>(extents.size())) {
        if (failed(bound(BoundType::UB, y, extents[d], /*closed=*/false)))
          return failure();
      }
      idx.push_back(dim(y));
    }
  }

  // Through the windows to the buffer.
  while (auto window = v.getDefiningOp<WindowOp>()) {
    AffineMap map = window.getMap();
    SmallVector<AffineExpr> src;
    unsigned r = 0, kept = 0;
    for (bool interval : window.getIntervals()) {
      FailureOr<AffineExpr> start =
          align(k, map.getResult(r), window.getIndices());
      if (failed(start))
        return failure();
      if (interval) {
        if (kept >= idx.size())
          return failure();
        src.push_back(*start + idx[kept++]);
        r += 2;
      } else {
        src.push_back(*start);
        ++r;
      }
    }
    idx = std::move(src);
    v = window.getSource();
  }
  return idx;
}

FailureOr<std::optional<Conflict>> mlir::rake::gpuir::findConflict(
    Operation *scope, ArrayRef<Access> firsts, ArrayRef<Access> seconds,
    InstanceOrder order, Refusal &why) {
  for (const Access &a : firsts) {
    for (const Access &b : seconds) {
      if (a.root != b.root)
        continue;
      if (a.mode == AccessMode::read && b.mode == AccessMode::read)
        continue;
      InstancePair pair(scope);
      FailureOr<SmallVector<AffineExpr>> ea = pair.addInstance(0, a);
      FailureOr<SmallVector<AffineExpr>> eb = pair.addInstance(1, b);
      auto large = [&](Location loc) {
        return why.refuse(loc, "the rewrite decides dependences over unbounded "
                               "integers; this access's control expressions "
                               "(or the loops and guards around it) have a "
                               "constant of 2^31 or more, with which 64-bit "
                               "index arithmetic may wrap");
      };
      if (pair.hasLargeConstant()) {
        (void)large(failed(ea) ? a.op->getLoc() : b.op->getLoc());
        return failure();
      }
      if (failed(ea) || failed(eb) || ea->size() != eb->size()) {
        (void)why.refuse(failed(ea) ? a.op->getLoc() : b.op->getLoc(),
                         "the rewrite cannot analyse the control expressions "
                         "of this access (they must be quasi-affine: sums of "
                         "control values times constants, floordiv and mod "
                         "by constants)");
        return failure();
      }
      bool ok = true;
      for (auto [x, y] : llvm::zip(*ea, *eb))
        ok &= succeeded(pair.addEq(x, y));
      ok &= succeeded(order(pair));
      if (pair.hasLargeConstant()) {
        (void)large(a.op->getLoc());
        return failure();
      }
      if (!ok) {
        (void)why.refuse(a.op->getLoc(),
                         "the rewrite cannot analyse the control expressions "
                         "of this access (they must be quasi-affine)");
        return failure();
      }
      if (!pair.isEmpty())
        return std::optional<Conflict>(Conflict{a, b});
    }
  }
  return std::optional<Conflict>();
}
