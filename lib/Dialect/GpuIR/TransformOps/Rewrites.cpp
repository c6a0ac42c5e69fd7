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
// Control expressions of an op
//===----------------------------------------------------------------------===//

namespace mlir::rake::gpuir::detail {

/// The control expression groups of a GpuIR op, or failure for an op whose
/// index operands are not known to be the dims of one map.
FailureOr<SmallVector<ControlGroup>> getControlGroups(Operation *op) {
  SmallVector<ControlGroup> groups;
  if (auto loop = dyn_cast<ForOp>(op)) {
    groups.push_back({llvm::to_vector(loop.getLowerOperands()),
                      loop.getLowerMap()});
    groups.push_back({llvm::to_vector(loop.getUpperOperands()),
                      loop.getUpperMap()});
    return groups;
  }
  if (auto arrive = dyn_cast<ArriveOp>(op)) {
    for (unsigned i = 0, e = arrive.getMaps().size(); i < e; ++i)
      groups.push_back({llvm::to_vector(arrive.getBarrierIndices(i)),
                        cast<AffineMapAttr>(arrive.getMaps()[i]).getValue()});
    return groups;
  }
  // One map whose dims are the op's trailing index operands.
  auto mapAttr = op->getAttrOfType<AffineMapAttr>("map");
  unsigned numIndex = llvm::count_if(op->getOperandTypes(),
                                     [](Type t) { return t.isIndex(); });
  if (!mapAttr) {
    if (numIndex == 0)
      return groups;
    return failure();
  }
  unsigned n = op->getNumOperands();
  if (mapAttr.getValue().getNumDims() != numIndex)
    return failure();
  for (unsigned i = n - numIndex; i < n; ++i)
    if (!op->getOperand(i).getType().isIndex())
      return failure();
  groups.push_back({llvm::to_vector(op->getOperands().drop_front(n - numIndex)),
                    mapAttr.getValue()});
  return groups;
}

void setControlGroups(Operation *op, ArrayRef<ControlGroup> groups) {
  if (auto loop = dyn_cast<ForOp>(op)) {
    loop.getLowerOperandsMutable().assign(groups[0].operands);
    loop.setLowerMapAttr(AffineMapAttr::get(groups[0].map));
    loop.getUpperOperandsMutable().assign(groups[1].operands);
    loop.setUpperMapAttr(AffineMapAttr::get(groups[1].map));
    return;
  }
  if (auto arrive = dyn_cast<ArriveOp>(op)) {
    SmallVector<Value> all;
    SmallVector<Attribute> maps;
    for (const ControlGroup &g : groups) {
      llvm::append_range(all, g.operands);
      maps.push_back(AffineMapAttr::get(g.map));
    }
    arrive.getIndicesMutable().assign(all);
    arrive.setMapsAttr(ArrayAttr::get(op->getContext(), maps));
    return;
  }
  if (groups.empty())
    return;
  unsigned n = op->getNumOperands();
  unsigned numIndex = llvm::count_if(op->getOperandTypes(),
                                     [](Type t) { return t.isIndex(); });
  op->setOperands(n - numIndex, numIndex, groups[0].operands);
  op->setAttr("map", AffineMapAttr::get(groups[0].map));
}

/// The group with `old` replaced by `repl` (dims: `replOperands`), each
/// distinct operand once.
/// `(x + c) mod n` with c outside [0, n) as `(x + c mod n) mod n`, which
/// denotes the same and keeps MLIR's simplifier from writing the mod as a
/// subtraction ((k - 2) mod 4 stays (k + 2) mod 4).
static AffineExpr normalizeModConstants(AffineExpr e) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return e;
  AffineExpr l = normalizeModConstants(bin.getLHS());
  AffineExpr r = normalizeModConstants(bin.getRHS());
  if (e.getKind() == AffineExprKind::Mod)
    if (auto n = dyn_cast<AffineConstantExpr>(r); n && n.getValue() > 0)
      if (auto sum = dyn_cast<AffineBinaryOpExpr>(l);
          sum && l.getKind() == AffineExprKind::Add)
        if (auto c = dyn_cast<AffineConstantExpr>(sum.getRHS())) {
          int64_t k = ((c.getValue() % n.getValue()) + n.getValue()) % n.getValue();
          AffineExpr base = sum.getLHS();
          return (k ? base + k : base) % n;
        }
  switch (e.getKind()) {
  case AffineExprKind::Add: return l + r;
  case AffineExprKind::Mul: return l * r;
  case AffineExprKind::FloorDiv: return l.floorDiv(r);
  case AffineExprKind::CeilDiv: return l.ceilDiv(r);
  case AffineExprKind::Mod: return l % r;
  default: return e;
  }
}

