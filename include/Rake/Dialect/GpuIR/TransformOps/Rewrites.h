//===- Rewrites.h - checked rewrites of GpuIR -------------------*- C++ -*-===//
//
// The rewrites of the scheduling language, usable without the Transform
// dialect: each keeps the sequential meaning of the program or refuses,
// saying why. The Transform ops (GpuIRTransformOps.h) are thin wrappers.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_DIALECT_GPUIR_TRANSFORMOPS_REWRITES_H
#define RAKE_DIALECT_GPUIR_TRANSFORMOPS_REWRITES_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#include "mlir/IR/PatternMatch.h"

#include <string>
#include <utility>

namespace mlir::rake::gpuir {

/// Why a rewrite was refused: a message about the payload op at `loc`, and
/// notes at the statements that stop it.
struct Refusal {
  Location loc;
  std::string message;
  llvm::SmallVector<std::pair<Location, std::string>, 2> notes;

  explicit Refusal(Location loc) : loc(loc) {}
  LogicalResult refuse(Location at, const llvm::Twine &why) {
    loc = at;
    message = why.str();
    return failure();
  }
  void note(Location at, const llvm::Twine &what) {
    notes.push_back({at, what.str()});
  }
};

/// What divide_loop does with the iterations past the last whole block.
enum class TailStrategy { perfect, guard, cut };
std::optional<TailStrategy> symbolizeTailStrategy(llvm::StringRef name);

/// divide_loop: `for %i = lo to hi` into `for %io { for %ii = 0 to factor }`.
FailureOr<std::pair<ForOp, ForOp>>
divideLoop(RewriterBase &rewriter, ForOp loop, int64_t factor,
           TailStrategy tail, llvm::StringRef outerName,
           llvm::StringRef innerName, Refusal &why);

/// reorder_loops: interchanges `outer` and the loop that is its body.
/// Returns the new outer and inner loops.
FailureOr<std::pair<ForOp, ForOp>> reorderLoops(RewriterBase &rewriter,
                                                ForOp outer, Refusal &why);

/// reorder_stmts: moves `first` after the statement that follows it.
LogicalResult reorderStmts(RewriterBase &rewriter, Operation *first,
                           Refusal &why);

/// fission: splits the loop enclosing `stmt` after it. Returns both loops.
FailureOr<std::pair<ForOp, ForOp>> fissionAfter(RewriterBase &rewriter,
                                                Operation *stmt,
                                                Refusal &why);

/// unroll: a copy of the body per iteration of a constant-bound loop.
LogicalResult unrollLoop(RewriterBase &rewriter, ForOp loop, Refusal &why);

/// set_loop_mode: the loop's mode and unit; GpuIR's rules on modes checked.
LogicalResult setLoopMode(RewriterBase &rewriter, ForOp loop, LoopMode mode,
                          CollUnitAttr unit, Refusal &why);

/// simplify: every control expression at or under `root` simplified, with
/// the control values it no longer uses dropped.
void simplifyControlExprs(RewriterBase &rewriter, Operation *root);

/// Replaces `old` in the control expressions of `user` by `repl`, an affine
/// expression whose dims are `replOperands`. Fails on an op whose control
/// expressions it does not know.
LogicalResult substituteControlValue(RewriterBase &rewriter, Operation *user,
                                     Value old, AffineExpr repl,
                                     ValueRange replOperands);

/// How diagnostics name a value: `%i` for a loop variable, a procedure
/// parameter's name, an allocation's name.
std::string controlName(Value v);

} // namespace mlir::rake::gpuir

#endif // RAKE_DIALECT_GPUIR_TRANSFORMOPS_REWRITES_H
