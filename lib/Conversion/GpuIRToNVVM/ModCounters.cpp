//===- ModCounters.cpp - Loop-carried counters for `iv mod m` -------------===//
//
// Rings of stages index their buffers and barriers by `(k + c) mod m`. In a
// K loop that is a 64-bit division by a constant per use (ptxas makes a
// dozen multiply-highs and adds of it), repeated for every wait, release
// and operand of every iteration. Where the dividend grows by a constant
// each iteration, the remainder is carried instead: one add, compare and
// select a step.
//
//===----------------------------------------------------------------------===//

#include "Rake/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir::rake {
#define GEN_PASS_DEF_RAKEMODCOUNTERS
#include "Rake/Conversion/Passes.h.inc"
} // namespace mlir::rake

using namespace mlir;

namespace {

/// A remainder the loop carries: `lhs mod m`, lhs an affine function of
/// `operands` (as dims d0..dn: the loop's IV and invariant values) that
/// grows by `step` (taken in [0, m)) each iteration.
struct Counter {
  AffineExpr lhs;
  int64_t m, step;
  SmallVector<Value> operands;
};

/// The operand positions an expression reads (dims first, then symbols).
static SmallVector<unsigned> positionsOf(AffineExpr e, unsigned numDims,
                                         unsigned numSymbols) {
  SmallVector<unsigned> out;
  for (unsigned d = 0; d < numDims; ++d)
    if (e.isFunctionOfDim(d))
      out.push_back(d);
  for (unsigned s = 0; s < numSymbols; ++s)
    if (e.isFunctionOfSymbol(s))
      out.push_back(numDims + s);
  return out;
}

/// The counter for `mod` (a subexpression of apply's map), or none when
/// its lhs reads a value that changes within the loop's body or does not
/// grow by a constant.
static std::optional<Counter> counterFor(AffineBinaryOpExpr mod,
                                         affine::AffineApplyOp apply,
                                         scf::ForOp loop, int64_t loopStep) {
  MLIRContext *ctx = loop.getContext();
  auto m = dyn_cast<AffineConstantExpr>(mod.getRHS());
  if (!m || m.getValue() <= 0)
    return std::nullopt;
  AffineMap map = apply.getAffineMap();
  unsigned nd = map.getNumDims(), ns = map.getNumSymbols();
  auto operands = apply.getMapOperands();
  SmallVector<AffineExpr> dims(nd, getAffineConstantExpr(0, ctx)),
      syms(ns, getAffineConstantExpr(0, ctx));
  Counter c{AffineExpr(), m.getValue(), 0, {}};
  std::optional<unsigned> ivDim;
  for (unsigned p : positionsOf(mod.getLHS(), nd, ns)) {
    Value v = operands[p];
    if (v == loop.getInductionVar())
      ivDim = c.operands.size();
    else if (loop.getRegion().isAncestor(v.getParentRegion()))
      return std::nullopt;
    (p < nd ? dims[p] : syms[p - nd]) =
        getAffineDimExpr(c.operands.size(), ctx);
    c.operands.push_back(v);
  }
  if (!ivDim)
    return std::nullopt;
  c.lhs = mod.getLHS().replaceDimsAndSymbols(dims, syms);
  AffineExpr ivExpr = getAffineDimExpr(*ivDim, ctx);
  auto growth = dyn_cast<AffineConstantExpr>(
      simplifyAffineExpr(c.lhs.replace(ivExpr, ivExpr + loopStep) - c.lhs,
                         c.operands.size(), 0));
  if (!growth)
    return std::nullopt;
  c.step = ((growth.getValue() % c.m) + c.m) % c.m;
  return c;
}

static void rotate(scf::ForOp loop, RewriterBase &rewriter) {
  std::optional<int64_t> loopStep = getConstantIntValue(loop.getStep());
  if (!loopStep)
    return;
  MLIRContext *ctx = loop.getContext();
  SmallVector<Counter> counters;
  // Each apply: its mod subexpressions and the counters that replace them.
  SmallVector<std::pair<affine::AffineApplyOp,
                        SmallVector<std::pair<AffineExpr, unsigned>>>>
      uses;
  loop.getBody()->walk([&](affine::AffineApplyOp apply) {
    SmallVector<std::pair<AffineExpr, unsigned>> found;
    apply.getAffineMap().getResult(0).walk([&](AffineExpr e) {
      if (e.getKind() != AffineExprKind::Mod)
        return;
      std::optional<Counter> c =
          counterFor(cast<AffineBinaryOpExpr>(e), apply, loop, *loopStep);
      if (!c)
        return;
      unsigned index = counters.size();
      for (auto [j, other] : llvm::enumerate(counters))
        if (other.lhs == c->lhs && other.m == c->m &&
            other.operands == c->operands)
          index = j;
      if (index == counters.size())
        counters.push_back(*c);
      found.push_back({e, index});
    });
    if (!found.empty())
      uses.push_back({apply, std::move(found)});
  });
  if (counters.empty())
    return;
  // Each remainder at the lower bound, before the loop.
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> inits;
  for (Counter &c : counters) {
    SmallVector<Value> at = c.operands;
    for (Value &v : at)
      if (v == loop.getInductionVar())
        v = loop.getLowerBound();
    inits.push_back(affine::AffineApplyOp::create(
        rewriter, loop.getLoc(), AffineMap::get(at.size(), 0, c.lhs % c.m),
        at));
  }
  FailureOr<LoopLikeOpInterface> rotated =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(
              rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
              [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> args) {
                // r + step, less m where it reaches m: in [0, m) again.
                SmallVector<Value> next;
                for (auto [arg, c] : llvm::zip(args, counters)) {
                  Value sum = arith::AddIOp::create(
                      b, loc, arg,
                      arith::ConstantIndexOp::create(b, loc, c.step));
                  Value m = arith::ConstantIndexOp::create(b, loc, c.m);
                  Value wraps = arith::CmpIOp::create(
                      b, loc, arith::CmpIPredicate::uge, sum, m);
                  next.push_back(arith::SelectOp::create(
                      b, loc, wraps, arith::SubIOp::create(b, loc, sum, m),
                      sum));
                }
                return next;
              });
  if (failed(rotated)) {
    // Not expected of scf.for; the divisions then stay, and so is right.
    for (Value init : inits)
      rewriter.eraseOp(init.getDefiningOp());
    return;
  }
  auto newLoop = cast<scf::ForOp>(rotated->getOperation());
  ArrayRef<BlockArgument> args =
      newLoop.getRegionIterArgs().take_back(counters.size());
  // Each use: the mod becomes a new symbol bound to the carried remainder.
  for (auto &[apply, found] : uses) {
    AffineMap map = apply.getAffineMap();
    unsigned ns = map.getNumSymbols();
    SmallVector<Value> operands(apply.getMapOperands());
    DenseMap<AffineExpr, AffineExpr> replace;
    for (auto [mod, j] : found) {
      if (replace.count(mod))
        continue;
      replace[mod] = getAffineSymbolExpr(ns++, ctx);
      operands.push_back(args[j]);
    }
    AffineExpr result = map.getResult(0).replace(replace);
    rewriter.setInsertionPoint(apply);
    rewriter.replaceOpWithNewOp<affine::AffineApplyOp>(
        apply, AffineMap::get(map.getNumDims(), ns, result), operands);
  }
}

struct RakeModCounters
    : mlir::rake::impl::RakeModCountersBase<RakeModCounters> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops)
      rotate(loop, rewriter);
  }
};

} // namespace