ControlGroup substitute(const ControlGroup &g, Value old, AffineExpr repl,
                        ValueRange replOperands) {
  MLIRContext *ctx = g.map.getContext();
  ControlGroup out;
  llvm::DenseMap<Value, unsigned> pos;
  auto posOf = [&](Value v) {
    auto [it, inserted] = pos.try_emplace(v, out.operands.size());
    if (inserted)
      out.operands.push_back(v);
    return getAffineDimExpr(it->second, ctx);
  };
  SmallVector<AffineExpr> dims(g.operands.size());
  for (auto [i, v] : llvm::enumerate(g.operands))
    if (v != old)
      dims[i] = posOf(v);
  SmallVector<AffineExpr> replDims;
  for (Value v : replOperands)
    replDims.push_back(posOf(v));
  AffineExpr r = repl.replaceDims(replDims);
  for (auto [i, v] : llvm::enumerate(g.operands))
    if (v == old)
      dims[i] = r;
  SmallVector<AffineExpr> results;
  // MLIR's simplifier writes a mod of a sum as a subtraction
  // (k - ((k + 2) floordiv 4) * 4 + 2); expressions with a mod stay as
  // composed, the constant under the mod normalized.
  for (AffineExpr e : g.map.getResults()) {
    AffineExpr x = normalizeModConstants(e.replaceDims(dims));
    bool hasMod = false;
    x.walk([&](AffineExpr y) { hasMod |= y.getKind() == AffineExprKind::Mod; });
    results.push_back(hasMod ? x
                             : simplifyAffineExpr(x, out.operands.size(), 0));
  }
  out.map = AffineMap::get(out.operands.size(), 0, results, ctx);
  return out;
}

/// The group simplified, with the operands no expression uses dropped.
ControlGroup simplifyGroup(const ControlGroup &g, bool simplify) {
  MLIRContext *ctx = g.map.getContext();
  AffineMap m = simplify ? simplifyAffineMap(g.map) : g.map;
  ControlGroup out;
  SmallVector<AffineExpr> dims(g.operands.size());
  llvm::DenseMap<Value, unsigned> pos;
  for (auto [i, v] : llvm::enumerate(g.operands)) {
    if (!m.isFunctionOfDim(i))
      continue;
    auto [it, inserted] = pos.try_emplace(v, out.operands.size());
    if (inserted)
      out.operands.push_back(v);
    dims[i] = getAffineDimExpr(it->second, ctx);
  }
  for (AffineExpr &d : dims)
    if (!d)
      d = getAffineConstantExpr(0, ctx);
  SmallVector<AffineExpr> results;
  for (AffineExpr e : m.getResults())
    results.push_back(simplify ? simplifyAffineExpr(e.replaceDims(dims),
                                                    out.operands.size(), 0)
                               : e.replaceDims(dims));
  out.map = AffineMap::get(out.operands.size(), 0, results, ctx);
  return out;
}

