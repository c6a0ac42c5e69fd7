//===- RewriteUtils.h - pieces the rewrites share ---------------*- C++ -*-===//

#ifndef RAKE_LIB_DIALECT_GPUIR_TRANSFORMOPS_REWRITEUTILS_H
#define RAKE_LIB_DIALECT_GPUIR_TRANSFORMOPS_REWRITEUTILS_H

#include "Dependence.h"
#include "Rake/Dialect/GpuIR/TransformOps/Rewrites.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::rake::gpuir::detail {

/// One group of control expressions: a map and the operands of its dims.
struct ControlGroup {
  SmallVector<Value> operands;
  AffineMap map;
};

/// The control expression groups of a GpuIR op (a loop has two: its
/// bounds), or failure for an op whose index operands are not known to be
/// the dims of one map.
FailureOr<SmallVector<ControlGroup>> getControlGroups(Operation *op);
void setControlGroups(Operation *op, ArrayRef<ControlGroup> groups);
/// The group simplified (MLIR's simplifyAffineMap, unless `simplify` is
/// false), with the operands no expression uses dropped.
ControlGroup simplifyGroup(const ControlGroup &g, bool simplify = true);
/// Every control expression group at or under `root` simplified.
void simplifyGroupsUnder(RewriterBase &rewriter, Operation *root);
/// The combined operands of two groups and their first results over them.
std::pair<SmallVector<Value>, std::pair<AffineExpr, AffineExpr>>
combine(const ControlGroup &a, const ControlGroup &b);
/// Runs `check` with its diagnostics kept back: the first one's text goes
/// to `message` (for a refusal that quotes the verifier).
LogicalResult checkQuietly(MLIRContext *ctx, function_ref<LogicalResult()> check,
                           std::string &message);
/// An expression printed with the names of its control values.
std::string printExpr(AffineExpr e, ValueRange operands);
std::string loopName(ForOp loop);
/// "A and B reach" or, for two instances of one access, "A reaches".
std::string reach(const Conflict &c);
void noteConflict(Refusal &why, const Conflict &c);
/// A loop with the given bounds, mode, unit and variable name, with an
/// empty body, at the rewriter's point.
ForOp makeLoop(RewriterBase &rewriter, Location loc, ControlGroup lo,
               ControlGroup hi, LoopModeAttr mode, CollUnitAttr unit,
               StringRef name);
ControlGroup constantGroup(MLIRContext *ctx, int64_t c);
/// Replaces every use of `old` (a loop variable) by `repl` over
/// `replOperands`.
LogicalResult substituteAll(RewriterBase &rewriter, Value old, AffineExpr repl,
                            ValueRange replOperands, Refusal &why);
/// An index split into a corner (the terms over values from outside a
/// statement) and an offset (the rest).
struct SplitIndex {
  AffineExpr corner, offset;
};
/// Splits a sum into the terms that use only `outerDims` and the others;
/// fails when a term uses both.
FailureOr<SplitIndex> splitIndex(AffineExpr e,
                                 const llvm::SmallBitVector &outerDims);

/// `ops` moved into a new `gpuir.if lhs pred rhs` (expressions over
/// `operands`) made at the rewriter's point.
IfOp guardStatements(RewriterBase &rewriter, Location loc,
                     ArrayRef<Operation *> ops, ValueRange operands,
                     AffineExpr lhs, CmpPredicate pred, AffineExpr rhs);

/// A loop's body parted after a statement, with each part's accesses.
struct BodySplit {
  SmallVector<Operation *> first, second;
  SmallVector<Access> firstAccesses, secondAccesses;
};
/// Parts `loop`'s body after `stmt`; refuses with `valueMessage` (a note at
/// the use, and with `noteMade` where the value is made) when a statement
/// after it uses a value or buffer made up to it.
LogicalResult splitBody(ForOp loop, Operation *stmt, BodySplit &out,
                        const Twine &valueMessage, bool noteMade,
                        Refusal &why);

/// Whether every use of the loop variable `iv` is in a control expression
/// the rewrites can substitute into (checked before a rewrite changes
/// anything, so that a refusal leaves the program as it was).
LogicalResult checkSubstitutable(Value iv, Refusal &why);

/// The terms of a sum.
void sumTerms(AffineExpr e, SmallVectorImpl<AffineExpr> &terms);
/// The first op at or under `user` that uses a value `def` (or an op in it)
/// makes.
Operation *usesValueOf(Operation *user, Operation *def);

/// Constants and coefficients of this magnitude or more are refused by the
/// rewrites that reason about control expressions: they decide over
/// unbounded integers (Presburger sets, MLIR's affine simplifier), while
/// GpuIR's 64-bit index arithmetic wraps; with every constant below 2^31 and
/// control values below 2^31 (the sizes the check assumes), the few-term
/// expressions of a program stay far from 2^63 (an adversarial review
/// reordered colliding writes, and simplified a guard, across a wrap).
constexpr int64_t kLargeControlConstant = int64_t(1) << 31;
/// Whether `e` (or a result of `m`) has a constant or coefficient of
/// magnitude kLargeControlConstant or more.
bool hasLargeConstant(AffineExpr e);
bool hasLargeConstant(AffineMap m);

} // namespace mlir::rake::gpuir::detail

#endif // RAKE_LIB_DIALECT_GPUIR_TRANSFORMOPS_REWRITEUTILS_H
