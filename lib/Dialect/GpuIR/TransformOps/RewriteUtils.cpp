//===- RewriteUtils.cpp - control expressions for the rewrites ------------===//
//
// What the checked rewrites (Rewrites.cpp, ScopeRewrites.cpp, ...) share:
// the control expressions of an op (its affine maps over control values),
// substituting and simplifying them, splitting bodies and guarding
// statements.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "Dependence.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::gpuir::detail;

//===----------------------------------------------------------------------===//
// Control expressions of an op
//===----------------------------------------------------------------------===//

namespace mlir::rake::gpuir::detail {

/// The control expression groups of a GpuIR op, or failure for an op whose
/// index operands are not known to be the dims of one map.
FailureOr<SmallVector<ControlGroup>> getControlGroups(Operation *op) {
  SmallVector<ControlGroup> groups;
  if (auto loop = dyn_cast<ForOp>(op)) {
    groups.push_back(
        {llvm::to_vector(loop.getLowerOperands()), loop.getLowerMap()});
    groups.push_back(
        {llvm::to_vector(loop.getUpperOperands()), loop.getUpperMap()});
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
  unsigned numIndex =
      llvm::count_if(op->getOperandTypes(), [](Type t) { return t.isIndex(); });
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
  unsigned numIndex =
      llvm::count_if(op->getOperandTypes(), [](Type t) { return t.isIndex(); });
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
          int64_t k =
              ((c.getValue() % n.getValue()) + n.getValue()) % n.getValue();
          AffineExpr base = sum.getLHS();
          return (k ? base + k : base) % n;
        }
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::FloorDiv:
    return l.floorDiv(r);
  case AffineExprKind::CeilDiv:
    return l.ceilDiv(r);
  case AffineExprKind::Mod:
    return l % r;
  default:
    return e;
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
  return {
      ops,
      {a.map.getResult(0).replaceDims(da), b.map.getResult(0).replaceDims(db)}};
}

/// An expression printed with the names of its control values.
std::string printExpr(AffineExpr e, ValueRange operands) {
  std::string s;
  llvm::raw_string_ostream os(s);
  std::function<void(AffineExpr, bool)> print = [&](AffineExpr x, bool paren) {
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
    case AffineExprKind::Add:
      os << " + ";
      break;
    case AffineExprKind::Mul:
      os << " * ";
      break;
    case AffineExprKind::FloorDiv:
      os << " floordiv ";
      break;
    case AffineExprKind::CeilDiv:
      os << " ceildiv ";
      break;
    case AffineExprKind::Mod:
      os << " mod ";
      break;
    default:
      break;
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

std::string loopName(ForOp loop) { return controlName(loop.getInductionVar()); }

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
                        "of '" +
                            user->getName().getStringRef() + "'");
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
  auto cond =
      IfOp::create(rewriter, loc, c.operands, AffineMapAttr::get(c.map),
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

LogicalResult
mlir::rake::gpuir::detail::checkQuietly(MLIRContext *ctx,
                                        function_ref<LogicalResult()> check,
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

void mlir::rake::gpuir::detail::sumTerms(AffineExpr e,
                                         SmallVectorImpl<AffineExpr> &terms) {
  if (e.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    sumTerms(bin.getLHS(), terms);
    sumTerms(bin.getRHS(), terms);
    return;
  }
  terms.push_back(e);
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
    return d.getPosition() < dims.size() ? dims[d.getPosition()]
                                         : ValueRange64();
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return {true, c.getValue(), c.getValue()};
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return {};
  ValueRange64 l = rangeOf(bin.getLHS(), dims), r = rangeOf(bin.getRHS(), dims);
  if (!l.known || !r.known)
    return {};
  // Checked: a range past 64 bits is unknown (an adversarial review: an
  // unchecked sum wrapped and a rewrite trusted the wrapped range).
  switch (e.getKind()) {
  case AffineExprKind::Add: {
    ValueRange64 s{true, 0, 0};
    if (__builtin_add_overflow(l.lo, r.lo, &s.lo) ||
        __builtin_add_overflow(l.hi, r.hi, &s.hi))
      return {};
    return s;
  }
  case AffineExprKind::Mul: {
    int64_t a, b, c, d;
    if (__builtin_mul_overflow(l.lo, r.lo, &a) ||
        __builtin_mul_overflow(l.lo, r.hi, &b) ||
        __builtin_mul_overflow(l.hi, r.lo, &c) ||
        __builtin_mul_overflow(l.hi, r.hi, &d))
      return {};
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
      return e.getKind() == AffineExprKind::FloorDiv ? whole + q : rest - q * k;
    }
    // Otherwise the multiples still leave the division: (k W + R) floordiv
    // k is W + R floordiv k, (k W + R) mod k is R mod k.
    if (whole != getAffineConstantExpr(0, ctx))
      return e.getKind() == AffineExprKind::FloorDiv ? whole + rest.floorDiv(k)
                                                     : rest % k;
  }
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::FloorDiv:
    return l.floorDiv(r);
  case AffineExprKind::CeilDiv:
    return l.ceilDiv(r);
  case AffineExprKind::Mod:
    return l % r;
  default:
    return e;
  }
}
} // namespace

bool mlir::rake::gpuir::detail::hasLargeConstant(AffineExpr e) {
  bool large = false;
  e.walk([&](AffineExpr x) {
    if (auto c = dyn_cast<AffineConstantExpr>(x))
      large |= c.getValue() >= kLargeControlConstant ||
               c.getValue() <= -kLargeControlConstant;
  });
  return large;
}

bool mlir::rake::gpuir::detail::hasLargeConstant(AffineMap m) {
  return llvm::any_of(m.getResults(),
                      [](AffineExpr e) { return hasLargeConstant(e); });
}

void mlir::rake::gpuir::detail::simplifyGroupsUnder(RewriterBase &rewriter,
                                                    Operation *root) {
  root->walk([&](Operation *op) {
    if (!isa_and_nonnull<GpuIRDialect>(op->getDialect()))
      return;
    FailureOr<SmallVector<ControlGroup>> groups = getControlGroups(op);
    if (failed(groups) || groups->empty())
      return;
    // Left as written where a constant is large: simplifying is exact over
    // the integers, not under 64-bit wrapping (kLargeControlConstant).
    if (llvm::any_of(*groups, [](const ControlGroup &g) {
          return hasLargeConstant(g.map);
        }))
      return;
    for (ControlGroup &g : *groups) {
      g = simplifyGroup(g);
      // The ranges of loop variables with constant bounds.
      SmallVector<ValueRange64> dims;
      for (Value v : g.operands) {
        ValueRange64 r;
        if (auto arg = dyn_cast<BlockArgument>(v))
          if (auto loop =
                  dyn_cast_or_null<ForOp>(arg.getOwner()->getParentOp())) {
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
      g = simplifyGroup(
          {g.operands,
           AffineMap::get(g.operands.size(), 0, results, op->getContext())});
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