/// The combined operands of two groups and their first results over them.
std::pair<SmallVector<Value>, std::pair<AffineExpr, AffineExpr>>
combine(const ControlGroup &a, const ControlGroup &b) {
  MLIRContext *ctx = a.map.getContext();
  SmallVector<Value> ops;
  llvm::DenseMap<Value, unsigned> pos;
  auto dimsOf = [&](const ControlGroup &g) {
    SmallVector<AffineExpr> dims;
    for (Value v : g.operands) {
      auto [it, inserted] = pos.try_emplace(v, ops.size());
      if (inserted)
        ops.push_back(v);
      dims.push_back(getAffineDimExpr(it->second, ctx));
    }
    return dims;
  };
  SmallVector<AffineExpr> da = dimsOf(a), db = dimsOf(b);
  return {ops,
          {a.map.getResult(0).replaceDims(da), b.map.getResult(0).replaceDims(db)}};
}

/// An expression printed with the names of its control values.
std::string printExpr(AffineExpr e, ValueRange operands) {
  std::string s;
  llvm::raw_string_ostream os(s);
  std::function<void(AffineExpr, bool)> print = [&](AffineExpr x,
                                                    bool paren) {
    if (auto d = dyn_cast<AffineDimExpr>(x)) {
      os << controlName(operands[d.getPosition()]);
      return;
    }
    if (auto c = dyn_cast<AffineConstantExpr>(x)) {
      os << c.getValue();
      return;
    }
    auto bin = cast<AffineBinaryOpExpr>(x);
    if (paren)
      os << "(";
    print(bin.getLHS(), true);
    switch (x.getKind()) {
    case AffineExprKind::Add: os << " + "; break;
    case AffineExprKind::Mul: os << " * "; break;
    case AffineExprKind::FloorDiv: os << " floordiv "; break;
    case AffineExprKind::CeilDiv: os << " ceildiv "; break;
    case AffineExprKind::Mod: os << " mod "; break;
    default: break;
    }
    print(bin.getRHS(), true);
    if (paren)
      os << ")";
  };
  print(e, false);
  return s;
}

/// "A and B reach" or, for two instances of one access, "A reaches".
std::string reach(const Conflict &c) {
  if (c.first.op == c.second.op && c.first.operand == c.second.operand)
    return describeAccess(c.first) + " reaches";
  return describeAccess(c.first) + " and " + describeAccess(c.second) +
         " reach";
}

void noteConflict(Refusal &why, const Conflict &c) {
  why.note(c.first.op->getLoc(), describeAccess(c.first));
  if (c.first.op != c.second.op || c.first.operand != c.second.operand)
    why.note(c.second.op->getLoc(), describeAccess(c.second));
}

std::string loopName(ForOp loop) {
  return controlName(loop.getInductionVar());
}

/// A loop with the given bounds (expressions over their operands), mode,
/// unit and variable name, with an empty body, at the rewriter's point.
ForOp makeLoop(RewriterBase &rewriter, Location loc, ControlGroup lo,
               ControlGroup hi, LoopModeAttr mode, CollUnitAttr unit,
               StringRef name) {
  auto loop = ForOp::create(
      rewriter, loc, lo.operands, hi.operands, AffineMapAttr::get(lo.map),
      AffineMapAttr::get(hi.map), mode, unit,
      name.empty() ? StringAttr() : rewriter.getStringAttr(name));
  Block *body = new Block();
  body->addArgument(rewriter.getIndexType(), loc);
  loop.getBody().push_back(body);
  return loop;
}

ControlGroup constantGroup(MLIRContext *ctx, int64_t c) {
  return {{}, AffineMap::get(0, 0, getAffineConstantExpr(c, ctx))};
}

/// Replaces every use of `old` (a loop variable).
LogicalResult substituteAll(RewriterBase &rewriter, Value old, AffineExpr repl,
                            ValueRange replOperands, Refusal &why) {
  SmallVector<Operation *> users;
  for (OpOperand &use : old.getUses())
    users.push_back(use.getOwner());
  llvm::SetVector<Operation *> unique(users.begin(), users.end());
  for (Operation *user : unique)
    if (failed(substituteControlValue(rewriter, user, old, repl, replOperands)))
      return why.refuse(user->getLoc(),
                        "the rewrite does not know the control expressions "
                        "of '" + user->getName().getStringRef() + "'");
  return success();
}

