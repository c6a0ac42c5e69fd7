//===- Dependence.h - conflicting accesses, decided by Presburger -*- C++ -*-===//
//
// The question every reordering rewrite asks: do two statements access an
// element of one buffer, one of them writing or reducing, in instances
// related in a given way? Each instance's loop variables (of the loops
// between the rewrite's scope and the access) are integer variables bounded
// by their loops; values defined outside the scope (parameters, outer loop
// variables) are shared by both instances. The element accessed is composed
// through windows; an instruction accesses the whole window of each
// parameter. MLIR's Presburger library decides whether a conflicting pair
// exists (exactly, over the integers, with floordiv and mod by constants).
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_LIB_DIALECT_GPUIR_TRANSFORMOPS_DEPENDENCE_H
#define RAKE_LIB_DIALECT_GPUIR_TRANSFORMOPS_DEPENDENCE_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Dialect/GpuIR/TransformOps/Rewrites.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::rake::gpuir {

/// One access a statement makes: a read, write or reduction, or an
/// instruction's parameter (all of its window).
struct Access {
  Operation *op;
  /// The operand accessed (a buffer or a window of one).
  Value operand;
  AccessMode mode;
  /// Whether the access covers the whole operand (an instruction's).
  bool whole;
  /// The buffer the operand is a window of (an allocation or parameter).
  Value root;
};

/// The accesses made at or under `stmt`. Fails, filling `why`, on an op
/// whose accesses cannot be told (a call, an op of another dialect with
/// memory effects).
LogicalResult collectAccesses(Operation *stmt, SmallVectorImpl<Access> &out,
                              Refusal &why);

/// The variables of one instance of an access: its loop variables.
struct Instance {
  llvm::DenseMap<Value, unsigned> vars;
};

/// A Presburger system relating two instances.
class InstancePair {
public:
  /// Loops strictly below `scope` get a variable per instance.
  explicit InstancePair(Operation *scope) : scope(scope) {}

  /// Adds instance `k` (0 or 1) of `access`: its loops' variables and bounds,
  /// the conditions of the `gpuir.if`s it is in the then-branch of. Returns
  /// the element it accesses, as expressions over the system's variables.
  FailureOr<SmallVector<AffineExpr>> addInstance(unsigned k,
                                                 const Access &access);

  /// Adds, for instance `k`, the loops and conditions between the scope and
  /// `op` (not `op` itself).
  LogicalResult addEnclosing(unsigned k, Operation *op);

  /// An expression over `operands` as one over the system's variables, the
  /// operands read in instance `k`.
  FailureOr<AffineExpr> align(unsigned k, AffineExpr e, ValueRange operands);

  /// A new variable bounded by `lo <= v < hi`.
  FailureOr<AffineExpr> addRange(AffineExpr lo, AffineExpr hi);

  /// The variable of a value in instance `k` (a loop variable below the
  /// scope) or shared (any other control value).
  unsigned var(unsigned k, Value v);

  /// Adds `lhs == rhs`, `lhs <= rhs - 1`, `lhs <= rhs` between expressions.
  LogicalResult addEq(AffineExpr lhs, AffineExpr rhs);
  LogicalResult addLt(AffineExpr lhs, AffineExpr rhs);
  LogicalResult addLe(AffineExpr lhs, AffineExpr rhs);

  AffineExpr dim(unsigned v) { return getAffineDimExpr(v, context()); }
  /// Empty over the integers; never when a large constant was refused
  /// (the system lacks that constraint, and 64-bit arithmetic may wrap).
  bool isEmpty() const { return !largeConstant && cst.isIntegerEmpty(); }
  /// Whether a constraint had a constant of kLargeControlConstant or more
  /// (and was refused: the failure of the call that added it).
  bool hasLargeConstant() const { return largeConstant; }
  MLIRContext *context() { return scope->getContext(); }

private:
  LogicalResult bound(presburger::BoundType type, unsigned pos, AffineExpr e,
                      bool closed = true);
  LogicalResult addLoop(unsigned k, ForOp loop);
  LogicalResult addCondition(unsigned k, IfOp cond);

  Operation *scope;
  FlatLinearConstraints cst;
  Instance inst[2];
  llvm::DenseMap<Value, unsigned> shared;
  bool largeConstant = false;
};

/// Relates the two instances' variables: the order a rewrite would change.
using InstanceOrder = llvm::function_ref<LogicalResult(InstancePair &)>;

/// A pair of accesses that conflict under the order.
struct Conflict {
  Access first, second;
};

/// Looks for an access of `firsts` (instance 0) and one of `seconds`
/// (instance 1) to one element of one buffer, one of them writing, under
/// `order`. Fails when the accesses cannot be analysed (`why` says which).
FailureOr<std::optional<Conflict>> findConflict(Operation *scope,
                                                ArrayRef<Access> firsts,
                                                ArrayRef<Access> seconds,
                                                InstanceOrder order,
                                                Refusal &why);

/// How a refusal names an access: "the write of %C".
std::string describeAccess(const Access &a);

} // namespace mlir::rake::gpuir

#endif // RAKE_LIB_DIALECT_GPUIR_TRANSFORMOPS_DEPENDENCE_H
