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

/// permute_loops: the perfect nest at `outer` reordered so that depth d
/// iterates what depth perm[d] did, by checked interchanges. Returns the
/// loops outermost first.
FailureOr<SmallVector<ForOp>> permuteLoops(RewriterBase &rewriter,
                                           ForOp outer, ArrayRef<int64_t> perm,
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

/// set_memory: the buffer's memory type (and its windows').
LogicalResult setMemory(RewriterBase &rewriter, Value buffer,
                        Attribute memorySpace, Refusal &why);

/// wrap_device_function: `stmt` becomes the body of a device function.
/// With `groups` (name, warps), the device function has named warp groups
/// instead of `block` threads; `registers` (one per group, when given) sets
/// each group's register count: negative with setmaxnreg.dec, positive with
/// setmaxnreg.inc, 0 unchanged.
FailureOr<DeviceFunctionOp> wrapDeviceFunction(
    RewriterBase &rewriter, Operation *stmt, int64_t block,
    int64_t blocksPerSm, int64_t cluster, Refusal &why,
    ArrayRef<std::pair<std::string, int64_t>> groups = {},
    ArrayRef<int64_t> registers = {});

/// wrap_warps: `stmt` runs only on the warps of the named group (of
/// warps [lo, hi) of it).
FailureOr<WarpsOp> wrapWarps(RewriterBase &rewriter, Operation *stmt,
                             StringRef group,
                             std::optional<std::pair<int64_t, int64_t>> range,
                             Refusal &why);

/// lift_scope: swaps `stmt` (a loop or if) with the loop or if whose body
/// it is. Returns the op that is now outer (the one `stmt` was in, or, for
/// two loops, the new outer loop).
FailureOr<Operation *> liftScope(RewriterBase &rewriter, Operation *stmt,
                                 Refusal &why);

/// insert_fence: a fence before or after `stmt`.
FailureOr<FenceOp> insertFence(RewriterBase &rewriter, Operation *stmt,
                               bool after, SyncTimeline pre,
                               SyncTimeline post, Refusal &why);

/// What stage_mem made.
struct StagedBuffer {
  AllocOp alloc;
  /// The copy-in and copy-out nests (null when not needed).
  ForOp copyIn, copyOut;
};

/// stage_mem: the accesses of `buffer` in the statements `first` to
/// `last` (of one block), all inside a window of the given shape at a
/// corner that does not depend on the loops in them, redirected to a new
/// buffer of `memorySpace` (padded by `padding` elements per dimension),
/// copied in before `first` (unless `first` writes the whole window and
/// reads none of it) and out after `last` (where they write).
FailureOr<StagedBuffer> stageMem(RewriterBase &rewriter, Operation *first,
                                 Operation *last,
                                 Value buffer, ArrayRef<int64_t> shape,
                                 ArrayRef<int64_t> padding,
                                 Attribute memorySpace, StringRef name,
                                 Refusal &why);

/// replace: the nest becomes the instruction `instrName` (with `attrs`)
/// whose operands are windows of `buffers`, in order; refused unless the
/// nest and the instruction's sequential behavior write the same expression
/// to every element.
/// An instruction that completes on a trailing barrier takes `barrier` at
/// `barrierCoords` (over `barrierOperands`).
FailureOr<Operation *> replaceWithInstruction(
    RewriterBase &rewriter, ForOp nest, StringRef instrName,
    ArrayRef<Value> buffers, DictionaryAttr attrs, Refusal &why,
    Value barrier = Value(), ArrayRef<Value> barrierOperands = {},
    AffineMap barrierCoords = AffineMap());

/// divide_dim: dimension `dim` of size n becomes n / factor, factor; an
/// index i becomes (i floordiv factor, i mod factor).
LogicalResult divideDim(RewriterBase &rewriter, Value buffer, int64_t dim,
                        int64_t factor, Refusal &why);
/// mult_dim: dimensions dim and dim + 1 become one, (i, j) -> i * n + j.
LogicalResult multDims(RewriterBase &rewriter, Value buffer, int64_t dim,
                       Refusal &why);
/// rearrange_dim: the dimensions permuted (new dimension d is old perm[d]).
LogicalResult rearrangeDims(RewriterBase &rewriter, Value buffer,
                            ArrayRef<int64_t> perm, Refusal &why);
/// expand_dim: a new leading dimension of `size`, indexed by `index` (over
/// `indexOperands`) at every use; the index must stay in [0, size).
LogicalResult expandDim(RewriterBase &rewriter, Value buffer, int64_t size,
                        AffineExpr index, ArrayRef<Value> indexOperands,
                        Refusal &why);
/// lift_alloc: the allocation moved out of the sequential loop or the if
/// around it.
LogicalResult liftAlloc(RewriterBase &rewriter, AllocOp alloc, Refusal &why);
/// ring: the buffer, allocated in the body of the sequential loop over
/// %`loopName`, as `stages` stages indexed by the loop's variable mod stages,
/// lifted out of the loop, with the ring's mbarriers named `barrierName`
/// (allocated before the loop unless they exist). Returns the barriers.
FailureOr<AllocOp> ringStages(RewriterBase &rewriter, AllocOp alloc,
                              int64_t stages, StringRef loopName,
                              StringRef barrierName, Refusal &why);
/// inline_window: element accesses through the window go to its source.
LogicalResult inlineWindow(RewriterBase &rewriter, WindowOp window,
                           Refusal &why);

/// cut_loop: `for i = lo to hi` into `lo to lo + n` and `lo + n to hi`;
/// refused unless 0 <= n <= hi - lo for every parameter value.
FailureOr<std::pair<ForOp, ForOp>> cutLoop(RewriterBase &rewriter, ForOp loop,
                                           int64_t n, Refusal &why);
/// fuse: the loop and the loop after it (the same bounds) become one.
FailureOr<ForOp> fuseLoops(RewriterBase &rewriter, ForOp first, Refusal &why);
/// mult_loops: `for i { for j = 0 to n }` (the inner loop the only statement)
/// into one loop over i * n + j.
FailureOr<ForOp> multLoops(RewriterBase &rewriter, ForOp outer,
                           StringRef name, Refusal &why);
/// add_loop: `stmt` into `for v = 0 to n { if v == 0 { stmt } }`.
FailureOr<ForOp> addLoop(RewriterBase &rewriter, Operation *stmt, int64_t n,
                         StringRef name, Refusal &why);

/// add_if: `stmt` into `if cond { stmt }`, cond the set's constraints over
/// `operands` (one per dimension); refused unless the condition holds at
/// every instance of `stmt`, or, with `specialize`, into
/// `if cond { stmt } else { copy of stmt }`.
FailureOr<IfOp> addIf(RewriterBase &rewriter, Operation *stmt,
                      IntegerSet condition, ArrayRef<Value> operands,
                      bool specialize, Refusal &why);
/// bind_expr: the one result of `op` written to a new rank-0 buffer of
/// `space` (rmem in a device function, host outside, when null) and read
/// back for every use. Returns the allocation.
FailureOr<AllocOp> bindExpr(RewriterBase &rewriter, Operation *op,
                            StringRef name, Attribute space, Refusal &why);

/// inline: the call replaced by a copy of the called procedure's body, its
/// parameters bound to the arguments.
LogicalResult inlineCall(RewriterBase &rewriter, CallOp call, Refusal &why);

/// The buffer a name refers to at `stmt`: a parameter of its procedure or
/// a named allocation in a block around it.
Value lookupBuffer(Operation *stmt, StringRef name);

/// Merges `if a { if b { S } }` (conjunctions, no else) into
/// `if a and b { S }` at or under `root`.
void mergeNestedGuards(RewriterBase &rewriter, Operation *root);

/// skew: in the loop around `stmt`, the statements after `stmt` run `depth`
/// iterations later: `for k = lo to hi + depth { if k < hi { A(k) }
/// if k >= lo + depth { B(k - depth) } }`. Refused when B at i and A at j,
/// i < j <= i + depth, conflict (their order would reverse).
FailureOr<ForOp> skewLoop(RewriterBase &rewriter, Operation *stmt,
                          int64_t depth, Refusal &why);

/// Guards that hold at every iteration around them (Presburger) removed.
void removeTrueGuards(RewriterBase &rewriter, Operation *root);
/// Whether the guard (one alternative) holds at every iteration around it.
bool guardAlwaysHolds(IfOp cond);

/// simplify: every control expression at or under `root` simplified, with
/// the control values it no longer uses dropped, nested guards merged and
/// guards that always hold removed.
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