FailureOr<SplitIndex> splitIndex(AffineExpr e,
                                 const llvm::SmallBitVector &outerDims) {
  MLIRContext *ctx = e.getContext();
  SmallVector<AffineExpr> terms;
  std::function<void(AffineExpr)> flatten = [&](AffineExpr x) {
    if (x.getKind() == AffineExprKind::Add) {
      auto bin = cast<AffineBinaryOpExpr>(x);
      flatten(bin.getLHS());
      flatten(bin.getRHS());
    } else {
      terms.push_back(x);
    }
  };
  flatten(e);
  SplitIndex out{getAffineConstantExpr(0, ctx), getAffineConstantExpr(0, ctx)};
  for (AffineExpr t : terms) {
    bool outer = false, inner = false;
    t.walk([&](AffineExpr x) {
      if (auto d = dyn_cast<AffineDimExpr>(x))
        (outerDims.test(d.getPosition()) ? outer : inner) = true;
    });
    if (outer && inner)
      return failure();
    if (outer)
      out.corner = out.corner + t;
    else
      out.offset = out.offset + t;
  }
  return out;
}

IfOp guardStatements(RewriterBase &rewriter, Location loc,
                     ArrayRef<Operation *> ops, ValueRange operands,
                     AffineExpr lhs, CmpPredicate pred, AffineExpr rhs) {
  ControlGroup c = simplifyGroup(
      {llvm::to_vector(operands),
       AffineMap::get(operands.size(), 0, {lhs, rhs}, lhs.getContext())});
  auto cond = IfOp::create(
      rewriter, loc, c.operands, AffineMapAttr::get(c.map),
      rewriter.getDenseI32ArrayAttr({static_cast<int32_t>(pred)}),
      DenseI32ArrayAttr());
  cond.getThenRegion().push_back(new Block());
  Block *dest = &cond.getThenRegion().front();
  for (Operation *op : ops)
    rewriter.moveOpBefore(op, dest, dest->end());
  return cond;
}

LogicalResult splitBody(ForOp loop, Operation *stmt, BodySplit &out,
                        const Twine &valueMessage, bool noteMade,
                        Refusal &why) {
  bool after = false;
  for (Operation &op : *loop.getBodyBlock()) {
    (after ? out.second : out.first).push_back(&op);
    if (&op == stmt)
      after = true;
  }
  for (Operation *b : out.second)
    for (Operation *a : out.first)
      if (Operation *user = usesValueOf(b, a)) {
        (void)why.refuse(stmt->getLoc(), valueMessage);
        why.note(user->getLoc(), "the use");
        if (noteMade)
          why.note(a->getLoc(), "made here");
        return failure();
      }
  for (Operation *a : out.first)
    if (failed(collectAccesses(a, out.firstAccesses, why)))
      return failure();
  for (Operation *b : out.second)
    if (failed(collectAccesses(b, out.secondAccesses, why)))
      return failure();
  return success();
}

LogicalResult checkSubstitutable(Value iv, Refusal &why) {
  for (Operation *user : iv.getUsers()) {
    FailureOr<SmallVector<ControlGroup>> groups = getControlGroups(user);
    bool covered = succeeded(groups);
    if (covered) {
      unsigned inGroups = 0, total = 0;
      for (const ControlGroup &g : *groups)
        inGroups += llvm::count(g.operands, iv);
      total = llvm::count(user->getOperands(), iv);
      covered = inGroups == total;
    }
    if (!covered)
      return why.refuse(user->getLoc(),
                        "the rewrite cannot replace " + controlName(iv) +
                            " in '" + user->getName().getStringRef() +
                            "': it uses the loop variable outside a control "
                            "expression");
  }
  return success();
}

} // namespace mlir::rake::gpuir::detail

LogicalResult mlir::rake::gpuir::detail::checkQuietly(
    MLIRContext *ctx, function_ref<LogicalResult()> check,
    std::string &message) {
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
    if (message.empty())
      message = d.str();
    return success();
  });
  return check();
}

LogicalResult mlir::rake::gpuir::substituteControlValue(
    RewriterBase &rewriter, Operation *user, Value old, AffineExpr repl,
    ValueRange replOperands) {
  FailureOr<SmallVector<ControlGroup>> groups = getControlGroups(user);
  if (failed(groups))
    return failure();
  for (ControlGroup &g : *groups)
    if (llvm::is_contained(g.operands, old))
      g = substitute(g, old, repl, replOperands);
  rewriter.modifyOpInPlace(user, [&] { setControlGroups(user, *groups); });
  return success(llvm::is_contained(replOperands, old) ||
                 !llvm::is_contained(user->getOperands(), old));
}

namespace {
/// The values an expression takes, inclusive, when known.
struct ValueRange64 {
  bool known = false;
  int64_t lo = 0, hi = 0;
};

int64_t floorDiv(int64_t a, int64_t b) { return llvm::divideFloorSigned(a, b); }

ValueRange64 rangeOf(AffineExpr e, ArrayRef<ValueRange64> dims) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return d.getPosition() < dims.size() ? dims[d.getPosition()] : ValueRange64();
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return {true, c.getValue(), c.getValue()};
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return {};
  ValueRange64 l = rangeOf(bin.getLHS(), dims), r = rangeOf(bin.getRHS(), dims);
  if (!l.known || !r.known)
    return {};
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return {true, l.lo + r.lo, l.hi + r.hi};
  case AffineExprKind::Mul: {
    int64_t a = l.lo * r.lo, b = l.lo * r.hi, c = l.hi * r.lo, d = l.hi * r.hi;
    return {true, std::min({a, b, c, d}), std::max({a, b, c, d})};
  }
  case AffineExprKind::FloorDiv:
    if (r.lo != r.hi || r.lo <= 0)
      return {};
    return {true, floorDiv(l.lo, r.lo), floorDiv(l.hi, r.lo)};
  case AffineExprKind::CeilDiv:
    if (r.lo != r.hi || r.lo <= 0)
      return {};
    return {true, -floorDiv(-l.lo, r.lo), -floorDiv(-l.hi, r.lo)};
  case AffineExprKind::Mod:
    if (r.lo != r.hi || r.lo <= 0)
      return {};
    if (floorDiv(l.lo, r.lo) == floorDiv(l.hi, r.lo))
      return {true, l.lo - floorDiv(l.lo, r.lo) * r.lo,
              l.hi - floorDiv(l.lo, r.lo) * r.lo};
    return {true, 0, r.lo - 1};
  default:
    return {};
  }
}

/// The terms of a sum.
void sumTerms(AffineExpr e, SmallVectorImpl<AffineExpr> &terms) {
  if (e.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    sumTerms(bin.getLHS(), terms);
    sumTerms(bin.getRHS(), terms);
    return;
  }
  terms.push_back(e);
}

/// A term that is a multiple of k, divided by k: `x * (c k)` is `x * c`, a
/// constant c k is c.
std::optional<AffineExpr> dividedTerm(AffineExpr t, int64_t k) {
  if (auto c = dyn_cast<AffineConstantExpr>(t))
    return c.getValue() % k == 0
               ? std::optional<AffineExpr>(
                     getAffineConstantExpr(c.getValue() / k, t.getContext()))
               : std::nullopt;
  if (t.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  auto bin = cast<AffineBinaryOpExpr>(t);
  for (auto [x, y] : {std::pair(bin.getLHS(), bin.getRHS()),
                      std::pair(bin.getRHS(), bin.getLHS())})
    if (auto c = dyn_cast<AffineConstantExpr>(y); c && c.getValue() % k == 0)
      return x * (c.getValue() / k);
  return std::nullopt;
}

/// floordiv and mod by k of a sum whose terms that are not multiples of k
/// stay, together, in one block [q k, q k + k) (by the loops' constant
/// bounds) become the multiples divided plus q, and the rest less q k:
/// with 0 <= %t < 64, (%w * 64 + %t) floordiv 64 is %w and
/// (%j * 16 + %c * 8 + %e) floordiv 8 is %j * 2 + %c when 0 <= %e < 8.
/// Sound: floor((k W + R) / k) = W + floor(R / k) for integers W and R.
AffineExpr simplifyWithRanges(AffineExpr e, ArrayRef<ValueRange64> dims) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return e;
  AffineExpr l = simplifyWithRanges(bin.getLHS(), dims);
  AffineExpr r = simplifyWithRanges(bin.getRHS(), dims);
  if (auto c = dyn_cast<AffineConstantExpr>(r);
      c && c.getValue() > 0 &&
      (e.getKind() == AffineExprKind::FloorDiv ||
       e.getKind() == AffineExprKind::Mod)) {
    int64_t k = c.getValue();
    MLIRContext *ctx = e.getContext();
    SmallVector<AffineExpr> terms;
    sumTerms(l, terms);
    AffineExpr whole = getAffineConstantExpr(0, ctx);
    AffineExpr rest = getAffineConstantExpr(0, ctx);
    for (AffineExpr t : terms) {
      if (std::optional<AffineExpr> d = dividedTerm(t, k))
        whole = whole + *d;
      else
        rest = rest + t;
    }
    ValueRange64 rr = rangeOf(rest, dims);
    if (rr.known && floorDiv(rr.lo, k) == floorDiv(rr.hi, k)) {
      int64_t q = floorDiv(rr.lo, k);
      return e.getKind() == AffineExprKind::FloorDiv ? whole + q
                                                     : rest - q * k;
    }
    // Otherwise the multiples still leave the division: (k W + R) floordiv
    // k is W + R floordiv k, (k W + R) mod k is R mod k.
    if (whole != getAffineConstantExpr(0, ctx))
      return e.getKind() == AffineExprKind::FloorDiv ? whole + rest.floorDiv(k)
                                                     : rest % k;
  }
  switch (e.getKind()) {
  case AffineExprKind::Add: return l + r;
  case AffineExprKind::Mul: return l * r;
  case AffineExprKind::FloorDiv: return l.floorDiv(r);
  case AffineExprKind::CeilDiv: return l.ceilDiv(r);
  case AffineExprKind::Mod: return l % r;
  default: return e;
  }
}
} // namespace

void mlir::rake::gpuir::detail::simplifyGroupsUnder(RewriterBase &rewriter,
                                                    Operation *root) {
  root->walk([&](Operation *op) {
    if (!isa_and_nonnull<GpuIRDialect>(op->getDialect()))
      return;
    FailureOr<SmallVector<ControlGroup>> groups = getControlGroups(op);
    if (failed(groups) || groups->empty())
      return;
    for (ControlGroup &g : *groups) {
      g = simplifyGroup(g);
      // The ranges of loop variables with constant bounds.
      SmallVector<ValueRange64> dims;
      for (Value v : g.operands) {
        ValueRange64 r;
        if (auto arg = dyn_cast<BlockArgument>(v))
          if (auto loop = dyn_cast_or_null<ForOp>(arg.getOwner()->getParentOp())) {
            std::optional<int64_t> lo = loop.getConstantLowerBound();
            std::optional<int64_t> hi = loop.getConstantUpperBound();
            if (lo && hi && *hi > *lo)
              r = {true, *lo, *hi - 1};
          }
        dims.push_back(r);
      }
      SmallVector<AffineExpr> results;
      for (AffineExpr e : g.map.getResults())
        results.push_back(simplifyAffineExpr(simplifyWithRanges(e, dims),
                                             g.operands.size(), 0));
      g = simplifyGroup({g.operands, AffineMap::get(g.operands.size(), 0,
                                                    results, op->getContext())});
    }
    rewriter.modifyOpInPlace(op, [&] { setControlGroups(op, *groups); });
  });
}

void mlir::rake::gpuir::simplifyControlExprs(RewriterBase &rewriter,
                                             Operation *root) {
  simplifyGroupsUnder(rewriter, root);
  removeTrueGuards(rewriter, root);
  mergeNestedGuards(rewriter, root);
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
